// SPDX-License-Identifier: GPL-3.0-or-later

//! Multiply by a constant (`kernels/multiply_const.cu`), GNU Radio's multiply_const_ss/ii/ff/cc.

use crate::error::Result;
use crate::kernels::element::Element;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::MULTIPLY_CONST_KERNELS;
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// `output[i] = input[i] * constant` for `count` items of `T` (i16, i32, f32 or
/// [`Complex32`](crate::kernels::Complex32)); integers wrap like C. `output` may equal `input`.
///
/// # Safety
/// `input` and `output` must address `count` valid items of device memory of the stream's
/// device (host memory on the simulated backend) until the kernel completes, and nothing else
/// may write them meanwhile.
pub unsafe fn multiply_const<T: Element>(
    stream: &Stream,
    input: u64,
    output: u64,
    count: usize,
    constant: T,
) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<T>("input", input, count)?;
    let output_range = validate::array::<T>("output", output, count)?;
    validate::same_or_disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::multiply_const(input, output, count, constant) };
    launch::run(stream, MULTIPLY_CONST_KERNELS.variant(T::NAME), on_cpu, |kernel| {
        let count_argument = count as u64;
        unsafe {
            kernel.launch_each_item(
                count,
                &mut [argument(&input), argument(&output), argument(&count_argument), argument(&constant)],
            )
        }
    })
}
