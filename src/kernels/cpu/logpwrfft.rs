// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's logpwrfft kernels (`kernels/logpwrfft.cu`): the same gather and
//! the same per-bin arithmetic, frame after frame.

use super::{generate, read};
use crate::kernels::element::Complex32;
use crate::kernels::logpwrfft::SpectrumInput;

/// # Safety
/// `(count / length - 1) * stride + length` input items, `length` window taps and `count`
/// output items valid; the output overlaps neither.
pub(crate) unsafe fn logpwrfft_frames<T: SpectrumInput>(
    input: u64,
    stride: usize,
    window: u64,
    output: u64,
    length: usize,
    count: usize,
) {
    unsafe {
        generate(output, count, |i| {
            let (frame, position) = (i / length, i % length);
            read::<T>(input, frame * stride + position).windowed(read(window, position))
        })
    };
}

fn power(x: Complex32) -> f32 {
    x.re * x.re + x.im * x.im
}

fn decibels(power: f32, offset: f32) -> f32 {
    10.0 * power.max(f32::MIN_POSITIVE).log10() + offset
}

/// # Safety
/// `frames * length` spectrum and output items and `length` state items valid, not
/// overlapping; `rotation < length`.
#[allow(clippy::too_many_arguments)] // the launcher's parameters, with the rotation
pub(crate) unsafe fn logpwrfft_power(
    spectrum: u64,
    output: u64,
    state: u64,
    length: usize,
    rotation: usize,
    frames: usize,
    alpha: f64,
    offset: f32,
) {
    let (output, state) = (output as *mut f32, state as *mut f32);
    let one_minus_alpha = 1.0 - alpha;
    for position in 0..length {
        let source = (position + rotation) % length;
        let mut previous = unsafe { state.add(position).read() };
        for frame in 0..frames {
            let value = power(unsafe { read(spectrum, frame * length + source) });
            // alpha = 1 is the GPU's power kernel: the value itself, whatever the state.
            previous = if alpha == 1.0 {
                value
            } else {
                (alpha * f64::from(value) + one_minus_alpha * f64::from(previous)) as f32
            };
            unsafe { output.add(frame * length + position).write(decibels(previous, offset)) };
        }
        unsafe { state.add(position).write(previous) };
    }
}
