// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: kernels. Each launcher enqueues its work on `stream` and returns without waiting.
//! Addresses are device memory (host memory on the simulated backend) that must stay valid
//! until the work completes. A count of 0 does nothing; NULL or misaligned addresses,
//! overflowing sizes and overlaps a kernel cannot handle are GRCUDA_STATUS_INVALID_ARGUMENT.
//! Type suffixes follow GNU Radio: ss = int16, ii = int32, ff = float, cc = complex float.
//!
//! This file holds the elementary kernels and the argument helpers every launcher uses; a
//! family of kernels with state or many parameters (filters, resamplers) has its own file
//! beside it.

mod elementwise;
mod logpwrfft;
mod moving_average;
mod phase;
mod polyphase;

pub use elementwise::*;
pub use logpwrfft::*;
pub use moving_average::*;
pub use phase::*;
pub use polyphase::*;

use super::{borrow, borrow_slice, grcuda_status, grcuda_stream, guard};
use crate::kernels::{self, Complex32, Element, WindowElement};
use crate::stream::Stream;
use std::ffi::c_void;

mod load;
pub use load::*;

/// A complex float as GNU Radio's gr_complex lays it out: real part, then imaginary part.
#[repr(C)]
#[derive(Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct grcuda_complex32 {
    pub real: f32,
    pub imag: f32,
}

impl From<grcuda_complex32> for Complex32 {
    fn from(value: grcuda_complex32) -> Self {
        Complex32::new(value.real, value.imag)
    }
}

/// Copies a table the caller keeps in device memory (twiddles) out of the library: returns the
/// table's length in complex floats, and copies it into `table` when `capacity` (in complex
/// floats) is not 0. InvalidArgument for a capacity that is neither 0 nor enough, or a NULL
/// `table` with a capacity.
fn copy_table_out(entries: &[Complex32], what: &str, table: *mut c_void, capacity: usize) -> crate::Result<usize> {
    if capacity == 0 {
        return Ok(entries.len());
    }
    if capacity < entries.len() {
        return Err(crate::Error::invalid_argument(format!(
            "{what} has {} entries, more than the capacity of {capacity}",
            entries.len()
        )));
    }
    if table.is_null() {
        return Err(crate::Error::invalid_argument("table is NULL but its capacity is not 0"));
    }
    // Safety: the caller's table holds `capacity` complex floats of host memory.
    unsafe { std::ptr::copy_nonoverlapping(entries.as_ptr(), table as *mut Complex32, entries.len()) };
    Ok(entries.len())
}

fn stream_argument<'a>(stream: *const grcuda_stream) -> crate::Result<&'a Stream> {
    Ok(&borrow(stream, "stream")?.stream)
}

pub(crate) fn addresses(pointers: *const *const c_void, count: usize, name: &str) -> crate::Result<Vec<u64>> {
    let pointers = borrow_slice(pointers, count, name)?;
    crate::fallible::collect(pointers.iter().map(|&p| Ok(p as u64)), &format!("the list of {count} {name}"))
}

fn multiply_const<T: Element>(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
    constant: T,
) -> grcuda_status {
    guard(|| unsafe { kernels::multiply_const(stream_argument(stream)?, input as u64, output as u64, count, constant) })
}

fn add<T: Element>(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::add::<T>(stream_argument(stream)?, &addresses(inputs, input_count, "inputs")?, output as u64, count)
    })
}

fn window<T: WindowElement>(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const f32,
    output: *mut c_void,
    length: usize,
    vectors: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::window::<T>(stream_argument(stream)?, input as u64, taps as u64, output as u64, length, vectors)
    })
}

/// Copies `bytes` bytes from `input` to `output` with a kernel.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_copy(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    bytes: usize,
) -> grcuda_status {
    guard(|| unsafe { kernels::copy(stream_argument(stream)?, input as u64, output as u64, bytes) })
}

/// output[i] = input[i] * constant for `count` int16 items (wrapping, as C does).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_multiply_const_ss(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
    constant: i16,
) -> grcuda_status {
    multiply_const(stream, input, output, count, constant)
}

/// output[i] = input[i] * constant for `count` int32 items (wrapping, as C does).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_multiply_const_ii(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
    constant: i32,
) -> grcuda_status {
    multiply_const(stream, input, output, count, constant)
}

