// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: polyphase filters, the rational resampler and the polyphase channelizer's steps.
//! The caller keeps the state between calls (the resampler's phase, the channelizer's
//! rotation) and passes it in, so output does not depend on how a stream is split.

use super::{copy_table_out, stream_argument};
use crate::ffi::{grcuda_status, grcuda_stream, guard, guard_out};
use crate::kernels::{self, ChannelizerOutputs, ChannelizerShape, Complex32, PolyphaseSample, PolyphaseTap};
use std::ffi::c_void;

#[allow(clippy::too_many_arguments)]
fn rational_resampler<S: PolyphaseSample, T: PolyphaseTap<S>>(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const c_void,
    output: *mut c_void,
    outputs: usize,
    interpolation: usize,
    decimation: usize,
    taps_per_phase: usize,
    first_phase: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::rational_resampler::<S, T>(
            stream_argument(stream)?,
            input as u64,
            taps as u64,
            output as u64,
            outputs,
            interpolation,
            decimation,
            taps_per_phase,
            first_phase,
        )
    })
}

/// GNU Radio's rational resampler on complex samples with complex taps, for `outputs`
/// outputs. With I = interpolation, D = decimation, N = taps_per_phase: output i has
/// position p = first_phase + i * D (first_phase < I) and is the sum over k < N of
/// input[p / I + N - 1 - k] * taps[p % I + k * I]. `taps` holds I * N taps (the prototype
/// filter padded with zeros to a multiple of I), `input` the items through
/// (first_phase + (outputs - 1) * D) / I + N. The next call's first phase is
/// (first_phase + outputs * D) % I, and it starts (first_phase + outputs * D) / I items
/// later. Output must not overlap input or taps.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn grcuda_rational_resampler_ccc(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const c_void,
    output: *mut c_void,
    outputs: usize,
    interpolation: usize,
    decimation: usize,
    taps_per_phase: usize,
    first_phase: usize,
) -> grcuda_status {
    rational_resampler::<Complex32, Complex32>(
        stream,
        input,
        taps,
        output,
        outputs,
        interpolation,
        decimation,
        taps_per_phase,
        first_phase,
    )
}

/// As grcuda_rational_resampler_ccc(), with float taps.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn grcuda_rational_resampler_ccf(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const c_void,
    output: *mut c_void,
    outputs: usize,
    interpolation: usize,
    decimation: usize,
    taps_per_phase: usize,
    first_phase: usize,
) -> grcuda_status {
    rational_resampler::<Complex32, f32>(
        stream,
        input,
        taps,
        output,
        outputs,
        interpolation,
        decimation,
        taps_per_phase,
        first_phase,
    )
}

/// As grcuda_rational_resampler_ccc(), with float samples and float taps.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn grcuda_rational_resampler_fff(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const c_void,
    output: *mut c_void,
    outputs: usize,
    interpolation: usize,
    decimation: usize,
    taps_per_phase: usize,
    first_phase: usize,
) -> grcuda_status {
    rational_resampler::<f32, f32>(
        stream,
        input,
        taps,
        output,
        outputs,
        interpolation,
        decimation,
        taps_per_phase,
        first_phase,
    )
}

/// The polyphase channelizer's filter bank, before its inverse FFT. With M = channels,
/// T = taps_per_branch and D = step_advance (input items per output step, M divided by the
/// oversample rate, 1 to M): for step s < steps and branch f < M, the sum over k < T of
/// taps[f + k * M] * input[T * M + s * D - 1 - f - k * M] goes to
/// spectra[s * M + (f - first_rotation - s * D) mod M] (first_rotation < M). An unnormalised
/// inverse FFT of each row of M (grcuda_fft_plan_execute) then gives the M channels of the
/// step. `taps` holds M * T floats (the prototype filter padded with zeros), `input`
/// T * M - D + steps * D complex items (the first T * M - D are history), `spectra`
/// steps * M complex items, overlapping neither.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn grcuda_pfb_channelizer_filter_ccf(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const f32,
    spectra: *mut c_void,
    channels: usize,
    taps_per_branch: usize,
    step_advance: usize,
    steps: usize,
    first_rotation: usize,
) -> grcuda_status {
    guard(|| unsafe {
        let shape = ChannelizerShape { channels, taps_per_branch, step_advance, steps };
        kernels::pfb_channelizer_filter(
            stream_argument(stream)?,
            input as u64,
            taps as u64,
            spectra as u64,
            shape,
            first_rotation,
        )
    })
}

