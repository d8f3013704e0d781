// SPDX-License-Identifier: GPL-3.0-or-later

//! Polyphase filters: GNU Radio's rational resampler, which runs on the direct-form FIR
//! kernels (`kernels/fir_filter.cu`, one decimating filter per output slot), and its polyphase
//! channelizer (`kernels/polyphase.cu`): the filter bank and inverse FFT in one kernel for
//! power-of-two channel counts up to 1024, the filter bank before an FFT plan otherwise, and
//! the outputs' scatter or gather after either.
//!
//! The launchers are stateless: the caller (a block) keeps the resampler's phase and the
//! channelizer's step count, and passes the phase of the first output of each call, so
//! output does not depend on how a stream is split into calls. The sums are explicit fused
//! multiply-adds in a fixed order on both backends ([`PolyphaseTap`]).

use crate::error::{Error, Result};
use crate::kernels::element::{Complex32, MultipliesInto};
use crate::kernels::fir_filter::{self, FirTypes, Rotation, Slots};
use crate::kernels::launch::{self, argument};
use crate::kernels::program::{
    PFB_CHANNELIZER_FILTER_KERNELS, PFB_CHANNELIZER_GATHER_KERNELS, PFB_CHANNELIZER_SCATTER_KERNELS,
    PFB_CHANNELIZER_SPECTRA_KERNELS,
};
use crate::kernels::{cpu, shared_fft, validate};
use crate::stream::Stream;
use std::ops::Range;

mod sealed {
    pub trait Sealed {}
}

/// A sample type of the polyphase kernels (f32 or [`Complex32`]).
pub trait PolyphaseSample: sealed::Sealed + Copy {
    const ZERO: Self;
}

/// A tap type for samples of type `S`: complex taps for complex samples ("ccc"), real taps
/// for complex samples ("ccf") or for real samples ("fff"), GNU Radio's suffixes.
pub trait PolyphaseTap<S: PolyphaseSample>: sealed::Sealed + MultipliesInto<S> {
    /// The FIR filter of samples `S` and taps `Self`, whose kernels run the resampler.
    const FIR_TYPES: FirTypes;
}

impl sealed::Sealed for f32 {}
impl sealed::Sealed for Complex32 {}

impl PolyphaseSample for f32 {
    const ZERO: f32 = 0.0;
}
impl PolyphaseSample for Complex32 {
    const ZERO: Complex32 = Complex32::new(0.0, 0.0);
}

impl PolyphaseTap<Complex32> for Complex32 {
    const FIR_TYPES: FirTypes = FirTypes::Ccc;
}

impl PolyphaseTap<Complex32> for f32 {
    const FIR_TYPES: FirTypes = FirTypes::Ccf;
}

impl PolyphaseTap<f32> for f32 {
    const FIR_TYPES: FirTypes = FirTypes::Fff;
}

/// The input items a rational resampler call reads: through the newest item of the last
/// output's window, `(first_phase + (outputs - 1) * decimation) / interpolation +
/// taps_per_phase` (0 for no outputs), or None when that overflows.
pub fn rational_resampler_input_items(
    outputs: usize,
    interpolation: usize,
    decimation: usize,
    taps_per_phase: usize,
    first_phase: usize,
) -> Option<usize> {
    if outputs == 0 {
        return Some(0);
    }
    let last = (outputs - 1).checked_mul(decimation)?.checked_add(first_phase)?;
    (last / interpolation).checked_add(taps_per_phase)
}

