// SPDX-License-Identifier: GPL-3.0-or-later

//! Complex magnitude and squared magnitude (`kernels/magnitude.cu`), GNU Radio's
//! complex_to_mag and complex_to_mag_squared: complex64 in, float32 out.

use crate::error::Result;
use crate::kernels::element::Complex32;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::MAGNITUDE_KERNELS;
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// `output[i] = |input[i]|` (sqrt(re² + im²)) for `count` items.
///
/// # Safety
/// `input` must address `count` valid complex64 items and `output` `count` float32 items of
/// device memory of the stream's device (host memory on the simulated backend) until the
/// kernel completes; they must not overlap, and nothing else may write them meanwhile.
pub unsafe fn magnitude(stream: &Stream, input: u64, output: u64, count: usize) -> Result<()> {
    unsafe { complex_to_real(stream, input, output, count, "", cpu::magnitude) }
}

/// `output[i] = |input[i]|²` (re² + im²) for `count` items.
///
/// # Safety
/// As for [`magnitude`].
pub unsafe fn magnitude_squared(stream: &Stream, input: u64, output: u64, count: usize) -> Result<()> {
    unsafe { complex_to_real(stream, input, output, count, "_squared", cpu::magnitude_squared) }
}

/// The two share their checks and launch; they differ in kernel and CPU function.
unsafe fn complex_to_real(
    stream: &Stream,
    input: u64,
    output: u64,
    count: usize,
    variant: &str,
    cpu_function: unsafe fn(u64, u64, usize),
) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<Complex32>("input", input, count)?;
    let output_range = validate::array::<f32>("output", output, count)?;
    // Output items are half the size of input items, so even the same address would let one
    // thread overwrite an item another has yet to read.
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu_function(input, output, count) };
    launch::run(stream, MAGNITUDE_KERNELS.variant(variant), on_cpu, |kernel| {
        let count_argument = count as u64;
        unsafe { kernel.launch_each_item(count, &mut [argument(&input), argument(&output), argument(&count_argument)]) }
    })
}
