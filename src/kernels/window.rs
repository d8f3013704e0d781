// SPDX-License-Identifier: GPL-3.0-or-later

//! Multiplying batched vectors by a real window (`kernels/window.cu`): the step before an FFT
//! in spectrum blocks, on float32 or complex64 vectors with a float32 window.

use crate::error::{Error, Result};
use crate::kernels::element::WindowElement;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::WINDOW_KERNELS;
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// For each of `vectors` vectors of `length` items of `T` (f32 or
/// [`Complex32`](crate::kernels::Complex32)): `output[j] = input[j] * window[j mod length]`,
/// with `window` holding `length` float32 values. `output` may equal `input`.
///
/// # Safety
/// `input` and `output` must address `length * vectors` valid items and `window` `length`
/// float32 values of device memory of the stream's device (host memory on the simulated
/// backend) until the kernel completes, and nothing else may write them meanwhile.
pub unsafe fn window<T: WindowElement>(
    stream: &Stream,
    input: u64,
    window: u64,
    output: u64,
    length: usize,
    vectors: usize,
) -> Result<()> {
    if length == 0 {
        return Err(Error::invalid_argument("window vector length is 0: pass the window length"));
    }
    let count = validate::product("window", &[length, vectors])?;
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<T>("input", input, count)?;
    let output_range = validate::array::<T>("output", output, count)?;
    let window_range = validate::array::<f32>("window", window, length)?;
    validate::same_or_disjoint(("input", &input_range), ("output", &output_range))?;
    validate::disjoint(("window", &window_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::window::<T>(input, window, output, length, count) };
    launch::run(stream, WINDOW_KERNELS.variant(T::NAME), on_cpu, |kernel| {
        let (length_argument, count_argument) = (length as u64, count as u64);
        unsafe {
            kernel.launch_each_item(
                count,
                &mut [
                    argument(&input),
                    argument(&window),
                    argument(&output),
                    argument(&length_argument),
                    argument(&count_argument),
                ],
            )
        }
    })
}