/// GNU Radio's rational resampler for `outputs` outputs: with I = `interpolation`, D =
/// `decimation` and N = `taps_per_phase`, output i has position p = first_phase + i * D and is
/// `sum over k < N of input[p / I + N - 1 - k] * taps[p mod I + k * I]`. `taps` holds I * N
/// taps (the prototype filter, padded with zeros to a multiple of I); `input` holds
/// [`rational_resampler_input_items`] items. `first_phase` is below I.
///
/// # Safety
/// The arrays must address those counts of valid items of device memory of the stream's
/// device (host memory on the simulated backend) until the kernel completes, and nothing
/// else may write them meanwhile; `output` must not overlap the others.
#[allow(clippy::too_many_arguments)]
pub unsafe fn rational_resampler<S: PolyphaseSample, T: PolyphaseTap<S>>(
    stream: &Stream,
    input: u64,
    taps: u64,
    output: u64,
    outputs: usize,
    interpolation: usize,
    decimation: usize,
    taps_per_phase: usize,
    first_phase: usize,
) -> Result<()> {
    if interpolation == 0 || decimation == 0 || taps_per_phase == 0 {
        return Err(Error::invalid_argument(format!(
            "rational resampler: interpolation ({interpolation}), decimation ({decimation}) and taps per phase \
             ({taps_per_phase}) must be at least 1"
        )));
    }
    if first_phase >= interpolation {
        return Err(Error::invalid_argument(format!(
            "rational resampler: the first phase ({first_phase}) must be below the interpolation ({interpolation})"
        )));
    }
    if outputs == 0 {
        return Ok(());
    }
    let input_items = rational_resampler_input_items(outputs, interpolation, decimation, taps_per_phase, first_phase)
        .ok_or_else(|| Error::invalid_argument("rational resampler: the input size overflows"))?;
    let tap_count = validate::product("rational resampler taps", &[interpolation, taps_per_phase])?;
    let input_range = validate::array::<S>("input", input, input_items)?;
    let taps_range = validate::array::<T>("taps", taps, tap_count)?;
    let output_range = validate::array::<S>("output", output, outputs)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    validate::disjoint(("taps", &taps_range), ("output", &output_range))?;
    // Safety: the caller's, with the arrays checked above.
    unsafe {
        fir_filter::direct_form(
            stream,
            T::FIR_TYPES,
            input,
            taps,
            output,
            outputs,
            taps_per_phase,
            decimation,
            Rotation::NONE,
            Slots::rational_resampler(interpolation, first_phase),
        )
    }
}

/// The shape of a polyphase channelizer call: M = `channels`, T = `taps_per_branch`, D =
/// `step_advance` (input items per output step, M / oversample_rate, 1 to M) and `steps`
/// output steps.
#[derive(Clone, Copy, Debug)]
pub struct ChannelizerShape {
    pub channels: usize,
    pub taps_per_branch: usize,
    pub step_advance: usize,
    pub steps: usize,
}

impl ChannelizerShape {
    /// The input items a call reads: T * M - D of history, then D per step.
    pub fn input_items(&self) -> Option<usize> {
        let history = self.taps_per_branch.checked_mul(self.channels)?.checked_sub(self.step_advance)?;
        history.checked_add(self.steps.checked_mul(self.step_advance)?)
    }

    fn check(&self) -> Result<()> {
        let ChannelizerShape { channels, taps_per_branch, step_advance, .. } = *self;
        if channels == 0 || taps_per_branch == 0 || step_advance == 0 || step_advance > channels {
            return Err(Error::invalid_argument(format!(
                "polyphase channelizer: channels ({channels}) and taps per branch ({taps_per_branch}) must be at \
                 least 1, the step advance ({step_advance}) between 1 and the channels"
            )));
        }
        Ok(())
    }

