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
    position: u64,
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
            position,
        )
    })
}

/// The history (GNU Radio's set_history()) a moving average of `length` items needs: the
/// window's length - 1 items and the longest stretch of outputs that a call may start inside
/// (64), which it recomputes so that the output does not depend on how the stream is split
/// into calls. It grows with the length alone, so a new length set while running moves the
/// stream as GNU Radio's history of `length` moves it.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_moving_average_history(length: usize) -> usize {
    kernels::moving_average_history(length)
}

/// output[i] = scale * (x[i] + ... + x[i + length - 1]) per vector lane, for `items` items of
/// `vlen` floats, where x is the input after its history, as GNU Radio's moving_average_ff
/// computes it: a running sum started afresh at least every `max_iter` outputs, at points
/// aligned to the stream (for windows from 1024 items, from the sums of the window's
/// chunks of 64 items, so that the cost per output hardly grows with the length). `input` holds `items` items after a history of
/// grcuda_moving_average_history(length) - 1 items (as GNU Radio hands a block its
/// input) and does not overlap the output; `position` is the stream index of the first output (GNU Radio's
/// nitems_written); vlen, length and max_iter are at least 1.
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
    position: u64,
) -> grcuda_status {
    moving_average(stream, input, output, items, vlen, length, scale, max_iter, position)
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
    position: u64,
) -> grcuda_status {
    moving_average(stream, input, output, items, vlen, length, Complex32::from(scale), max_iter, position)
}
