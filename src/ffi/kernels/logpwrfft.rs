// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: GNU Radio's logpwrfft chain (logpwrfft_c/_f) around a batched FFT: the windowed
//! frames before it and the decibels after it.

use super::{copy_table_out, stream_argument};
use crate::ffi::{grcuda_status, grcuda_stream, guard, guard_out};
use crate::kernels::{self, Complex32, SpectrumInput};
use std::ffi::c_void;

fn logpwrfft_frames<T: SpectrumInput>(
    stream: *const grcuda_stream,
    input: *const c_void,
    stride: usize,
    window: *const f32,
    output: *mut c_void,
    length: usize,
    frames: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::logpwrfft_frames::<T>(
            stream_argument(stream)?,
            input as u64,
            stride,
            window as u64,
            output as u64,
            length,
            frames,
        )
    })
}

/// The FFT input of a complex spectrum: for each of `frames` frames,
/// output[f * length + j] = input[f * stride + j] * window[j] (complex float items, a float
/// window of `length` taps in device memory). `stride`, at least `length`, is the distance in
/// items between frame starts: `length` times the decimation of stream_to_vector_decimator,
/// with `input` at the first frame kept. Output overlaps neither input nor window.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_logpwrfft_frames_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    stride: usize,
    window: *const f32,
    output: *mut c_void,
    length: usize,
    frames: usize,
) -> grcuda_status {
    logpwrfft_frames::<Complex32>(stream, input, stride, window, output, length, frames)
}

/// As grcuda_logpwrfft_frames_cc(), for float input (logpwrfft_f): the output is complex
/// with zero imaginary parts.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_logpwrfft_frames_fc(
    stream: *const grcuda_stream,
    input: *const c_void,
    stride: usize,
    window: *const f32,
    output: *mut c_void,
    length: usize,
    frames: usize,
) -> grcuda_status {
    logpwrfft_frames::<f32>(stream, input, stride, window, output, length, frames)
}

/// Decibels of `frames` spectra of `length` complex float bins, as GNU Radio's
/// complex_to_mag_squared, single_pole_iir_filter_ff and nlog10_ff compute them:
/// output[f * length + j] = 10 * log10(max(y, FLT_MIN)) + offset with
/// y = alpha * |X|^2 + (1 - alpha) * previous (in double, rounded to float), where X is bin
/// j, or with `shift` bin (j + ceil(length / 2)) mod length (fft_vcc's shifted order).
/// `state` holds `length` floats, each bin's previous output (zeros for a new stream), read
/// and then left holding the last frame's y; alpha is in [0, 1], and 1 (no averaging) gives
/// the power itself. The three arrays are device memory and do not overlap.
#[allow(clippy::too_many_arguments)] // one C parameter per setting of the chain
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_logpwrfft_power(
    stream: *const grcuda_stream,
    spectrum: *const c_void,
    output: *mut f32,
    state: *mut f32,
    length: usize,
    frames: usize,
    shift: bool,
    alpha: f64,
    offset: f32,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::logpwrfft_power(
            stream_argument(stream)?,
            spectrum as u64,
            output as u64,
            state as u64,
            length,
            frames,
            shift,
            alpha,
            offset,
        )
    })
}

/// Whether grcuda_logpwrfft_spectra_cc() and grcuda_logpwrfft_spectra_fc() handle spectra of
/// `length` bins: a power of two from 32 to 2^20 (1048576). For other lengths use
/// grcuda_logpwrfft_frames_cc(), an FFT plan and grcuda_logpwrfft_power().
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_logpwrfft_spectra_supported(length: usize) -> bool {
    kernels::logpwrfft_spectra_supported(length)
}