    /// The filter-bank kernel for this step advance (a variant of
    /// `PFB_CHANNELIZER_FILTER_KERNELS`): advances of M, M / 2 and M / 4 have kernels whose
    /// steps share input rows in registers, any other advance the kernel that reads each step's.
    /// Called on checked shapes (a step advance of at least 1).
    fn oversampling_variant(&self) -> &'static str {
        match (self.channels % self.step_advance, self.channels / self.step_advance) {
            (0, 1) => "1",
            (0, 2) => "2",
            (0, 4) => "4",
            _ => "_any",
        }
    }

    /// Checks a filter-bank call's shape, rotation and arrays (the input and taps must not
    /// overlap the spectra); returns the spectra's byte range, or None for no steps.
    fn check_call(&self, input: u64, taps: u64, spectra: u64, first_rotation: usize) -> Result<Option<Range<u64>>> {
        self.check()?;
        if first_rotation >= self.channels {
            return Err(Error::invalid_argument(format!(
                "polyphase channelizer: the first rotation ({first_rotation}) must be below the channels ({})",
                self.channels
            )));
        }
        if self.steps == 0 {
            return Ok(None);
        }
        let overflow = || Error::invalid_argument("polyphase channelizer: the input size overflows");
        let input_items = self.input_items().ok_or_else(overflow)?;
        let tap_count = validate::product("channelizer taps", &[self.channels, self.taps_per_branch])?;
        let spectrum_items = validate::product("spectra", &[self.channels, self.steps])?;
        let input_range = validate::array::<Complex32>("input", input, input_items)?;
        let taps_range = validate::array::<f32>("taps", taps, tap_count)?;
        let spectra_range = validate::array::<Complex32>("spectra", spectra, spectrum_items)?;
        validate::disjoint(("input", &input_range), ("spectra", &spectra_range))?;
        validate::disjoint(("taps", &taps_range), ("spectra", &spectra_range))?;
        Ok(Some(spectra_range))
    }
}

/// The channelizer's filter bank: for each step s and branch f,
/// `sum over k < T of taps[f + k * M] * input[T * M + s * D - 1 - f - k * M]`, written to
/// `spectra[s * M + ((f - (first_rotation + s * D)) mod M)]`, so that an unnormalised inverse
/// FFT of each row of M gives the M channels of that step. `taps` holds M * T floats,
/// `input` [`ChannelizerShape::input_items`] complex items, `spectra` steps * M.
///
/// # Safety
/// As for [`rational_resampler`].
pub unsafe fn pfb_channelizer_filter(
    stream: &Stream,
    input: u64,
    taps: u64,
    spectra: u64,
    shape: ChannelizerShape,
    first_rotation: usize,
) -> Result<()> {
    if shape.check_call(input, taps, spectra, first_rotation)?.is_none() {
        return Ok(());
    }
    let on_cpu = || unsafe { cpu::polyphase::pfb_channelizer_filter(input, taps, spectra, shape, first_rotation) };
    launch::run(stream, PFB_CHANNELIZER_FILTER_KERNELS.variant(shape.oversampling_variant()), on_cpu, |kernel| {
        let values = [shape.channels, shape.taps_per_branch, shape.step_advance, shape.steps, first_rotation]
            .map(|value| value as u64);
        let mut arguments = [argument(&input), argument(&taps), argument(&spectra)].to_vec();
        arguments.extend(values.iter().map(argument));
        let work_items = shape.steps.div_ceil(CHANNELIZER_STEPS_PER_THREAD) * shape.channels;
        unsafe { kernel.launch(work_items, &mut arguments) }
    })
}

/// The kernels of [`pfb_channelizer_spectra`] (the suffixes of their names), with the
/// channels each takes and the steps a block of it filters and transforms
/// (`CHANNELIZER_SPECTRA_KERNEL` in `kernels/polyphase.cu`). A block reads the whole filter
/// bank for its steps, so it takes at least 8 steps (the register window of the filter) where
/// shared memory allows: 4096 / M rows up to 512 channels (32 KiB), 8 rows at 1024 channels
/// (68 KiB, which a block gets only where the device gives more than 48 KiB), and 4 rows with
/// the `_four_steps` kernel on devices that cannot. With more than 1024 channels a block could
/// hold only one or two steps, the taps would outweigh the samples, and the one kernel loses
/// to the filter bank and cuFFT (0.53-0.60x at 4096 channels on the H200).
const CHANNELIZER_SPECTRA_KERNEL_SHAPES: [(&str, usize, usize); 7] = [
    ("32", 32, 128),
    ("64", 64, 64),
    ("128", 128, 32),
    ("256", 256, 16),
    ("512", 512, 8),
    ("1024", 1024, 8),
    ("1024_four_steps", 1024, 4),
];

