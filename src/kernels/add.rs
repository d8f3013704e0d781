// SPDX-License-Identifier: GPL-3.0-or-later

//! Add N arrays (`kernels/add.cu`), GNU Radio's add_ss/ii/ff/cc with any number of inputs.
//!
//! One launch sums up to [`POINTER_GROUP_SIZE`] inputs passed by value. More inputs take
//! further launches on the same stream, each adding up to POINTER_GROUP_SIZE - 1 inputs to
//! what the output holds so far; stream order makes them run one after another, and the sum
//! keeps its left-to-right order, so results do not depend on the number of passes. That is
//! also why an in-place add (output = an input) is allowed only for an input of the first
//! pass: a later input would be overwritten before it is read.

use crate::error::{Error, Result};
use crate::kernels::element::Element;
use crate::kernels::launch::{self, POINTER_GROUP_SIZE, argument};
use crate::kernels::program::{ADD_KERNELS, Kernels};
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// `output[i] = inputs[0][i] + inputs[1][i] + …` for `count` items of `T` (i16, i32, f32 or
/// [`Complex32`](crate::kernels::Complex32)), summed left to right; integers wrap like C.
/// `output` may be one of the first 16 inputs; otherwise it must not overlap any input.
///
/// # Safety
/// Every input and the output must address `count` valid items of device memory of the
/// stream's device (host memory on the simulated backend) until the kernels complete, and
/// nothing else may write them meanwhile.
pub unsafe fn add<T: Element>(stream: &Stream, inputs: &[u64], output: u64, count: usize) -> Result<()> {
    unsafe { combine_arrays::<T>(stream, "add", &ADD_KERNELS, inputs, output, count, T::add) }
}

/// The launcher of the many-input kernels (add, multiply): `output[i] = combine(…combine(
/// inputs[0][i], inputs[1][i])…, inputs[n - 1][i])` in passes of up to POINTER_GROUP_SIZE
/// inputs; `operation` names the kernel in messages.
///
/// # Safety
/// As [`add`].
pub(crate) unsafe fn combine_arrays<T: Element>(
    stream: &Stream,
    operation: &str,
    kernels: &'static Kernels<4>,
    inputs: &[u64],
    output: u64,
    count: usize,
    combine: fn(T, T) -> T,
) -> Result<()> {
    if inputs.is_empty() {
        return Err(Error::invalid_argument(format!("{operation} needs at least one input array")));
    }
    if count == 0 {
        return Ok(());
    }
    let output_range = validate::array::<T>("output", output, count)?;
    for (index, &input) in inputs.iter().enumerate() {
        let checked = validate::array::<T>("input", input, count).and_then(|input_range| {
            if index < POINTER_GROUP_SIZE {
                validate::same_or_disjoint(("input", &input_range), ("output", &output_range))
            } else {
                validate::disjoint(("input", &input_range), ("output", &output_range)).map_err(|_| {
                    Error::invalid_argument(format!(
                        "the output overlaps input {index}: an in-place {operation} may reuse only one \
                         of the first {POINTER_GROUP_SIZE} inputs as its output"
                    ))
                })
            }
        });
        checked.map_err(|e| Error::invalid_argument(format!("{operation} input {index}: {}", e.message())))?;
    }
    let on_cpu = || unsafe { cpu::combine_arrays::<T>(inputs, output, count, combine) };
    launch::run(stream, kernels.variant(T::NAME), on_cpu, |kernel| {
        let count_argument = count as u64;
        let mut group = [0u64; POINTER_GROUP_SIZE];
        let mut group_length = 0;
        let mut pending = inputs;
        loop {
            let taken = pending.len().min(POINTER_GROUP_SIZE - group_length);
            group[group_length..group_length + taken].copy_from_slice(&pending[..taken]);
            group_length += taken;
            pending = &pending[taken..];
            let input_count = group_length as u32;
            unsafe {
                kernel.launch_each_item(
                    count,
                    &mut [argument(&group), argument(&input_count), argument(&output), argument(&count_argument)],
                )?
            };
            if pending.is_empty() {
                return Ok(());
            }
            // The next pass starts from the sum so far.
            group[0] = output;
            group_length = 1;
        }
    })
}
