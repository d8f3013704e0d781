// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: the elementwise kernels of GNU Radio's math and type-conversion blocks
//! (multiply, multiply_conjugate, conjugate, complex_to_*, float_to_complex) and
//! keep_one_in_n's strided copy.

use super::{addresses, stream_argument};
use crate::ffi::{grcuda_status, grcuda_stream, guard};
use crate::kernels::{self, Complex32, ComplexPart, Element};
use std::ffi::c_void;

fn multiply<T: Element>(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::multiply::<T>(
            stream_argument(stream)?,
            &addresses(inputs, input_count, "inputs")?,
            output as u64,
            count,
        )
    })
}

fn complex_part(
    stream: *const grcuda_stream,
    part: ComplexPart,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    guard(|| unsafe { kernels::complex_part(stream_argument(stream)?, part, input as u64, output as u64, count) })
}

/// output[i] = product of inputs[k][i] over the `input_count` arrays, multiplied left to
/// right, for `count` float items (GNU Radio's multiply_ff). `output` may be one of the first
/// 16 inputs.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_multiply_ff(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    multiply::<f32>(stream, inputs, input_count, output, count)
}

/// As grcuda_multiply_ff(), for complex float items (GNU Radio's multiply_cc).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_multiply_cc(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    multiply::<Complex32>(stream, inputs, input_count, output, count)
}

/// output[i] = first[i] * conj(second[i]) for `count` complex float items (GNU Radio's
/// multiply_conjugate_cc). `output` may equal either input.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_multiply_conjugate_cc(
    stream: *const grcuda_stream,
    first: *const c_void,
    second: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::multiply_conjugate(stream_argument(stream)?, first as u64, second as u64, output as u64, count)
    })
}

/// output[i] = conj(input[i]) for `count` complex float items (GNU Radio's conjugate_cc).
/// `output` may equal `input`.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_conjugate_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    guard(|| unsafe { kernels::conjugate(stream_argument(stream)?, input as u64, output as u64, count) })
}

/// output[i] = the real part of input[i] for `count` complex float items (float output).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_complex_to_real(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    complex_part(stream, ComplexPart::Real, input, output, count)
}

/// output[i] = the imaginary part of input[i] for `count` complex float items.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_complex_to_imag(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    complex_part(stream, ComplexPart::Imaginary, input, output, count)
}

/// output[i] = the angle of input[i] in radians, by GNU Radio's fast_atan2f (as its
/// complex_to_arg), for `count` complex float items.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_complex_to_arg(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    complex_part(stream, ComplexPart::Argument, input, output, count)
}

/// real[i], imag[i] = the parts of input[i] for `count` complex float items (GNU Radio's
/// complex_to_float with two outputs). No two of the arrays may overlap.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_complex_to_float(
    stream: *const grcuda_stream,
    input: *const c_void,
    real: *mut c_void,
    imag: *mut c_void,
    count: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::complex_to_float(stream_argument(stream)?, input as u64, real as u64, imag as u64, count)
    })
}

/// output[i] = real[i] + j imag[i] for `count` items (GNU Radio's float_to_complex); `imag`
/// may be NULL, as GNU Radio's block with one input: the imaginary parts are then 0. The
/// output overlaps no input.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_float_to_complex(
    stream: *const grcuda_stream,
    real: *const c_void,
    imag: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    let imag = (!imag.is_null()).then_some(imag as u64);
    guard(|| unsafe { kernels::float_to_complex(stream_argument(stream)?, real as u64, imag, output as u64, count) })
}

/// Output item j = input item j * n, for `items` items of `item_size` bytes: GNU Radio's
/// keep_one_in_n with `input` at the first item kept. The input spans (items - 1) * n + 1
/// items, which must not overlap the output; item_size and n are at least 1.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_keep_one_in_n(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    items: usize,
    item_size: usize,
    n: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::keep_one_in_n(stream_argument(stream)?, input as u64, output as u64, items, item_size, n)
    })
}
