// SPDX-License-Identifier: GPL-3.0-or-later

//! Phase (`kernels/phase.cu`): GNU Radio's quadrature_demod_cf and rotator_cc.
//!
//! The rotator takes the phase of its first sample and the increment per sample in double
//! precision; the caller (the block) carries the phase from call to call with
//! [`advance_phase`], so the output is the same however the stream is split.

use crate::error::{Error, Result};
use crate::kernels::element::Complex32;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::{QUADRATURE_DEMOD_KERNELS, ROTATOR_KERNELS};
use crate::kernels::{cpu, validate};
use crate::stream::Stream;
use std::f64::consts::TAU;

/// `output[i] = gain * fast_atan2f(input[i + 1] * conj(input[i]))` for `count` outputs: GNU
/// Radio's quadrature_demod_cf, whose history of 2 makes `input` hold `count + 1` items.
///
/// # Safety
/// `input` must address `count + 1` complex items and `output` `count` floats of device
/// memory of the stream's device (host memory on the simulated backend), not overlapping,
/// until the kernel completes.
pub unsafe fn quadrature_demod(stream: &Stream, input: u64, output: u64, count: usize, gain: f32) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let input_items =
        count.checked_add(1).ok_or_else(|| Error::invalid_argument("the quadrature_demod input size overflows"))?;
    let input_range = validate::array::<Complex32>("input", input, input_items)?;
    let output_range = validate::array::<f32>("output", output, count)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::quadrature_demod(input, output, count, gain) };
    launch::run(stream, QUADRATURE_DEMOD_KERNELS.variant(""), on_cpu, |kernel| {
        let count_argument = count as u64;
        unsafe {
            kernel.launch_each_item(
                count,
                &mut [argument(&input), argument(&output), argument(&count_argument), argument(&gain)],
            )
        }
    })
}

/// `output[i] = input[i] * exp(j (start_phase + i * increment))` for `count` complex items,
/// the angle computed in double precision and brought into [-pi, pi] before its float sine
/// and cosine. `output` may equal `input`. Both angles must be finite.
///
/// # Safety
/// As [`quadrature_demod`], `count` complex items at both addresses (equal or disjoint).
pub unsafe fn rotator(
    stream: &Stream,
    input: u64,
    output: u64,
    count: usize,
    start_phase: f64,
    increment: f64,
) -> Result<()> {
    if !start_phase.is_finite() || !increment.is_finite() {
        return Err(Error::invalid_argument(format!(
            "the rotator's start phase and increment must be finite, got {start_phase} and {increment}"
        )));
    }
    if count == 0 {
        return Ok(());
    }
    let input_range = validate::array::<Complex32>("input", input, count)?;
    let output_range = validate::array::<Complex32>("output", output, count)?;
    validate::same_or_disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::rotator(input, output, count, start_phase, increment) };
    launch::run(stream, ROTATOR_KERNELS.variant(""), on_cpu, |kernel| {
        let count_argument = count as u64;
        unsafe {
            kernel.launch_each_item(
                count,
                &mut [
                    argument(&input),
                    argument(&output),
                    argument(&count_argument),
                    argument(&start_phase),
                    argument(&increment),
                ],
            )
        }
    })
}

/// The phase after `count` samples from `phase`, in [-pi, pi]: the start phase of the
/// rotator's next call. Reduced at every call, so it keeps the precision of a small angle.
pub fn advance_phase(phase: f64, increment: f64, count: u64) -> f64 {
    wrap_phase((count as f64).mul_add(increment, phase))
}

/// `angle` brought into [-pi, pi], as the kernel does.
pub(crate) fn wrap_phase(angle: f64) -> f64 {
    angle - TAU * (angle / TAU).round_ties_even()
}
