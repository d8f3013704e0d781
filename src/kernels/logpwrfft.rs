// SPDX-License-Identifier: GPL-3.0-or-later

//! GNU Radio's logpwrfft chain (`kernels/logpwrfft.cu`): the two launches a spectrum block
//! makes around its batched FFT.
//!
//! [`logpwrfft_frames`] gathers the frames stream_to_vector_decimator keeps and windows
//! them into the FFT input; [`logpwrfft_power`] turns the spectra into decibels, applying
//! fft_vcc's shift as an index and single_pole_iir_filter_ff's average over frames. The
//! average's state (one float per bin, GNU Radio's previous output) lives in device memory
//! that the caller owns and passes to every call; each call leaves in it the last frame's
//! output, so the output does not depend on how the stream is split into calls.

use crate::error::{Error, Result};
use crate::kernels::element::{Complex32, WindowElement};
use crate::kernels::launch::{self, argument};
use crate::kernels::program::{LOGPWRFFT_AVERAGE_KERNELS, LOGPWRFFT_FRAMES_KERNELS, LOGPWRFFT_POWER_KERNELS};
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// An input item of a spectrum: float32 (logpwrfft_f) or complex64 (logpwrfft_c).
pub trait SpectrumInput: WindowElement {
    /// The item times its window tap, as the FFT's complex input.
    fn windowed(self, tap: f32) -> Complex32;
}

impl SpectrumInput for f32 {
    fn windowed(self, tap: f32) -> Complex32 {
        Complex32::new(self * tap, 0.0)
    }
}

impl SpectrumInput for Complex32 {
    fn windowed(self, tap: f32) -> Complex32 {
        self.scale(tap)
    }
}

/// For each of `frames` frames: `output[f * length + j] = input[f * stride + j] * window[j]`,
/// complex, where `stride` (at least `length`) is the distance in items between the starts of
/// consecutive frames in `input` (`length` times the decimation) and `window` holds `length`
/// float32 taps.
///
/// # Safety
/// `input` must address `(frames - 1) * stride + length` items of `T`, `window` `length`
/// float32 values and `output` `frames * length` complex64 items of device memory of the
/// stream's device (host memory on the simulated backend) until the kernel completes, and
/// nothing else may write them meanwhile.
pub unsafe fn logpwrfft_frames<T: SpectrumInput>(
    stream: &Stream,
    input: u64,
    stride: usize,
    window: u64,
    output: u64,
    length: usize,
    frames: usize,
) -> Result<()> {
    if length == 0 || stride < length {
        return Err(Error::invalid_argument(format!(
            "logpwrfft frames need a length of at least 1 and a stride of at least the length, got length \
             {length} and stride {stride}"
        )));
    }
    let count = validate::product("logpwrfft frames", &[length, frames])?;
    if count == 0 {
        return Ok(());
    }
    let input_items = validate::product("logpwrfft input", &[frames - 1, stride])?
        .checked_add(length)
        .ok_or_else(|| Error::invalid_argument("the logpwrfft input size overflows"))?;
    let input_range = validate::array::<T>("input", input, input_items)?;
    let window_range = validate::array::<f32>("window", window, length)?;
    let output_range = validate::array::<Complex32>("output", output, count)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    validate::disjoint(("window", &window_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::logpwrfft_frames::<T>(input, stride, window, output, length, count) };
    launch::run(stream, LOGPWRFFT_FRAMES_KERNELS.variant(T::NAME), on_cpu, |kernel| {
        let (stride_argument, length_argument, count_argument) = (stride as u64, length as u64, count as u64);
        unsafe {
            kernel.launch(
                count,
                &mut [
                    argument(&input),
                    argument(&stride_argument),
                    argument(&window),
                    argument(&output),
                    argument(&length_argument),
                    argument(&count_argument),
                ],
            )
        }
    })
}

/// For `frames` spectra of `length` complex64 bins, `output[f * length + j] = 10 *
/// log10(max(y, FLT_MIN)) + offset`, where y is bin j's power |X|^2 (bin (j + ceil(length /
/// 2)) mod length with `shift`, fft_vcc's order) through single_pole_iir_filter_ff:
/// `y = alpha * power + (1 - alpha) * previous`, computed in double and rounded to float,
/// with `previous` read from and left in `state` (`length` floats, zero for a new stream).
/// An `alpha` of 1 (no averaging) gives the power itself and one thread per item.
///
/// # Safety
/// `spectrum` must address `frames * length` complex64 items, `output` `frames * length`
/// float32 items and `state` `length` float32 items of device memory of the stream's device
/// (host memory on the simulated backend) until the kernel completes, and nothing else may
/// use `output` and `state` meanwhile.
#[allow(clippy::too_many_arguments)] // the C entry point's parameters, one for one
pub unsafe fn logpwrfft_power(
    stream: &Stream,
    spectrum: u64,
    output: u64,
    state: u64,
    length: usize,
    frames: usize,
    shift: bool,
    alpha: f64,
    offset: f32,
) -> Result<()> {
    if length == 0 {
        return Err(Error::invalid_argument("logpwrfft spectrum length is 0: pass the FFT size"));
    }
    if !(0.0..=1.0).contains(&alpha) {
        return Err(Error::invalid_argument(format!("logpwrfft alpha must be in [0, 1], got {alpha}")));
    }
    let count = validate::product("logpwrfft spectra", &[length, frames])?;
    if count == 0 {
        return Ok(());
    }
    let spectrum_range = validate::array::<Complex32>("spectrum", spectrum, count)?;
    let output_range = validate::array::<f32>("output", output, count)?;
    let state_range = validate::array::<f32>("state", state, length)?;
    validate::disjoint(("spectrum", &spectrum_range), ("output", &output_range))?;
    validate::disjoint(("spectrum", &spectrum_range), ("state", &state_range))?;
    validate::disjoint(("output", &output_range), ("state", &state_range))?;
    let rotation = if shift { length.div_ceil(2) % length } else { 0 };
    let on_cpu = || unsafe { cpu::logpwrfft_power(spectrum, output, state, length, rotation, frames, alpha, offset) };
    // Without averaging every item is independent; with it, each bin's frames are a chain.
    let averaging = alpha != 1.0;
    let one_minus_alpha = 1.0 - alpha;
    let kernels = if averaging { &LOGPWRFFT_AVERAGE_KERNELS } else { &LOGPWRFFT_POWER_KERNELS };
    launch::run(stream, kernels.variant(""), on_cpu, |kernel| {
        let (length_argument, rotation_argument, frames_argument) = (length as u64, rotation as u64, frames as u64);
        let mut arguments = [
            argument(&spectrum),
            argument(&output),
            argument(&state),
            argument(&length_argument),
            argument(&rotation_argument),
            argument(&frames_argument),
            argument(&offset),
            argument(&alpha),
            argument(&one_minus_alpha),
        ];
        let (used, threads) = if averaging { (9, length) } else { (7, count) };
        unsafe { kernel.launch(threads, &mut arguments[..used]) }
    })
}