/// The twiddle table grcuda_logpwrfft_spectra_cc() and _fc() read for `length` bins, which the
/// caller copies to device memory once and passes to every call. Stores the table's length in
/// complex floats in `*count_out`, and, when `capacity` (in complex floats) holds it, the
/// table into `table` (host memory, two floats per entry); pass NULL and 0 to ask for the
/// length. InvalidArgument for a length grcuda_logpwrfft_spectra_supported() refuses or a
/// capacity that is neither 0 nor enough.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_logpwrfft_spectra_twiddles(
    length: usize,
    table: *mut c_void,
    capacity: usize,
    count_out: *mut usize,
) -> grcuda_status {
    guard_out(count_out, "count_out", 0, || {
        let twiddles = kernels::logpwrfft_spectra_twiddles(length)?;
        copy_table_out(&twiddles, &format!("the twiddle table of {length} bins"), table, capacity)
    })
}

/// Stores in `*count_out` the complex floats of device memory grcuda_logpwrfft_spectra_cc() and
/// _fc() need as scratch for `frames` frames of `length` bins: 0 up to 4096 bins (one kernel
/// does it all), `length * frames` above (two kernels pass the spectra through it).
/// InvalidArgument for a length grcuda_logpwrfft_spectra_supported() refuses.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_logpwrfft_spectra_scratch(
    length: usize,
    frames: usize,
    count_out: *mut usize,
) -> grcuda_status {
    guard_out(count_out, "count_out", 0, || kernels::logpwrfft_spectra_scratch(length, frames))
}

#[allow(clippy::too_many_arguments)] // the C entry points' parameters
fn logpwrfft_spectra<T: SpectrumInput>(
    stream: *const grcuda_stream,
    input: *const c_void,
    stride: usize,
    window: *const f32,
    twiddles: *const c_void,
    scratch: *mut c_void,
    output: *mut f32,
    state: *mut f32,
    length: usize,
    frames: usize,
    shift: bool,
    alpha: f64,
    offset: f32,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::logpwrfft_spectra::<T>(
            stream_argument(stream)?,
            input as u64,
            stride,
            window as u64,
            twiddles as u64,
            scratch as u64,
            output as u64,
            state as u64,
            length,
            frames,
            shift,
            alpha,
            offset,
        )
    })
}

/// grcuda_logpwrfft_frames_cc(), the forward FFT of each frame and grcuda_logpwrfft_power() in
/// one kernel up to 4096 bins and two above (one more with alpha below 1), for the lengths
/// grcuda_logpwrfft_spectra_supported() accepts: complex float input, `frames` frames of
/// `length` items `stride` (at least `length`) items apart; `window` holds `length` float
/// taps, `twiddles` the table of grcuda_logpwrfft_spectra_twiddles(), `scratch` the complex
/// floats grcuda_logpwrfft_spectra_scratch() asks for (NULL where that is 0), all in device
/// memory; `output`, `state`, `shift`, `alpha` and `offset` as for grcuda_logpwrfft_power(),
/// whose decibels this matches within a few 1e-6 dB. Scratch, output and state overlap
/// neither each other nor the inputs.
#[allow(clippy::too_many_arguments)] // one C parameter per setting of the chain
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_logpwrfft_spectra_cc(
    stream: *const grcuda_stream,
    input: *const c_void,
    stride: usize,
    window: *const f32,
    twiddles: *const c_void,
    scratch: *mut c_void,
    output: *mut f32,
    state: *mut f32,
    length: usize,
    frames: usize,
    shift: bool,
    alpha: f64,
    offset: f32,
) -> grcuda_status {
    logpwrfft_spectra::<Complex32>(
        stream, input, stride, window, twiddles, scratch, output, state, length, frames, shift, alpha, offset,
    )
}

/// As grcuda_logpwrfft_spectra_cc(), for float input (logpwrfft_f).
#[allow(clippy::too_many_arguments)] // one C parameter per setting of the chain
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_logpwrfft_spectra_fc(
    stream: *const grcuda_stream,
    input: *const c_void,
    stride: usize,
    window: *const f32,
    twiddles: *const c_void,
    scratch: *mut c_void,
    output: *mut f32,
    state: *mut f32,
    length: usize,
    frames: usize,
    shift: bool,
    alpha: f64,
    offset: f32,
) -> grcuda_status {
    logpwrfft_spectra::<f32>(
        stream, input, stride, window, twiddles, scratch, output, state, length, frames, shift, alpha, offset,
    )
}
