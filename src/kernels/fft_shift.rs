// SPDX-License-Identifier: GPL-3.0-or-later

//! FFT shift of batched complex64 vectors (`kernels/fft_shift.cu`): moves the zero-frequency
//! bin to the middle of each vector, exactly as `numpy.fft.fftshift` does along the last axis
//! (for odd lengths too, where it rotates by ceil(length / 2)).

use crate::error::{Error, Result};
use crate::kernels::element::Complex32;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::FFT_SHIFT_KERNELS;
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// For each of `vectors` vectors of `length` complex64 items:
/// `output[j] = input[(j + ceil(length / 2)) mod length]`. Input and output must not overlap.
///
/// # Safety
/// `input` and `output` must address `length * vectors` valid complex64 items of device
/// memory of the stream's device (host memory on the simulated backend) until the kernel
/// completes, and nothing else may write them meanwhile.
pub unsafe fn fft_shift(stream: &Stream, input: u64, output: u64, length: usize, vectors: usize) -> Result<()> {
    if length == 0 {
        return Err(Error::invalid_argument("fft_shift vector length is 0: pass the FFT size"));
    }
    let count = validate::product("fft_shift", &[length, vectors])?;
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<Complex32>("input", input, count)?;
    let output_range = validate::array::<Complex32>("output", output, count)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::fft_shift(input, output, length, count) };
    launch::run(stream, FFT_SHIFT_KERNELS.variant(""), on_cpu, |kernel| {
        let (length_argument, count_argument) = (length as u64, count as u64);
        unsafe {
            kernel.launch(
                count,
                &mut [argument(&input), argument(&output), argument(&length_argument), argument(&count_argument)],
            )
        }
    })
}