/// The suffixes of [`CHANNELIZER_SPECTRA_KERNEL_SHAPES`], for the kernel statics.
pub(crate) const CHANNELIZER_SPECTRA_KERNEL_NAMES: [&str; 7] = {
    let mut names = [""; 7];
    let mut i = 0;
    while i < names.len() {
        names[i] = CHANNELIZER_SPECTRA_KERNEL_SHAPES[i].0;
        i += 1;
    }
    names
};

/// The kernel of [`pfb_channelizer_spectra`] for `channels` (one it takes) on a device that
/// gives a block up to `shared_bytes_limit` of shared memory, and the steps a block of it
/// takes: the first of the kernels for that count whose rows fit.
fn channelizer_spectra_kernel(channels: usize, shared_bytes_limit: usize) -> (&'static str, usize) {
    let fits = |&&(_, count, steps): &&(&str, usize, usize)| {
        count == channels && shared_fft::shared_bytes(steps, channels) as usize <= shared_bytes_limit
    };
    let (name, _, steps) = CHANNELIZER_SPECTRA_KERNEL_SHAPES
        .iter()
        .find(fits)
        .or_else(|| CHANNELIZER_SPECTRA_KERNEL_SHAPES.iter().rev().find(|(_, count, _)| *count == channels))
        .expect("launchers ask only for the channel counts of the one kernel");
    (name, *steps)
}

const CHANNELIZER_SPECTRA_CHANNELS: std::ops::RangeInclusive<usize> = 32..=1024;

/// Whether [`pfb_channelizer_spectra`] takes `channels`: a power of two from 32 to 1024. Other
/// counts take [`pfb_channelizer_filter`] and an FFT plan.
pub fn pfb_channelizer_spectra_supported(channels: usize) -> bool {
    channels.is_power_of_two() && CHANNELIZER_SPECTRA_CHANNELS.contains(&channels)
}

/// The twiddle table [`pfb_channelizer_spectra`] reads for `channels`, which the caller keeps
/// in device memory.
pub fn pfb_channelizer_spectra_twiddles(channels: usize) -> Result<Vec<Complex32>> {
    require_spectra_channels(channels)?;
    Ok(shared_fft::twiddles(channels).collect())
}

fn require_spectra_channels(channels: usize) -> Result<()> {
    if pfb_channelizer_spectra_supported(channels) {
        return Ok(());
    }
    Err(Error::invalid_argument(format!(
        "the polyphase channelizer in one kernel needs a power-of-two number of channels from {} to {}, got \
         {channels}: use the filter bank and an FFT plan for it",
        CHANNELIZER_SPECTRA_CHANNELS.start(),
        CHANNELIZER_SPECTRA_CHANNELS.end()
    )))
}

/// [`pfb_channelizer_filter`] and the unnormalised inverse FFT of each row in one kernel, for
/// the channel counts [`pfb_channelizer_spectra_supported`] accepts: `spectra[s * M + k]` is
/// `sum over n < M of row_s[n] * exp(2 pi i n k / M)`, where row s is what
/// [`pfb_channelizer_filter`] writes to `spectra[s * M ..]`. `twiddles` holds
/// [`pfb_channelizer_spectra_twiddles`]`(M)` in device memory; the rest is as there.
///
/// # Safety
/// As for [`pfb_channelizer_filter`], and `twiddles` must hold the table's complex64 values,
/// not written meanwhile.
pub unsafe fn pfb_channelizer_spectra(
    stream: &Stream,
    input: u64,
    taps: u64,
    twiddles: u64,
    spectra: u64,
    shape: ChannelizerShape,
    first_rotation: usize,
) -> Result<()> {
    require_spectra_channels(shape.channels)?;
    let Some(spectra_range) = shape.check_call(input, taps, spectra, first_rotation)? else {
        return Ok(());
    };
    let twiddle_range = validate::array::<Complex32>("twiddles", twiddles, shared_fft::twiddle_count(shape.channels))?;
    validate::disjoint(("twiddles", &twiddle_range), ("spectra", &spectra_range))?;
    let on_cpu = || unsafe {
        cpu::polyphase::pfb_channelizer_filter(input, taps, spectra, shape, first_rotation);
        let rows = std::slice::from_raw_parts_mut(spectra as *mut Complex32, shape.steps * shape.channels);
        rustfft::FftPlanner::new().plan_fft_inverse(shape.channels).process(rows);
    };
    let (kernel_name, steps_per_block) =
        channelizer_spectra_kernel(shape.channels, stream.device().info().shared_bytes_per_block_optin);
    launch::run(stream, PFB_CHANNELIZER_SPECTRA_KERNELS.variant(kernel_name), on_cpu, |kernel| {
        let values = [shape.taps_per_branch, shape.step_advance, shape.steps, first_rotation].map(|value| value as u64);
        let mut arguments = [argument(&input), argument(&taps), argument(&twiddles), argument(&spectra)].to_vec();
        arguments.extend(values.iter().map(argument));
        unsafe {
            kernel.launch_tiles(
                shape.steps.div_ceil(steps_per_block),
                CHANNELIZER_SPECTRA_THREADS,
                shared_fft::shared_bytes(steps_per_block, shape.channels),
                &mut arguments,
            )
        }
    })
}