/// Whether grcuda_pfb_channelizer_spectra_ccf() takes `channels`: a power of two from 32 to
/// 1024. For other counts use grcuda_pfb_channelizer_filter_ccf() and an FFT plan.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_pfb_channelizer_spectra_supported(channels: usize) -> bool {
    kernels::pfb_channelizer_spectra_supported(channels)
}

/// The twiddle table grcuda_pfb_channelizer_spectra_ccf() reads for `channels`, which the
/// caller copies to device memory once and passes to every call. Stores the table's length in
/// complex floats in `*count_out`, and, when `capacity` (in complex floats) holds it, the
/// table into `table` (host memory, two floats per entry); pass NULL and 0 to ask for the
/// length. InvalidArgument for a count grcuda_pfb_channelizer_spectra_supported() refuses or
/// a capacity that is neither 0 nor enough.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_pfb_channelizer_spectra_twiddles(
    channels: usize,
    table: *mut c_void,
    capacity: usize,
    count_out: *mut usize,
) -> grcuda_status {
    guard_out(count_out, "count_out", 0, || {
        let twiddles = kernels::pfb_channelizer_spectra_twiddles(channels)?;
        copy_table_out(&twiddles, &format!("the twiddle table of {channels} channels"), table, capacity)
    })
}

/// grcuda_pfb_channelizer_filter_ccf() and the unnormalised inverse FFT of each row in one
/// kernel, for the channel counts grcuda_pfb_channelizer_spectra_supported() accepts: with
/// M = channels, spectra[s * M + k] is the sum over n < M of row_s[n] * exp(2 pi i n k / M),
/// row s being what grcuda_pfb_channelizer_filter_ccf() writes to spectra[s * M] onwards,
/// rounded as the filter bank and cuFFT round (not bit for bit). `twiddles` holds the table of
/// grcuda_pfb_channelizer_spectra_twiddles() in device memory; the other arguments are the
/// filter bank's.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn grcuda_pfb_channelizer_spectra_ccf(
    stream: *const grcuda_stream,
    input: *const c_void,
    taps: *const f32,
    twiddles: *const c_void,
    spectra: *mut c_void,
    channels: usize,
    taps_per_branch: usize,
    step_advance: usize,
    steps: usize,
    first_rotation: usize,
) -> grcuda_status {
    guard(|| unsafe {
        let shape = ChannelizerShape { channels, taps_per_branch, step_advance, steps };
        kernels::pfb_channelizer_spectra(
            stream_argument(stream)?,
            input as u64,
            taps as u64,
            twiddles as u64,
            spectra as u64,
            shape,
            first_rotation,
        )
    })
}

/// The polyphase channelizer's outputs, after its inverse FFT: output o (< outputs), item s
/// (< steps) = spectra[s * channels + channel_map[o]], written at byte address
/// output_base + output_offsets[o] + 8 * s (the sum wrapping modulo 2^64). `channel_map`
/// (int32, each below channels) and `output_offsets` (uint64) are device arrays of `outputs`
/// values, so a caller whose output buffers advance together passes one new address per
/// call. The outputs must not overlap each other or the spectra.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn grcuda_pfb_channelizer_scatter_cc(
    stream: *const grcuda_stream,
    spectra: *const c_void,
    channel_map: *const i32,
    output_offsets: *const u64,
    output_base: *mut c_void,
    outputs: usize,
    channels: usize,
    steps: usize,
) -> grcuda_status {
    guard(|| unsafe {
        let targets = ChannelizerOutputs {
            channel_map: channel_map as u64,
            output_offsets: output_offsets as u64,
            output_base: output_base as u64,
            outputs,
        };
        kernels::pfb_channelizer_scatter(stream_argument(stream)?, spectra as u64, &targets, channels, steps)
    })
}

/// The vector output of the polyphase channelizer in channel-map order, after its inverse
/// FFT: output[s * channels + o] = spectra[s * channels + channel_map[o]] for s < steps and
/// o < channels. `channel_map` is a device array of `channels` int32 values, each below
/// channels. The output must not overlap the spectra or the map.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_pfb_channelizer_gather_cc(
    stream: *const grcuda_stream,
    spectra: *const c_void,
    channel_map: *const i32,
    output: *mut c_void,
    channels: usize,
    steps: usize,
) -> grcuda_status {
    guard(|| unsafe {
        kernels::pfb_channelizer_gather(
            stream_argument(stream)?,
            spectra as u64,
            channel_map as u64,
            output as u64,
            channels,
            steps,
        )
    })
}
