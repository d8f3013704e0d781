// SPDX-License-Identifier: GPL-3.0-or-later

//! Elementwise operations (`kernels/elementwise.cu`): GNU Radio's multiply_ff/cc (N inputs),
//! multiply_conjugate_cc, conjugate_cc, complex_to_float/real/imag/arg, float_to_complex and
//! the strided copy of keep_one_in_n.
//!
//! Output item i depends on input items of index i only (keep_one_in_n: i * n), so an output
//! may be the very same array as an input of its item type (an in-place operation), and must
//! otherwise share no byte with any input; outputs of another type than the input never
//! overlap it.

use crate::error::{Error, Result};
use crate::kernels::add::combine_arrays;
use crate::kernels::element::{Complex32, Element};
use crate::kernels::launch::{self, argument};
use crate::kernels::move_unit::widest_unit;
use crate::kernels::program::{
    COMPLEX_PART_KERNELS, COMPLEX_TO_FLOAT_KERNELS, CONJUGATE_KERNELS, FLOAT_TO_COMPLEX_KERNELS, KEEP_ONE_IN_N_KERNELS,
    MULTIPLY_CONJUGATE_KERNELS, MULTIPLY_KERNELS,
};
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// `output[i] = inputs[0][i] * inputs[1][i] * …` for `count` items of `T` (i16, i32, f32 or
/// [`Complex32`]), multiplied left to right as GNU Radio's multiply_XX does; integers wrap
/// like C. `output` may be one of the first 16 inputs; otherwise it must not overlap any.
///
/// # Safety
/// Every input and the output must address `count` valid items of device memory of the
/// stream's device (host memory on the simulated backend) until the kernels complete, and
/// nothing else may write them meanwhile.
pub unsafe fn multiply<T: Element>(stream: &Stream, inputs: &[u64], output: u64, count: usize) -> Result<()> {
    unsafe { combine_arrays::<T>(stream, "multiply", &MULTIPLY_KERNELS, inputs, output, count, T::multiply) }
}

/// `output[i] = first[i] * conj(second[i])` for `count` complex items (GNU Radio's
/// multiply_conjugate_cc). `output` may equal either input.
///
/// # Safety
/// As [`multiply`], for the three arrays.
pub unsafe fn multiply_conjugate(stream: &Stream, first: u64, second: u64, output: u64, count: usize) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let first_range = validate::array::<Complex32>("first input", first, count)?;
    let second_range = validate::array::<Complex32>("second input", second, count)?;
    let output_range = validate::array::<Complex32>("output", output, count)?;
    validate::same_or_disjoint(("first input", &first_range), ("output", &output_range))?;
    validate::same_or_disjoint(("second input", &second_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::multiply_conjugate(first, second, output, count) };
    launch::run(stream, MULTIPLY_CONJUGATE_KERNELS.variant(""), on_cpu, |kernel| {
        let count_argument = count as u64;
        unsafe {
            kernel.launch_each_item(
                count,
                &mut [argument(&first), argument(&second), argument(&output), argument(&count_argument)],
            )
        }
    })
}

/// `output[i] = conj(input[i])` for `count` complex items (GNU Radio's conjugate_cc).
/// `output` may equal `input`.
///
/// # Safety
/// As [`multiply`], for both arrays.
pub unsafe fn conjugate(stream: &Stream, input: u64, output: u64, count: usize) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<Complex32>("input", input, count)?;
    let output_range = validate::array::<Complex32>("output", output, count)?;
    validate::same_or_disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::conjugate(input, output, count) };
    launch::run(stream, CONJUGATE_KERNELS.variant(""), on_cpu, |kernel| unsafe {
        launch_unary(kernel, input, output, count)
    })
}

/// What [`complex_part`] takes of each complex item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplexPart {
    /// The real part (GNU Radio's complex_to_real).
    Real,
    /// The imaginary part (complex_to_imag).
    Imaginary,
    /// The angle, by GNU Radio's fast_atan2f (complex_to_arg).
    Argument,
}

impl ComplexPart {
    fn variant(self) -> &'static str {
        match self {
            ComplexPart::Real => "real",
            ComplexPart::Imaginary => "imag",
            ComplexPart::Argument => "arg",
        }
    }
}

/// `output[i]` = the `part` of `input[i]`, for `count` complex items (float output).
///
/// # Safety
/// `input` must address `count` valid complex items and `output` `count` floats of device
/// memory of the stream's device (host memory on the simulated backend), which do not
/// overlap, until the kernel completes.
pub unsafe fn complex_part(stream: &Stream, part: ComplexPart, input: u64, output: u64, count: usize) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<Complex32>("input", input, count)?;
    let output_range = validate::array::<f32>("output", output, count)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::complex_part(part, input, output, count) };
    launch::run(stream, COMPLEX_PART_KERNELS.variant(part.variant()), on_cpu, |kernel| unsafe {
        launch_unary(kernel, input, output, count)
    })
}