/// `CHANNELIZER_SPECTRA_THREADS` in `kernels/polyphase.cu`: the threads of a block of
/// [`pfb_channelizer_spectra`].
const CHANNELIZER_SPECTRA_THREADS: u32 = 256;

/// `CHANNELIZER_STEPS_PER_THREAD` in `kernels/polyphase.cu`.
const CHANNELIZER_STEPS_PER_THREAD: usize = 16;

/// `SCATTER_TILE` in `kernels/polyphase.cu`: the side of the square tiles the scatter moves
/// through shared memory, one tile per thread block.
const SCATTER_TILE: usize = 32;

/// Where the channelizer's outputs go: output o, item s (of `steps`) is
/// `spectra[s * channels + channel_map[o]]`, at device address `output_base +
/// output_offsets[o] + 8 * s` (offsets in bytes, wrapping modulo 2^64). `channel_map` and
/// `output_offsets` are device arrays of `outputs` i32 and u64 values; the map's values are
/// below `channels` (the caller checks them when it sets the map).
pub struct ChannelizerOutputs {
    pub channel_map: u64,
    pub output_offsets: u64,
    pub output_base: u64,
    pub outputs: usize,
}

/// Copies each output's channel out of the spectra (see [`ChannelizerOutputs`]).
///
/// # Safety
/// `spectra` must address steps * channels complex items, the two tables `outputs` values,
/// and each output `steps` complex items, of device memory of the stream's device (host
/// memory on the simulated backend) until the kernel completes, and nothing else may write
/// them meanwhile. The outputs must not overlap each other or the spectra (the offsets are
/// in device memory, so this is not checked).
pub unsafe fn pfb_channelizer_scatter(
    stream: &Stream,
    spectra: u64,
    outputs: &ChannelizerOutputs,
    channels: usize,
    steps: usize,
) -> Result<()> {
    if channels == 0 {
        return Err(Error::invalid_argument("polyphase channelizer scatter: channels must be at least 1"));
    }
    if steps == 0 || outputs.outputs == 0 {
        return Ok(());
    }
    if outputs.output_base == 0 {
        return Err(Error::invalid_argument("polyphase channelizer scatter: the first output address is NULL"));
    }
    let spectrum_items = validate::product("spectra", &[channels, steps])?;
    validate::array::<Complex32>("spectra", spectra, spectrum_items)?;
    validate::array::<i32>("channel map", outputs.channel_map, outputs.outputs)?;
    validate::array::<u64>("output offsets", outputs.output_offsets, outputs.outputs)?;
    let on_cpu = || unsafe { cpu::polyphase::pfb_channelizer_scatter(spectra, outputs, channels, steps) };
    launch::run(stream, PFB_CHANNELIZER_SCATTER_KERNELS.variant(""), on_cpu, |kernel| {
        let values = [outputs.output_base, outputs.outputs as u64, channels as u64, steps as u64];
        let mut arguments =
            [argument(&spectra), argument(&outputs.channel_map), argument(&outputs.output_offsets)].to_vec();
        arguments.extend(values.iter().map(argument));
        let tiles = steps.div_ceil(SCATTER_TILE) * outputs.outputs.div_ceil(SCATTER_TILE);
        unsafe { kernel.launch(tiles * launch::BLOCK_SIZE as usize, &mut arguments) }
    })
}

