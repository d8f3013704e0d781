// SPDX-License-Identifier: GPL-3.0-or-later

//! `factor * log10(x) + offset` on float32 (`kernels/nlog10.cu`), GNU Radio's nlog10_ff: the
//! step that turns power into decibels (factor 10) or amplitude into decibels (factor 20).

use crate::error::Result;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::NLOG10_KERNELS;
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// `output[i] = factor * log10(input[i]) + offset` for `count` float32 items, the input first
/// clamped to the finite normal floats as GNU Radio's nlog10_ff clamps it: zero, negative and
/// subnormal inputs give `factor * log10(FLT_MIN) + offset`, infinity `factor * log10(FLT_MAX)
/// + offset`; NaN stays NaN. `output` may equal `input`.
///
/// # Safety
/// `input` and `output` must address `count` valid float32 items of device memory of the
/// stream's device (host memory on the simulated backend) until the kernel completes, and
/// nothing else may write them meanwhile.
pub unsafe fn nlog10(stream: &Stream, input: u64, output: u64, count: usize, factor: f32, offset: f32) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<f32>("input", input, count)?;
    let output_range = validate::array::<f32>("output", output, count)?;
    validate::same_or_disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::nlog10(input, output, count, factor, offset) };
    launch::run(stream, NLOG10_KERNELS.variant(""), on_cpu, |kernel| {
        let count_argument = count as u64;
        unsafe {
            kernel.launch_each_item(
                count,
                &mut [
                    argument(&input),
                    argument(&output),
                    argument(&count_argument),
                    argument(&factor),
                    argument(&offset),
                ],
            )
        }
    })
}
