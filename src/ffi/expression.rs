// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: expressions, one fused elementwise kernel from a formula over a block's inputs
//! (GNU Radio module: cuda.expression_ff/_cc/_cf/_fc).

use super::{
    borrow, borrow_slice, free_handle, grcuda_device, grcuda_status, grcuda_stream, guard, guard_out, into_handle,
};
use crate::error::{Error, Result};
use crate::expression::{Expression, ValueType};
use std::ffi::{CStr, c_char, c_void};

/// Expression value type: float (GNU Radio's float, 4 bytes).
pub const GRCUDA_EXPRESSION_FLOAT: u32 = 0;
/// Expression value type: complex float (gr_complex, 8 bytes: real, imaginary).
pub const GRCUDA_EXPRESSION_COMPLEX: u32 = 1;

/// A compiled expression. Launches and parameter changes may come from any thread.
#[allow(non_camel_case_types)]
pub struct grcuda_expression {
    expression: Expression,
}

fn value_type(value: u32, name: &str) -> Result<ValueType> {
    match value {
        GRCUDA_EXPRESSION_FLOAT => Ok(ValueType::Float),
        GRCUDA_EXPRESSION_COMPLEX => Ok(ValueType::Complex),
        other => Err(Error::invalid_argument(format!(
            "{name} {other} is unknown: use GRCUDA_EXPRESSION_FLOAT (0) or GRCUDA_EXPRESSION_COMPLEX (1)"
        ))),
    }
}

/// A NUL-terminated UTF-8 string argument.
fn c_text<'a>(pointer: *const c_char, name: &str) -> Result<&'a str> {
    if pointer.is_null() {
        return Err(Error::invalid_argument(format!("{name} is NULL")));
    }
    unsafe { CStr::from_ptr(pointer) }
        .to_str()
        .map_err(|_| Error::invalid_argument(format!("{name} is not valid UTF-8")))
}

/// Builds the expression `expression` (NUL-terminated), e.g. "(in0 * in1 + k) * conj(in0)",
/// over `input_count` inputs (1 to 32, named in0, in1, …) of `input_type`, writing
/// `output_type` (GRCUDA_EXPRESSION_FLOAT or _COMPLEX), for items of `vector_length` (at
/// least 1) values each. `parameter_names` and `parameter_values` hold `parameter_count` (at
/// most 32) named float parameters and their first values, which must be finite (both may
/// be NULL when the count is 0). On a CUDA device the kernel is compiled here (or read from the kernel cache).
/// A bad expression is GRCUDA_STATUS_INVALID_ARGUMENT with a message that shows the
/// expression and a caret at the column concerned; code NVRTC refuses is
/// GRCUDA_STATUS_KERNEL_COMPILE with NVRTC's log. Free it with grcuda_expression_free().
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn grcuda_expression_new(
    device: *const grcuda_device,
    expression: *const c_char,
    input_type: u32,
    output_type: u32,
    input_count: usize,
    vector_length: usize,
    parameter_names: *const *const c_char,
    parameter_values: *const f32,
    parameter_count: usize,
    expression_out: *mut *mut grcuda_expression,
) -> grcuda_status {
    guard_out(expression_out, "expression_out", std::ptr::null_mut(), || {
        let device = &borrow(device, "device")?.device;
        let text = c_text(expression, "expression")?;
        let input_type = value_type(input_type, "input_type")?;
        let output_type = value_type(output_type, "output_type")?;
        if parameter_count > crate::expression::MAX_PARAMETERS {
            return Err(Error::invalid_argument(format!(
                "parameter_count is {parameter_count}; an expression has at most {}",
                crate::expression::MAX_PARAMETERS
            )));
        }
        let names = borrow_slice(parameter_names, parameter_count, "parameter_names")?;
        let values = borrow_slice(parameter_values, parameter_count, "parameter_values")?;
        let mut parameters = Vec::with_capacity(parameter_count);
        for (index, (&name, &value)) in names.iter().zip(values).enumerate() {
            parameters.push((c_text(name, &format!("parameter_names[{index}]"))?, value));
        }
        let expression =
            Expression::new(device, text, input_type, output_type, input_count, vector_length, &parameters)?;
        Ok(into_handle(grcuda_expression { expression }))
    })
}

/// Sets the parameter `name` (NUL-terminated) to `value` for the launches that follow; any
/// thread may call it while another launches. An unknown name is
/// GRCUDA_STATUS_INVALID_ARGUMENT, with the names the expression has; so is a NaN or
/// infinite value, which leaves the parameter as it was.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_expression_set_parameter(
    expression: *const grcuda_expression,
    name: *const c_char,
    value: f32,
) -> grcuda_status {
    guard(|| borrow(expression, "expression")?.expression.set_parameter(c_text(name, "name")?, value))
}

/// Sets `count` parameters at once for the launches that follow: `names[i]`
/// (NUL-terminated) to `values[i]` (both may be NULL when the count is 0). All or nothing:
/// an unknown name or a NaN or infinite value is GRCUDA_STATUS_INVALID_ARGUMENT and changes
/// no parameter. Any thread may call it while another launches; a launch meanwhile may see
/// some of the new values and the old others.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_expression_set_parameters(
    expression: *const grcuda_expression,
    names: *const *const c_char,
    values: *const f32,
    count: usize,
) -> grcuda_status {
    guard(|| {
        let expression = &borrow(expression, "expression")?.expression;
        let names = borrow_slice(names, count, "names")?;
        let values = borrow_slice(values, count, "values")?;
        let mut parameters = Vec::with_capacity(count);
        for (index, (&name, &value)) in names.iter().zip(values).enumerate() {
            parameters.push((c_text(name, &format!("names[{index}]"))?, value));
        }
        expression.set_parameters(&parameters)
    })
}

/// Sets `value_out` to the value of the parameter `name` (0 on failure).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_expression_parameter(
    expression: *const grcuda_expression,
    name: *const c_char,
    value_out: *mut f32,
) -> grcuda_status {
    guard_out(value_out, "value_out", 0.0, || {
        borrow(expression, "expression")?.expression.parameter(c_text(name, "name")?)
    })
}

/// Enqueues the expression on `stream` (a stream of the expression's device) over `items`
/// items of the vector length each, without waiting: `inputs` holds `input_count` device
/// addresses (exactly the expression's input count), `output` the output's. The output may
/// equal an input of its type; otherwise no arrays may overlap. NULL arrays, a wrong input
/// count, misaligned or overlapping arrays are GRCUDA_STATUS_INVALID_ARGUMENT; 0 items does
/// nothing. Every array must stay valid until the work completes.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_expression_launch(
    expression: *const grcuda_expression,
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    items: usize,
) -> grcuda_status {
    guard(|| {
        let expression = &borrow(expression, "expression")?.expression;
        let stream = &borrow(stream, "stream")?.stream;
        let inputs = super::kernels::addresses(inputs, input_count, "inputs")?;
        unsafe { expression.launch(stream, &inputs, output as u64, items) }
    })
}

/// Frees an expression. NULL is ignored. Work already enqueued is not affected.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_expression_free(expression: *mut grcuda_expression) {
    free_handle(expression)
}
