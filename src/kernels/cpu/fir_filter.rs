// SPDX-License-Identifier: GPL-3.0-or-later

//! The FIR filter kernels on the CPU (`kernels/fir_filter.cu`): multiply-adds as explicit fused
//! multiply-adds in tap order, and rotations with the same formula, so that both backends
//! round alike.

use super::{generate, read};
use crate::kernels::element::{Complex32, MultiplyAdd};
use crate::kernels::fir_filter::{FirTypes, Rotation, Slots};

/// A sample type of the filters and what the kernels do with it.
trait Sample: Copy {
    const ZERO: Self;
    fn as_complex(self) -> Complex32;
    fn from_complex(value: Complex32) -> Self;
    fn rotated(self, rotation: &Rotation, index: usize) -> Self;
}

impl Sample for f32 {
    const ZERO: f32 = 0.0;
    fn as_complex(self) -> Complex32 {
        Complex32::new(self, 0.0)
    }
    fn from_complex(value: Complex32) -> f32 {
        value.re
    }
    fn rotated(self, _: &Rotation, _: usize) -> f32 {
        self
    }
}

impl Sample for Complex32 {
    const ZERO: Complex32 = Complex32::new(0.0, 0.0);
    fn as_complex(self) -> Complex32 {
        self
    }
    fn from_complex(value: Complex32) -> Complex32 {
        value
    }
    fn rotated(self, rotation: &Rotation, index: usize) -> Complex32 {
        if rotation.is_none() {
            return self;
        }
        let (sine, cosine) = rotation.angle(index).sin_cos();
        let (s, c) = (sine as f32, cosine as f32);
        Complex32::new(self.re.mul_add(c, -(self.im * s)), self.re.mul_add(s, self.im * c))
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn direct<S: Sample + MultiplyAdd<Tap>, Tap: Copy>(
    input: u64,
    taps: u64,
    output: u64,
    outputs: usize,
    tap_count: usize,
    decimation: usize,
    rotation: Rotation,
    slots: Slots,
) {
    let interpolation = slots.interpolation as usize;
    unsafe {
        generate(output, outputs, |i| {
            // Output i is output i / I of slot i mod I, whose phase and first input follow
            // from its position (kernels/fir_filter.cu).
            let position = slots.first_phase as usize + i % interpolation * decimation;
            let first = position / interpolation + i / interpolation * decimation;
            let tap = |t: usize| match slots.prototype_taps() {
                true => read::<Tap>(taps, position % interpolation + (tap_count - 1 - t) * interpolation),
                false => read::<Tap>(taps, t),
            };
            // The kernels' order: the taps phase by phase (t = p, p + decimation, ... for p = 0, 1, ...).
            let order = (0..decimation.min(tap_count)).flat_map(|phase| (phase..tap_count).step_by(decimation));
            let sum = order.fold(S::ZERO, |sum, t| read::<S>(input, first + t).multiply_add(tap(t), sum));
            sum.rotated(&rotation, i)
        })
    };
}

/// # Safety
/// As the launcher `kernels::fir_filter::direct_form`, with the arguments checked.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn direct_form(
    types: FirTypes,
    input: u64,
    taps: u64,
    output: u64,
    outputs: usize,
    tap_count: usize,
    decimation: usize,
    rotation: Rotation,
    slots: Slots,
) {
    let filter = match types {
        FirTypes::Ccc => direct::<Complex32, Complex32>,
        FirTypes::Ccf => direct::<Complex32, f32>,
        FirTypes::Fff => direct::<f32, f32>,
    };
    unsafe { filter(input, taps, output, outputs, tap_count, decimation, rotation, slots) }
}

unsafe fn gather<S: Sample>(
    input: u64,
    available: usize,
    segments: u64,
    fft_size: usize,
    step: usize,
    length: usize,
    count: usize,
) {
    unsafe {
        generate(segments, count, |i| {
            let (segment, t) = (i / fft_size, i % fft_size);
            let position = segment * step + t;
            if t < length && position < available { read::<S>(input, position).as_complex() } else { Complex32::ZERO }
        })
    };
}

/// # Safety
/// As the launcher `overlap_save_gather`, with the arguments checked; `count` is the number
/// of segment items.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn overlap_save_gather(
    complex_input: bool,
    input: u64,
    available: usize,
    segments: u64,
    fft_size: usize,
    step: usize,
    length: usize,
    count: usize,
) {
    let gather = if complex_input { gather::<Complex32> } else { gather::<f32> };
    unsafe { gather(input, available, segments, fft_size, step, length, count) }
}

/// # Safety
/// As the launcher `overlap_save_multiply`, with the arguments checked; `count` is the number
/// of spectrum items.
pub(crate) unsafe fn overlap_save_multiply(spectra: u64, response: u64, fft_size: usize, count: usize) {
    unsafe {
        generate(spectra, count, |i| {
            let (x, h) = (read::<Complex32>(spectra, i), read::<Complex32>(response, i % fft_size));
            Complex32::new(x.re * h.re - x.im * h.im, x.re * h.im + x.im * h.re)
        })
    };
}

#[allow(clippy::too_many_arguments)]
unsafe fn extract<S: Sample>(
    segments: u64,
    output: u64,
    outputs: usize,
    fft_size: usize,
    step: usize,
    offset: usize,
    first: usize,
    decimation: usize,
    rotation: Rotation,
) {
    unsafe {
        generate(output, outputs, |j| {
            let position = first + j * decimation;
            let (segment, valid) = (position / step, position % step);
            S::from_complex(read(segments, segment * fft_size + offset + valid)).rotated(&rotation, j)
        })
    };
}

/// # Safety
/// As the launcher `overlap_save_extract`, with the arguments checked.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn overlap_save_extract(
    types: FirTypes,
    segments: u64,
    output: u64,
    outputs: usize,
    fft_size: usize,
    step: usize,
    offset: usize,
    first: usize,
    decimation: usize,
    rotation: Rotation,
) {
    let extract = if types.complex_samples() { extract::<Complex32> } else { extract::<f32> };
    unsafe { extract(segments, output, outputs, fft_size, step, offset, first, decimation, rotation) }
}