/// output[i] = input[i] * constant for `count` float items.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_multiply_const_ff(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
    constant: f32,
) -> grcuda_status {
    multiply_const(stream, input, output, count, constant)
}

/// output[i] = input[i] * constant for `count` complex float items.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_multiply_const_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
    constant: grcuda_complex32,
) -> grcuda_status {
    multiply_const(stream, input, output, count, Complex32::from(constant))
}

/// output[i] = sum of inputs[k][i] over the `input_count` arrays, for `count` int16 items.
/// `output` may be one of the first 16 inputs.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_add_ss(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    add::<i16>(stream, inputs, input_count, output, count)
}

/// As grcuda_add_ss(), for int32 items.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_add_ii(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    add::<i32>(stream, inputs, input_count, output, count)
}

/// As grcuda_add_ss(), for float items.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_add_ff(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    add::<f32>(stream, inputs, input_count, output, count)
}

/// As grcuda_add_ss(), for complex float items.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_add_cc(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    input_count: usize,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    add::<Complex32>(stream, inputs, input_count, output, count)
}

/// output[i] = |input[i]| for `count` complex float items (float output).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_complex_to_mag(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    guard(|| unsafe { kernels::magnitude(stream_argument(stream)?, input as u64, output as u64, count) })
}

/// output[i] = |input[i]|^2 for `count` complex float items (float output).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_complex_to_mag_squared(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
) -> grcuda_status {
    guard(|| unsafe { kernels::magnitude_squared(stream_argument(stream)?, input as u64, output as u64, count) })
}

/// output[i] = factor * log10(input[i]) + offset for `count` float items (GNU Radio's nlog10_ff
/// with n = factor and k = offset).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_nlog10_ff(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
    factor: f32,
    offset: f32,
) -> grcuda_status {
    guard(|| unsafe { kernels::nlog10(stream_argument(stream)?, input as u64, output as u64, count, factor, offset) })
}

/// Swaps the halves of each of `vectors` complex float vectors of `length` items as
/// numpy.fft.fftshift does: output[j] = input[(j + ceil(length / 2)) mod length]. Input and
/// output must not overlap.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fft_shift_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    length: usize,
    vectors: usize,
) -> grcuda_status {
    guard(|| unsafe { kernels::fft_shift(stream_argument(stream)?, input as u64, output as u64, length, vectors) })
}

/// The inverse of grcuda_fft_shift_cc(), as numpy.fft.ifftshift:
/// output[j] = input[(j + floor(length / 2)) mod length] (the two differ for odd lengths;
/// GNU Radio's fft_vcc applies this one before an inverse transform). Input and output must
/// not overlap.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_ifft_shift_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    length: usize,
    vectors: usize,
) -> grcuda_status {
    guard(|| unsafe { kernels::ifft_shift(stream_argument(stream)?, input as u64, output as u64, length, vectors) })
}

/// Multiplies each of `vectors` complex float vectors of `length` items by a real window of
/// `length` floats (`taps`, in device memory).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_window_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const f32,
    output: *mut c_void,
    length: usize,
    vectors: usize,
) -> grcuda_status {
    window::<Complex32>(stream, input, taps, output, length, vectors)
}

/// As grcuda_window_cc(), for float vectors.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_window_ff(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const f32,
    output: *mut c_void,
    length: usize,
    vectors: usize,
) -> grcuda_status {
    window::<f32>(stream, input, taps, output, length, vectors)
}

/// Interleaves `stream_count` arrays of `items` items of `item_size` bytes:
/// output item i * stream_count + s = item i of array s (GNU Radio's streams_to_vector).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_interleave(
    stream: *const grcuda_stream,
    inputs: *const *const c_void,
    stream_count: usize,
    output: *mut c_void,
    items: usize,
    item_size: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::interleave(
            stream_argument(stream)?,
            &addresses(inputs, stream_count, "inputs")?,
            output as u64,
            items,
            item_size,
        )
    })
}

/// The inverse of grcuda_interleave() (GNU Radio's vector_to_streams).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_deinterleave(
    stream: *const grcuda_stream,
    input: *const c_void,
    outputs: *const *mut c_void,
    stream_count: usize,
    items: usize,
    item_size: usize,
) -> grcuda_status {
    guard(|| unsafe {
        let outputs = addresses(outputs.cast(), stream_count, "outputs")?;
        kernels::deinterleave(stream_argument(stream)?, input as u64, &outputs, items, item_size)
    })
}
