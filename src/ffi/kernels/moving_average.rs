// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: GNU Radio's moving average (moving_average_ff/cc).

use super::{grcuda_complex32, stream_argument};
use crate::ffi::{grcuda_status, grcuda_stream, guard};
use crate::kernels::{self, Complex32, WindowElement};
use std::ffi::c_void;

#[allow(clippy::too_many_arguments)]
fn moving_average<T: WindowElement + Default>(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    items: usize,
    vlen: usize,
    length: usize,
    scale: T,
    max_iter: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::moving_average(
            stream_argument(stream)?,
            input as u64,
            output as u64,
            items,
            vlen,
            length,
            scale,
            max_iter,
        )
    })
}

/// output[i] = scale * (input[i] + ... + input[i + length - 1]) per vector lane, for `items`
/// items of `vlen` floats, as GNU Radio's moving_average_ff computes it: a running sum
/// started afresh at least every `max_iter` outputs. `input` holds items + length - 1 items
/// (length - 1 of history first) and does not overlap the output; vlen, length and max_iter
/// are at least 1.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_moving_average_ff(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    items: usize,
    vlen: usize,
    length: usize,
    scale: f32,
    max_iter: usize,
) -> grcuda_status {
    moving_average(stream, input, output, items, vlen, length, scale, max_iter)
}

/// As grcuda_moving_average_ff(), for complex float items and a complex scale.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_moving_average_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    items: usize,
    vlen: usize,
    length: usize,
    scale: grcuda_complex32,
    max_iter: usize,
) -> grcuda_status {
    moving_average(stream, input, output, items, vlen, length, Complex32::from(scale), max_iter)
}