/// `real[i]`, `imag[i]` = the parts of `input[i]` for `count` complex items (GNU Radio's
/// complex_to_float with two outputs).
///
/// # Safety
/// As [`complex_part`], for the three arrays, none of which overlaps another.
pub unsafe fn complex_to_float(stream: &Stream, input: u64, real: u64, imag: u64, count: usize) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let ranges = [
        validate::array::<Complex32>("input", input, count)?,
        validate::array::<f32>("real output", real, count)?,
        validate::array::<f32>("imaginary output", imag, count)?,
    ];
    validate::all_disjoint("arrays of complex_to_float", &ranges)?;
    let on_cpu = || unsafe { cpu::complex_to_float(input, real, imag, count) };
    launch::run(stream, COMPLEX_TO_FLOAT_KERNELS.variant(""), on_cpu, |kernel| {
        let count_argument = count as u64;
        unsafe {
            kernel.launch_each_item(
                count,
                &mut [argument(&input), argument(&real), argument(&imag), argument(&count_argument)],
            )
        }
    })
}

/// `output[i] = real[i] + j imag[i]` for `count` items (GNU Radio's float_to_complex); without
/// `imag` (one input) the imaginary parts are 0.
///
/// # Safety
/// As [`complex_to_float`], the other way round.
pub unsafe fn float_to_complex(stream: &Stream, real: u64, imag: Option<u64>, output: u64, count: usize) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let output_range = validate::array::<Complex32>("output", output, count)?;
    let real_range = validate::array::<f32>("real input", real, count)?;
    validate::disjoint(("real input", &real_range), ("output", &output_range))?;
    if let Some(imag) = imag {
        let imag_range = validate::array::<f32>("imaginary input", imag, count)?;
        validate::disjoint(("imaginary input", &imag_range), ("output", &output_range))?;
    }
    let on_cpu = || unsafe { cpu::float_to_complex(real, imag, output, count) };
    let variant = if imag.is_some() { "" } else { "_real" };
    launch::run(stream, FLOAT_TO_COMPLEX_KERNELS.variant(variant), on_cpu, |kernel| {
        let count_argument = count as u64;
        match imag {
            Some(imag) => unsafe {
                kernel.launch_each_item(
                    count,
                    &mut [argument(&real), argument(&imag), argument(&output), argument(&count_argument)],
                )
            },
            None => unsafe { launch_unary(kernel, real, output, count) },
        }
    })
}

/// `output` item j = `input` item j * n, for `items` items of `item_size` bytes: the copy
/// GNU Radio's keep_one_in_n makes, with `input` at the first item kept. The input spans
/// (items - 1) * n + 1 items, which must not overlap the output.
///
/// # Safety
/// `input` must address the input span and `output` `items` items of device memory of the
/// stream's device (host memory on the simulated backend) until the kernel completes.
pub unsafe fn keep_one_in_n(
    stream: &Stream,
    input: u64,
    output: u64,
    items: usize,
    item_size: usize,
    n: usize,
) -> Result<()> {
    if item_size == 0 || n == 0 {
        return Err(Error::invalid_argument(format!(
            "keep_one_in_n needs an item size and n of at least 1, got {item_size} and {n}"
        )));
    }
    if items == 0 {
        return Ok(());
    }
    let input_items = validate::product("input", &[items - 1, n])?
        .checked_add(1)
        .ok_or_else(|| Error::invalid_argument("the input size overflows"))?;
    let input_range = validate::bytes("input", input, validate::product("input", &[input_items, item_size])?)?;
    let output_range = validate::bytes("output", output, validate::product("output", &[items, item_size])?)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::keep_one_in_n(input, output, items, item_size, n) };
    let unit = widest_unit([input, output, item_size as u64]);
    launch::run(stream, KEEP_ONE_IN_N_KERNELS.variant(unit.variant), on_cpu, |kernel| {
        let units_per_item = (item_size / unit.bytes) as u64;
        let (items_argument, n_argument) = (items as u64, n as u64);
        unsafe {
            kernel.launch_each_item(
                items * item_size / unit.bytes,
                &mut [
                    argument(&input),
                    argument(&output),
                    argument(&items_argument),
                    argument(&units_per_item),
                    argument(&n_argument),
                ],
            )
        }
    })
}

/// Launches a kernel of parameters (input, output, count).
unsafe fn launch_unary(kernel: &launch::LoadedKernel, input: u64, output: u64, count: usize) -> Result<()> {
    let count_argument = count as u64;
    unsafe { kernel.launch_each_item(count, &mut [argument(&input), argument(&output), argument(&count_argument)]) }
}