/// The vector output of the channelizer in channel-map order: `output[s * channels + o] =
/// spectra[s * channels + channel_map[o]]` for s < `steps`, o < `channels`. `channel_map` is a
/// device array of `channels` i32 values below `channels` (the caller checks them when it sets
/// the map).
///
/// # Safety
/// `spectra` and `output` must address steps * channels complex items and `channel_map`
/// `channels` values, of device memory of the stream's device (host memory on the simulated
/// backend) until the kernel completes, and nothing else may write them meanwhile.
pub unsafe fn pfb_channelizer_gather(
    stream: &Stream,
    spectra: u64,
    channel_map: u64,
    output: u64,
    channels: usize,
    steps: usize,
) -> Result<()> {
    if channels == 0 {
        return Err(Error::invalid_argument("polyphase channelizer gather: channels must be at least 1"));
    }
    if steps == 0 {
        return Ok(());
    }
    let items = validate::product("spectra", &[channels, steps])?;
    let spectra_range = validate::array::<Complex32>("spectra", spectra, items)?;
    let map_range = validate::array::<i32>("channel map", channel_map, channels)?;
    let output_range = validate::array::<Complex32>("output", output, items)?;
    validate::disjoint(("spectra", &spectra_range), ("output", &output_range))?;
    validate::disjoint(("channel map", &map_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::polyphase::pfb_channelizer_gather(spectra, channel_map, output, channels, steps) };
    launch::run(stream, PFB_CHANNELIZER_GATHER_KERNELS.variant(""), on_cpu, |kernel| {
        let (channels_argument, steps_argument) = (channels as u64, steps as u64);
        unsafe {
            kernel.launch(
                items,
                &mut [
                    argument(&spectra),
                    argument(&channel_map),
                    argument(&output),
                    argument(&channels_argument),
                    argument(&steps_argument),
                ],
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_channel_count_of_the_one_kernel_has_its_kernel() {
        let supported: Vec<usize> = CHANNELIZER_SPECTRA_CHANNELS.filter(|&count| count.is_power_of_two()).collect();
        let mut counts: Vec<usize> = CHANNELIZER_SPECTRA_KERNEL_SHAPES.iter().map(|&(_, count, _)| count).collect();
        counts.dedup();
        assert_eq!(counts, supported);
        for (name, channels, steps) in CHANNELIZER_SPECTRA_KERNEL_SHAPES {
            assert!(name.starts_with(&channels.to_string()), "{name}");
            // The block's 256 threads filter runs of min(steps, 8) rows and transform whole
            // rounds of rows, 16 values per thread.
            assert_eq!(channels * steps % (256 * steps.min(8)), 0, "{name}");
            assert_eq!(steps % (256 / (channels / 16)), 0, "{name}");
        }
    }

    #[test]
    fn a_block_takes_eight_steps_where_the_device_gives_the_shared_memory() {
        let hopper = 227 << 10;
        let turing = 64 << 10;
        for (limit, expected_1024) in
            [(hopper, ("1024", 8)), (turing, ("1024_four_steps", 4)), (48 << 10, ("1024_four_steps", 4))]
        {
            assert_eq!(channelizer_spectra_kernel(1024, limit), expected_1024);
            assert_eq!(channelizer_spectra_kernel(256, limit), ("256", 16));
            assert_eq!(channelizer_spectra_kernel(32, limit), ("32", 128));
        }
        // Every kernel's rows fit the most a block has without asking, but 8 rows of 1024.
        for (name, channels, steps) in CHANNELIZER_SPECTRA_KERNEL_SHAPES {
            let bytes = shared_fft::shared_bytes(steps, channels) as usize;
            assert_eq!(bytes <= 48 << 10, name != "1024", "{name}: {bytes} bytes");
        }
    }
}
