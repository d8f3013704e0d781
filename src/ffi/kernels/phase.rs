// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: GNU Radio's quadrature_demod_cf and rotator_cc.

use super::stream_argument;
use crate::ffi::{grcuda_status, grcuda_stream, guard};
use crate::kernels;
use std::ffi::c_void;

/// output[i] = gain * fast_atan2f(input[i + 1] * conj(input[i])) for `count` outputs (GNU
/// Radio's quadrature_demod_cf, with its fast_atan2f). `input` holds count + 1 complex float
/// items and does not overlap the output.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_quadrature_demod_cf(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
    gain: f32,
) -> grcuda_status {
    guard(|| unsafe { kernels::quadrature_demod(stream_argument(stream)?, input as u64, output as u64, count, gain) })
}

/// output[i] = input[i] * exp(j (start_phase + i * increment)) for `count` complex float items,
/// the angle in double precision (both must be finite). `output` may equal `input`. The next
/// call's start phase is grcuda_rotator_phase_after(start_phase, increment, count).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_rotator_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    count: usize,
    start_phase: f64,
    increment: f64,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::rotator(stream_argument(stream)?, input as u64, output as u64, count, start_phase, increment)
    })
}

/// The rotator's phase `count` samples after `phase`, in [-pi, pi]: the start phase of the
/// call that follows one of `count` samples.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_rotator_phase_after(phase: f64, increment: f64, count: u64) -> f64 {
    kernels::advance_phase(phase, increment, count)
}
