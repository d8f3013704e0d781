// SPDX-License-Identifier: GPL-3.0-or-later

//! FFT shifts of batched complex64 vectors (`kernels/fft_shift.cu`): `fft_shift` moves the
//! zero-frequency bin to the middle of each vector and `ifft_shift` moves it back, exactly
//! as `numpy.fft.fftshift` and `numpy.fft.ifftshift` do along the last axis. Both are one
//! kernel, a rotation of each vector; for odd lengths they rotate by ceil(length / 2) and
//! floor(length / 2), so only for even lengths is either its own inverse.

use crate::error::{Error, Result};
use crate::kernels::element::Complex32;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::FFT_SHIFT_KERNELS;
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// For each of `vectors` vectors of `length` complex64 items (numpy's fftshift):
/// `output[j] = input[(j + ceil(length / 2)) mod length]`. Input and output must not overlap.
///
/// # Safety
/// `input` and `output` must address `length * vectors` valid complex64 items of device
/// memory of the stream's device (host memory on the simulated backend) until the kernel
/// completes, and nothing else may write them meanwhile.
pub unsafe fn fft_shift(stream: &Stream, input: u64, output: u64, length: usize, vectors: usize) -> Result<()> {
    unsafe { rotate_vectors(stream, "fft_shift", input, output, length, vectors, length - length / 2) }
}

/// For each of `vectors` vectors of `length` complex64 items (numpy's ifftshift, the inverse
/// of `fft_shift`): `output[j] = input[(j + floor(length / 2)) mod length]`. Input and
/// output must not overlap.
///
/// # Safety
/// As for `fft_shift`.
pub unsafe fn ifft_shift(stream: &Stream, input: u64, output: u64, length: usize, vectors: usize) -> Result<()> {
    unsafe { rotate_vectors(stream, "ifft_shift", input, output, length, vectors, length / 2) }
}

/// `output[j] = input[(j + rotation) mod length]` per vector; `rotation` is computed from
/// `length` by the callers, so it is below `length` whenever `length` is not 0.
unsafe fn rotate_vectors(
    stream: &Stream,
    name: &str,
    input: u64,
    output: u64,
    length: usize,
    vectors: usize,
    rotation: usize,
) -> Result<()> {
    if length == 0 {
        return Err(Error::invalid_argument(format!("{name} vector length is 0: pass the FFT size")));
    }
    let count = validate::product(name, &[length, vectors])?;
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<Complex32>("input", input, count)?;
    let output_range = validate::array::<Complex32>("output", output, count)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::fft_shift(input, output, length, rotation, count) };
    launch::run(stream, FFT_SHIFT_KERNELS.variant(""), on_cpu, |kernel| {
        let (length_argument, rotation_argument, count_argument) = (length as u64, rotation as u64, count as u64);
        unsafe {
            kernel.launch_each_item(
                count,
                &mut [
                    argument(&input),
                    argument(&output),
                    argument(&length_argument),
                    argument(&rotation_argument),
                    argument(&count_argument),
                ],
            )
        }
    })
}
