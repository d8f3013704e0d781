// SPDX-License-Identifier: GPL-3.0-or-later

//! FIR filters (`kernels/fir_filter.cu`): the direct form, overlap-save convolution in one
//! kernel with shared-memory FFTs, and the three steps of overlap-save around cuFFT.
//! [`crate::filter::FirFilter`] owns the taps and chooses between them; these launchers only
//! check and enqueue.
//!
//! Every filter computes what GNU Radio's fir_filter_xxx computes: output j is the dot product
//! of the reversed taps with `tap_count` input items from item `j * decimation` on (the input
//! starts with `tap_count - 1` items of history). Complex outputs may be rotated by a phase
//! that advances by a fixed increment per output ([`Rotation`]), which is how
//! freq_xlating_fir_filter translates the frequency after decimating. The direct form's
//! kernels also run the rational resampler ([`Slots`], `polyphase::rational_resampler`).

use crate::error::{Error, Result};
use crate::kernels::element::Complex32;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::{
    self, FIR_FILTER_KERNELS, FIR_FILTER_ROWS_KERNELS, FIR_FILTER_ROWS3_KERNELS, FIR_FILTER_ROWS5_KERNELS,
    FIR_FILTER_TILED_KERNELS, FIR_FILTER_TILED_UNDECIMATED_KERNELS, OVERLAP_SAVE_EXTRACT_KERNELS,
    OVERLAP_SAVE_GATHER_KERNELS, OVERLAP_SAVE_MULTIPLY_KERNELS, OVERLAP_SAVE_SEGMENTS_KERNELS,
};
use crate::kernels::{cpu, shared_fft, validate};
use crate::stream::Stream;
use std::ops::Range;

/// The input, tap and output types of a FIR filter, named as GNU Radio names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirTypes {
    /// Complex input, complex taps, complex output.
    Ccc,
    /// Complex input, float taps, complex output.
    Ccf,
    /// Float input, float taps, float output.
    Fff,
}

impl FirTypes {
    /// GNU Radio's suffix, which is also the kernel name's.
    pub fn name(self) -> &'static str {
        match self {
            FirTypes::Ccc => "ccc",
            FirTypes::Ccf => "ccf",
            FirTypes::Fff => "fff",
        }
    }

    /// Whether input and output items are complex64 (else float32).
    pub fn complex_samples(self) -> bool {
        self != FirTypes::Fff
    }

    /// Whether taps are complex64 (else float32).
    pub fn complex_taps(self) -> bool {
        self == FirTypes::Ccc
    }

    /// Bytes of one input or output sample.
    pub fn sample_bytes(self) -> usize {
        if self.complex_samples() { size_of::<Complex32>() } else { size_of::<f32>() }
    }

    /// Bytes of one tap.
    pub fn tap_bytes(self) -> usize {
        if self.complex_taps() { size_of::<Complex32>() } else { size_of::<f32>() }
    }

    /// The name of the sample type's kernels ("complex64" or "float32").
    pub(crate) fn sample_name(self) -> &'static str {
        if self.complex_samples() { "complex64" } else { "float32" }
    }
}

/// A phase rotation of a filter's outputs: output j is multiplied by e^(i·(start + j·increment)),
/// with the angle computed in double precision, so it stays exact over any number of outputs.
/// The C layout is the kernels' `Rotation` parameter.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rotation {
    start: f64,
    increment: f64,
    rotate: i32,
}

impl Rotation {
    /// No rotation: outputs are left as they are.
    pub const NONE: Rotation = Rotation { start: 0.0, increment: 0.0, rotate: 0 };

    /// The rotation starting at `start` radians and advancing `increment` radians per output.
    pub fn new(start: f64, increment: f64) -> Rotation {
        Rotation { start, increment, rotate: 1 }
    }

    pub fn is_none(&self) -> bool {
        self.rotate == 0
    }

    /// The angle of output `index`, reduced to [-π, π] as the kernels reduce it.
    pub(crate) fn angle(&self, index: usize) -> f64 {
        let angle = self.start + index as f64 * self.increment;
        angle - std::f64::consts::TAU * (angle / std::f64::consts::TAU).round_ties_even()
    }

    fn check(&self, types: FirTypes) -> Result<()> {
        if !self.is_none() && !types.complex_samples() {
            return Err(Error::invalid_argument("a rotation needs complex outputs: float filters cannot rotate"));
        }
        if !(self.start.is_finite() && self.increment.is_finite()) {
            return Err(Error::invalid_argument(format!(
                "the rotation's start phase ({}) and increment ({}) must be finite",
                self.start, self.increment
            )));
        }
        Ok(())
    }
}

/// The slots of a direct-form call (see `kernels/fir_filter.cu`): a FIR filter has one, with
/// its taps reversed; a rational resampler with interpolation I has I, with the prototype
/// filter's taps. The C layout is the kernels' `Slots` parameter.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slots {
    pub(crate) interpolation: u64,
    pub(crate) first_phase: u64,
    prototype_taps: i32,
}

impl Slots {
    /// A FIR filter's one slot, its taps reversed.
    pub(crate) const FIR_FILTER: Slots = Slots { interpolation: 1, first_phase: 0, prototype_taps: 0 };

    /// A rational resampler's `interpolation` slots, with output 0 at `first_phase`.
    pub(crate) fn rational_resampler(interpolation: usize, first_phase: usize) -> Slots {
        Slots { interpolation: interpolation as u64, first_phase: first_phase as u64, prototype_taps: 1 }
    }

    pub(crate) fn prototype_taps(&self) -> bool {
        self.prototype_taps != 0
    }
}

/// The byte range of `count` samples of `types` (complex64 or float32) at `address`.
fn samples(what: &str, address: u64, count: usize, complex: bool) -> Result<Range<u64>> {
    if complex {
        validate::array::<Complex32>(what, address, count)
    } else {
        validate::array::<f32>(what, address, count)
    }
}

/// How many input items `outputs` outputs read: `(outputs - 1) * decimation + tap_count`.
pub fn fir_input_items(outputs: usize, tap_count: usize, decimation: usize) -> Result<usize> {
    outputs
        .checked_sub(1)
        .map_or(Some(0), |last| last.checked_mul(decimation)?.checked_add(tap_count))
        .ok_or_else(|| Error::invalid_argument(format!("the FIR input size overflows ({outputs} outputs)")))
}

fn check_shape(tap_count: usize, decimation: usize) -> Result<()> {
    if tap_count == 0 {
        return Err(Error::invalid_argument("the filter has no taps: pass at least one tap"));
    }
    if decimation == 0 {
        return Err(Error::invalid_argument("decimation is 0: pass 1 for no decimation, or more"));
    }
    Ok(())
}

/// The direct form: for each of `outputs` outputs, `output[j]` = the dot product of the
/// `tap_count` taps at `reversed_taps` (the filter's taps, last first) with `input[j *
/// decimation ..]`, then rotated by `rotation` (complex outputs only). `input` holds
/// [`fir_input_items`] items. The output must not overlap the input or the taps.
///
/// # Safety
/// Every array must be device memory of the stream's device (host memory on the simulated
/// backend) of the sizes above, valid until the kernel completes, and nothing else may write
/// them meanwhile.
#[allow(clippy::too_many_arguments)]
pub unsafe fn fir_filter(
    stream: &Stream,
    types: FirTypes,
    input: u64,
    reversed_taps: u64,
    output: u64,
    outputs: usize,
    tap_count: usize,
    decimation: usize,
    rotation: Rotation,
) -> Result<()> {
    check_shape(tap_count, decimation)?;
    rotation.check(types)?;
    if outputs == 0 {
        return Ok(());
    }
    let complex = types.complex_samples();
    let input_range = samples("input", input, fir_input_items(outputs, tap_count, decimation)?, complex)?;
    let taps_range = samples("taps", reversed_taps, tap_count, types.complex_taps())?;
    let output_range = samples("output", output, outputs, complex)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    validate::disjoint(("taps", &taps_range), ("output", &output_range))?;
    // Safety: the caller's, with the arrays checked above.
    unsafe {
        direct_form(
            stream,
            types,
            input,
            reversed_taps,
            output,
            outputs,
            tap_count,
            decimation,
            rotation,
            Slots::FIR_FILTER,
        )
    }
}

/// The direct form's launch for the checked arguments of [`fir_filter`] or of
/// `polyphase::rational_resampler` (`tap_count` taps per slot).
///
/// # Safety
/// As [`fir_filter`], for the input the slots read.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn direct_form(
    stream: &Stream,
    types: FirTypes,
    input: u64,
    taps: u64,
    output: u64,
    outputs: usize,
    tap_count: usize,
    decimation: usize,
    rotation: Rotation,
    slots: Slots,
) -> Result<()> {
    let on_cpu = || unsafe {
        cpu::fir_filter::direct_form(types, input, taps, output, outputs, tap_count, decimation, rotation, slots)
    };
    // The kernels sum in the same order: which one runs does not change the output. The rows
    // kernel takes decimating filters of few taps per phase (rows_tile), a block computing a
    // tile of every slot; a phase-by-phase tile stages the input of TILE_OUTPUTS outputs of one
    // slot, and slots of fewer outputs (a resampler with a large interpolation, or a short
    // call) would mostly stage unused input.
    let slot_count = slots.interpolation as usize;
    let slot_outputs = outputs.div_ceil(slot_count);
    let (kernel, tiles) = if let Some(rows) = rows_tile(types, tap_count, decimation, slots) {
        let kernel = match rows.outputs_per_thread {
            5 => FIR_FILTER_ROWS5_KERNELS.variant(types.name()),
            3 => FIR_FILTER_ROWS3_KERNELS.variant(types.name()),
            _ => FIR_FILTER_ROWS_KERNELS.variant(types.name()),
        };
        let units = slot_outputs.div_ceil(rows.threads as usize * rows.outputs_per_thread);
        (kernel, Some(Tiles { threads: rows.threads, shared_bytes: rows.shared_bytes, units }))
    } else if let Some(shared_bytes) =
        tile_shared_bytes(types, tap_count, decimation).filter(|_| slot_outputs >= TILE_OUTPUTS / 2)
    {
        let kernels = if decimation == 1 { &FIR_FILTER_TILED_UNDECIMATED_KERNELS } else { &FIR_FILTER_TILED_KERNELS };
        let units = slot_outputs.div_ceil(TILE_OUTPUTS).saturating_mul(slot_count);
        (kernels.variant(types.name()), Some(Tiles { threads: TILE_THREADS, shared_bytes, units }))
    } else {
        (FIR_FILTER_KERNELS.variant(types.name()), None)
    };
    launch::run(stream, kernel, on_cpu, |kernel| {
        let (outputs_argument, taps_argument, decimation_argument) =
            (outputs as u64, tap_count as u64, decimation as u64);
        let mut arguments = [
            argument(&input),
            argument(&taps),
            argument(&output),
            argument(&outputs_argument),
            argument(&taps_argument),
            argument(&decimation_argument),
            argument(&rotation),
            argument(&slots),
        ];
        match tiles {
            Some(tiles) => unsafe {
                kernel.launch_tiles(tiles.units, tiles.threads, tiles.shared_bytes, &mut arguments)
            },
            None => unsafe {
                // Work units: groups of OUTPUTS_PER_THREAD outputs of one slot each.
                let units = slot_outputs.div_ceil(OUTPUTS_PER_THREAD).saturating_mul(slot_count);
                kernel.launch(units, &mut arguments)
            },
        }
    })
}

/// The launch of a direct-form kernel that stages tiles in shared memory: threads per block,
/// dynamic shared memory, and the work units (tiles) the blocks take in turn.
#[derive(Clone, Copy)]
struct Tiles {
    threads: u32,
    shared_bytes: u32,
    units: usize,
}

/// `OUTPUTS_PER_THREAD`, `UNIT_OUTPUTS_PER_THREAD` and `TILE_THREADS` in
/// `kernels/fir_filter.cu`.
const OUTPUTS_PER_THREAD: usize = 8;
const UNIT_OUTPUTS_PER_THREAD: usize = 8;
const TILE_THREADS: u32 = 128;
/// The outputs of one tile of the tiled direct form.
const TILE_OUTPUTS: usize = UNIT_OUTPUTS_PER_THREAD * TILE_THREADS as usize;

/// The dynamic shared memory of the tiled direct form, or None where it does not fit, and
/// the kernel that reads device memory runs: every phase's taps, each phase rounded up to
/// whole blocks of the most taps a phase has, then the input of one phase (every
/// decimation-th item) for the tile's outputs plus the phase's taps rounded up to whole
/// blocks, with a 16-byte vector of padding after every UNIT_OUTPUTS_PER_THREAD items.
fn tile_shared_bytes(types: FirTypes, tap_count: usize, decimation: usize) -> Option<u32> {
    let (sample_bytes, tap_bytes) = (types.sample_bytes(), types.tap_bytes());
    let phase_taps = tap_count.div_ceil(decimation).checked_next_multiple_of(UNIT_OUTPUTS_PER_THREAD)?;
    let taps = decimation.min(tap_count).checked_mul(phase_taps)?.checked_mul(tap_bytes)?;
    let items = TILE_OUTPUTS.checked_add(phase_taps)?;
    let padded = items + items / UNIT_OUTPUTS_PER_THREAD * (16 / sample_bytes);
    let bytes = taps.checked_add(padded.checked_mul(sample_bytes)?)?;
    (bytes <= launch::SHARED_BYTES_PER_BLOCK).then_some(bytes as u32)
}

/// The launch of the rows kernel (`grcuda_fir_filter_rows{,3,5}_*`): the consecutive outputs
/// each thread sums, threads per block, and dynamic shared memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RowsTile {
    outputs_per_thread: usize,
    threads: u32,
    shared_bytes: u32,
}

/// The rows kernel's tile, or None where the phase-by-phase tiles are faster. Measured on an
/// H100 for one slot (a FIR filter, or a resampler without interpolation; docs/PERFORMANCE.md,
/// "Decimating filters: the rows kernel"), and taken for up to MOST_ROWS_SLOTS slots of a
/// resampler, whose tiles share one staging of the rows:
/// - from decimation 4; at 2 the tiles, which keep 16 outputs per thread in registers, match
///   or beat every rows variant;
/// - outputs per thread R: one shared read of an item and of a tap serves R multiply-adds, so
///   R = 3 (complex samples) and 5 (float) win up to decimation 16, float R = 3 up to 32;
///   above those the tile's rows no longer fit enough threads, and R = 1 wins;
/// - R = 1 only for phases of at most 16 taps (complex samples at decimations 4 to 7, float
///   from 8) or 32 (complex from 8): longer phases are the tiles' register windows' ground;
/// - several slots of float samples from decimation 7: below, the tiles are faster (an
///   H100, 2026-12-07: resamplers fff 4/5 and 2/5 ran 27% and 12% slower on the rows, 2/7
///   and 3/8 7% and 24% faster; complex samples 18-53% faster at every ratio measured).
///
/// Shared memory holds every slot's taps, phase by phase (each phase as many as phase 0,
/// rounded up to 16 bytes in all), then the tile's rows of `decimation` items, an odd number of
/// items apart, through the last output's last tap (one row more for several slots, whose
/// inputs start up to a row apart). The tile is the largest of 256 to 32 threads that fits
/// at the chosen R, else at the next smaller R.
fn rows_tile(types: FirTypes, tap_count: usize, decimation: usize, slots: Slots) -> Option<RowsTile> {
    let slot_count = usize::try_from(slots.interpolation).ok()?;
    let complex = types.complex_samples();
    if decimation < 4 || slot_count > MOST_ROWS_SLOTS || (slot_count > 1 && !complex && decimation < 7) {
        return None;
    }
    let most_outputs_per_thread = match (complex, decimation) {
        (true, ..=16) => 3,
        (false, ..=16) => 5,
        (false, ..=32) => 3,
        _ => 1,
    };
    let most_phase_taps = tap_count.div_ceil(decimation);
    let one_output_taps_per_phase = match (complex, decimation) {
        (true, ..=7) => 16,
        (true, _) => 32,
        (false, ..=7) => 0,
        (false, _) => 16,
    };
    let (sample_bytes, tap_bytes) = (types.sample_bytes(), types.tap_bytes());
    let taps = slot_count
        .checked_mul(decimation.min(tap_count))?
        .checked_mul(most_phase_taps)?
        .checked_mul(tap_bytes)?
        .checked_next_multiple_of(16)?;
    // The slots' inputs start up to a row apart: one more row where there are several.
    let extra_row = usize::from(slot_count > 1);
    let pitch = decimation | 1;
    [5, 3, 1]
        .into_iter()
        .filter(|&outputs_per_thread| outputs_per_thread <= most_outputs_per_thread)
        .filter(|&outputs_per_thread| outputs_per_thread > 1 || most_phase_taps <= one_output_taps_per_phase)
        .find_map(|outputs_per_thread| {
            [256u32, 128, 64, 32].into_iter().find_map(|threads| {
                let rows = (threads as usize * outputs_per_thread - 1).checked_add(most_phase_taps + extra_row)?;
                let bytes = rows.checked_mul(pitch)?.checked_mul(sample_bytes)?.checked_add(taps)?;
                (bytes <= launch::SHARED_BYTES_PER_BLOCK).then_some(RowsTile {
                    outputs_per_thread,
                    threads,
                    shared_bytes: bytes as u32,
                })
            })
        })
}

/// The most slots (a resampler's interpolation) the rows kernel takes: a block computes a tile
/// of every slot, so more slots make fewer, longer blocks, and the slots' taps fill the shared
/// memory the rows need.
const MOST_ROWS_SLOTS: usize = 8;

/// Overlap-save, step 1: `segments[s * fft_size + t] = input[s * step + t]` as complex64 for
/// `segment_count` segments and `t < length`, zero for larger `t` and where `s * step + t` is
/// `available` or more.
///
/// # Safety
/// As [`fir_filter`]: `input` holds `available` samples, `segments` `segment_count * fft_size`
/// complex64 items, disjoint from the input.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn overlap_save_gather(
    stream: &Stream,
    complex_input: bool,
    input: u64,
    available: usize,
    segments: u64,
    fft_size: usize,
    step: usize,
    length: usize,
    segment_count: usize,
) -> Result<()> {
    let count = validate::product("overlap-save segments", &[segment_count, fft_size])?;
    if count == 0 {
        return Ok(());
    }
    let input_range = samples("input", input, available, complex_input)?;
    let segments_range = validate::array::<Complex32>("segments", segments, count)?;
    validate::disjoint(("input", &input_range), ("segments", &segments_range))?;
    let on_cpu = || unsafe {
        cpu::fir_filter::overlap_save_gather(complex_input, input, available, segments, fft_size, step, length, count)
    };
    let variant = if complex_input { "complex64" } else { "float32" };
    launch::run(stream, OVERLAP_SAVE_GATHER_KERNELS.variant(variant), on_cpu, |kernel| {
        let sizes = [available, fft_size, step, length, count].map(|size| size as u64);
        unsafe {
            kernel.launch(
                count,
                &mut [
                    argument(&input),
                    argument(&sizes[0]),
                    argument(&segments),
                    argument(&sizes[1]),
                    argument(&sizes[2]),
                    argument(&sizes[3]),
                    argument(&sizes[4]),
                ],
            )
        }
    })
}

/// Overlap-save, step 2 (between the forward and the inverse transform): each of the
/// `segment_count` spectra of `fft_size` bins at `spectra`, in place, times the `fft_size` bins
/// at `response`.
///
/// # Safety
/// As [`fir_filter`], for the sizes above; `response` disjoint from `spectra`.
pub(crate) unsafe fn overlap_save_multiply(
    stream: &Stream,
    spectra: u64,
    response: u64,
    fft_size: usize,
    segment_count: usize,
) -> Result<()> {
    let count = validate::product("overlap-save spectra", &[segment_count, fft_size])?;
    if count == 0 {
        return Ok(());
    }
    let spectra_range = validate::array::<Complex32>("spectra", spectra, count)?;
    let response_range = validate::array::<Complex32>("response", response, fft_size)?;
    validate::disjoint(("spectra", &spectra_range), ("response", &response_range))?;
    let on_cpu = || unsafe { cpu::fir_filter::overlap_save_multiply(spectra, response, fft_size, count) };
    launch::run(stream, OVERLAP_SAVE_MULTIPLY_KERNELS.variant(""), on_cpu, |kernel| {
        let (fft_size, count_argument) = (fft_size as u64, count as u64);
        unsafe {
            kernel.launch(
                count,
                &mut [argument(&spectra), argument(&response), argument(&fft_size), argument(&count_argument)],
            )
        }
    })
}

/// Overlap-save, step 3: for `outputs` outputs, with `p = first + j * decimation`, `output[j]`
/// = item `offset + p mod step` of segment `p / step` (the real part for float output),
/// rotated by `rotation`.
///
/// # Safety
/// As [`fir_filter`]: `segments` holds every segment the outputs fall in, `output` `outputs`
/// samples, disjoint from the segments.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn overlap_save_extract(
    stream: &Stream,
    types: FirTypes,
    segments: u64,
    segment_count: usize,
    output: u64,
    outputs: usize,
    fft_size: usize,
    step: usize,
    offset: usize,
    first: usize,
    decimation: usize,
    rotation: Rotation,
) -> Result<()> {
    rotation.check(types)?;
    if outputs == 0 {
        return Ok(());
    }
    let last_position = validate::product("overlap-save positions", &[outputs - 1, decimation])?
        .checked_add(first)
        .ok_or_else(|| Error::invalid_argument("the overlap-save positions overflow"))?;
    if step == 0 || last_position / step >= segment_count || offset + step > fft_size {
        return Err(Error::invalid_argument(format!(
            "{outputs} outputs at decimation {decimation} do not fall in {segment_count} segments of {step} outputs"
        )));
    }
    let count = validate::product("overlap-save segments", &[segment_count, fft_size])?;
    let segments_range = validate::array::<Complex32>("segments", segments, count)?;
    let output_range = samples("output", output, outputs, types.complex_samples())?;
    validate::disjoint(("segments", &segments_range), ("output", &output_range))?;
    let on_cpu = || unsafe {
        cpu::fir_filter::overlap_save_extract(
            types, segments, output, outputs, fft_size, step, offset, first, decimation, rotation,
        )
    };
    launch::run(stream, OVERLAP_SAVE_EXTRACT_KERNELS.variant(types.sample_name()), on_cpu, |kernel| {
        let sizes = [outputs, fft_size, step, offset, first, decimation].map(|size| size as u64);
        unsafe {
            kernel.launch(
                outputs,
                &mut [
                    argument(&segments),
                    argument(&output),
                    argument(&sizes[0]),
                    argument(&sizes[1]),
                    argument(&sizes[2]),
                    argument(&sizes[3]),
                    argument(&sizes[4]),
                    argument(&sizes[5]),
                    argument(&rotation),
                ],
            )
        }
    })
}

/// Where the segments of one [`overlap_save_segments`] call lie, and which of their outputs
/// it writes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentLayout {
    /// The transform length.
    pub fft_size: usize,
    /// Full-rate output positions per segment: segment s starts at input item s * step.
    pub step: usize,
    /// The input items a segment reads (zeros beyond them and past the available input).
    pub length: usize,
    /// Where a segment's valid outputs start in its inverse transform (the taps minus one).
    pub offset: usize,
    /// The full-rate position of the call's first output, from the first segment's start.
    pub first: usize,
    /// Full-rate positions between outputs.
    pub decimation: usize,
    /// The segments of the call.
    pub segment_count: usize,
}

/// Overlap-save in one launch, for FFT sizes the shared-memory FFT transforms
/// ([`overlap_save_segments_supported`]): the segments [`overlap_save_gather`] gathers,
/// transformed, multiplied by `response` (the taps' spectrum over the FFT size) and
/// transformed back in shared memory, their outputs written as [`overlap_save_extract`]
/// writes them. `twiddles` holds the shared-memory FFT's table for the FFT size
/// ([`overlap_save_segments_twiddles`]). Float samples pack two segments into one transform,
/// so a call must start on an even segment of the stream for its output not to depend on how
/// the stream is split into calls (the caller's alignment).
///
/// # Safety
/// As [`overlap_save_gather`] and [`overlap_save_extract`]; `response` holds the FFT size's
/// and `twiddles` the table's complex64 items of device memory, neither written meanwhile.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn overlap_save_segments(
    stream: &Stream,
    types: FirTypes,
    input: u64,
    available: usize,
    response: u64,
    twiddles: u64,
    output: u64,
    outputs: usize,
    layout: SegmentLayout,
    rotation: Rotation,
) -> Result<()> {
    rotation.check(types)?;
    if outputs == 0 {
        return Ok(());
    }
    let SegmentLayout { fft_size, step, length, offset, first, decimation, segment_count } = layout;
    if !overlap_save_segments_supported(fft_size) || length > fft_size {
        return Err(Error::invalid_argument(format!(
            "overlap-save in one kernel needs a power-of-two FFT size from {} to {} holding the segment's {length} \
             input items, got {fft_size}",
            shared_fft::SHARED_FFT_LENGTHS.start(),
            shared_fft::SHARED_FFT_LENGTHS.end()
        )));
    }
    let last_position = validate::product("overlap-save positions", &[outputs - 1, decimation])?
        .checked_add(first)
        .ok_or_else(|| Error::invalid_argument("the overlap-save positions overflow"))?;
    if step == 0 || decimation == 0 || last_position / step >= segment_count || offset + step > fft_size {
        return Err(Error::invalid_argument(format!(
            "{outputs} outputs at decimation {decimation} do not fall in {segment_count} segments of {step} outputs"
        )));
    }
    let complex = types.complex_samples();
    let input_range = samples("input", input, available.max(1), complex)?;
    let output_range = samples("output", output, outputs, complex)?;
    let response_range = validate::array::<Complex32>("response", response, fft_size)?;
    let twiddle_range = validate::array::<Complex32>("twiddles", twiddles, shared_fft::twiddle_count(fft_size))?;
    for (read, read_range) in [("input", &input_range), ("response", &response_range), ("twiddles", &twiddle_range)] {
        validate::disjoint((read, read_range), ("output", &output_range))?;
    }
    let on_cpu = || unsafe { segments_on_cpu(types, input, available, response, output, outputs, layout, rotation) };
    let segments_per_sequence = if complex { 1 } else { 2 };
    let sequences = segment_count.div_ceil(segments_per_sequence);
    let kernels = program::for_samples(&OVERLAP_SAVE_SEGMENTS_KERNELS, types.sample_name());
    launch::run(stream, kernels.variant(shared_fft::length_name(fft_size)), on_cpu, |kernel| {
        let (threads, per_block) = shared_fft::block_shape(fft_size, SEGMENTS_THREADS);
        let sizes = [available, outputs, step, length, offset, first, decimation, sequences].map(|size| size as u64);
        unsafe {
            kernel.launch_tiles(
                sequences.div_ceil(per_block),
                threads,
                shared_fft::shared_bytes(per_block, fft_size),
                &mut [
                    argument(&input),
                    argument(&sizes[0]),
                    argument(&response),
                    argument(&twiddles),
                    argument(&output),
                    argument(&sizes[1]),
                    argument(&sizes[2]),
                    argument(&sizes[3]),
                    argument(&sizes[4]),
                    argument(&sizes[5]),
                    argument(&sizes[6]),
                    argument(&rotation),
                    argument(&sizes[7]),
                ],
            )
        }
    })
}

/// The smallest block of [`overlap_save_segments`]: two warps, several short sequences each.
const SEGMENTS_THREADS: usize = 64;

/// The longest segments [`overlap_save_segments`] transforms.
pub(crate) const OVERLAP_SAVE_SEGMENTS_LONGEST: usize = *shared_fft::SHARED_FFT_LENGTHS.end();

/// Whether [`overlap_save_segments`] transforms segments of `fft_size` (powers of two).
pub(crate) fn overlap_save_segments_supported(fft_size: usize) -> bool {
    fft_size.is_power_of_two() && shared_fft::SHARED_FFT_LENGTHS.contains(&fft_size)
}

/// The twiddle table [`overlap_save_segments`] reads for `fft_size`, for device memory.
pub(crate) fn overlap_save_segments_twiddles(fft_size: usize) -> Vec<Complex32> {
    shared_fft::twiddles(fft_size).collect()
}

/// The simulated backend's [`overlap_save_segments`]: the gather, rustfft, the multiply,
/// rustfft's inverse and the extraction, through segments of its own, one by one.
///
/// # Safety
/// As for [`overlap_save_segments`], on host memory, with the arguments checked.
#[allow(clippy::too_many_arguments)]
unsafe fn segments_on_cpu(
    types: FirTypes,
    input: u64,
    available: usize,
    response: u64,
    output: u64,
    outputs: usize,
    layout: SegmentLayout,
    rotation: Rotation,
) {
    let SegmentLayout { fft_size, step, length, offset, first, decimation, segment_count } = layout;
    let mut segments = vec![Complex32::default(); segment_count * fft_size];
    let address = segments.as_mut_ptr() as u64;
    let count = segments.len();
    let complex = types.complex_samples();
    let mut planner = rustfft::FftPlanner::new();
    unsafe { cpu::fir_filter::overlap_save_gather(complex, input, available, address, fft_size, step, length, count) };
    planner.plan_fft_forward(fft_size).process(&mut segments);
    unsafe { cpu::fir_filter::overlap_save_multiply(address, response, fft_size, count) };
    planner.plan_fft_inverse(fft_size).process(&mut segments);
    unsafe {
        cpu::fir_filter::overlap_save_extract(
            types, address, output, outputs, fft_size, step, offset, first, decimation, rotation,
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_hold_the_taps_and_one_phase_of_padded_input() {
        // 31 taps: blocks of 8 rounded up to four; 1024 + 32 items, a vector of padding
        // after every 8.
        assert_eq!(tile_shared_bytes(FirTypes::Ccf, 31, 1), Some(32 * 4 + (1056 + 132 * 2) * 8));
        assert_eq!(tile_shared_bytes(FirTypes::Fff, 31, 1), Some(32 * 4 + (1056 + 132 * 4) * 4));
        // Decimation 8: eight phases of 256 taps, and the input of one phase.
        assert_eq!(tile_shared_bytes(FirTypes::Fff, 2048, 8), Some(8 * 256 * 4 + (1280 + 160 * 4) * 4));
        assert_eq!(tile_shared_bytes(FirTypes::Ccc, 100, 3), Some(3 * 40 * 8 + (1064 + 133 * 2) * 8));
        // Where the taps outgrow shared memory, the kernel that reads device memory runs.
        assert_eq!(tile_shared_bytes(FirTypes::Ccc, 7000, 1), None);
        assert_eq!(tile_shared_bytes(FirTypes::Fff, usize::MAX, 1), None);
    }

    #[test]
    fn rows_hold_the_taps_and_the_tiles_input_at_an_odd_pitch() {
        let tile =
            |outputs_per_thread, threads, shared_bytes| Some(RowsTile { outputs_per_thread, threads, shared_bytes });
        // 64 complex taps at decimation 16: 16 phases of 4 taps, then for 3 outputs per
        // thread 3 * 64 - 1 + 4 rows of 17 items (128 threads would need 52 632 bytes).
        assert_eq!(rows_tile(FirTypes::Ccc, 64, 16, Slots::FIR_FILTER), tile(3, 64, 16 * 4 * 8 + 195 * 17 * 8));
        // Float taps for complex samples: the taps rounded up to 16 bytes. 5 taps at
        // decimation 8: 5 phases of 1 tap (20 bytes, 32 with the rounding), 384 rows of 9.
        assert_eq!(rows_tile(FirTypes::Ccf, 5, 8, Slots::FIR_FILTER), tile(3, 128, 32 + 384 * 9 * 8));
        // Float samples at decimation 4 take 5 outputs per thread, whatever the taps per phase.
        assert_eq!(rows_tile(FirTypes::Fff, 64, 4, Slots::FIR_FILTER), tile(5, 256, 4 * 16 * 4 + 1295 * 5 * 4));
        assert_eq!(rows_tile(FirTypes::Fff, 512, 16, Slots::FIR_FILTER), tile(5, 128, 16 * 32 * 4 + 671 * 17 * 4));
        // Float from decimation 17 to 32: 3 outputs per thread.
        assert_eq!(rows_tile(FirTypes::Fff, 40, 20, Slots::FIR_FILTER), tile(3, 128, 20 * 2 * 4 + 385 * 21 * 4));
        // Where 5 outputs per thread do not fit 32 threads, 3 do: 300 taps a phase.
        assert_eq!(rows_tile(FirTypes::Fff, 4800, 16, Slots::FIR_FILTER), tile(3, 32, 16 * 300 * 4 + 395 * 17 * 4));
        // Complex samples above decimation 16: one output per thread. Decimation 64, 256
        // taps: 256 outputs would need 259 rows of 65 complex items; 64 fit.
        assert_eq!(rows_tile(FirTypes::Ccc, 256, 64, Slots::FIR_FILTER), tile(1, 64, 64 * 4 * 8 + 67 * 65 * 8));
        // Long phases at 3 outputs per thread: 1024 taps at decimation 16.
        assert_eq!(rows_tile(FirTypes::Ccc, 1024, 16, Slots::FIR_FILTER), tile(3, 64, 16 * 64 * 8 + 255 * 17 * 8));
        // Decimations where the tiles are faster, phases too long for one output per thread,
        // several slots, and rows that do not fit 32 outputs.
        assert_eq!(rows_tile(FirTypes::Ccc, 64, 2, Slots::FIR_FILTER), None);
        assert_eq!(rows_tile(FirTypes::Fff, 64, 3, Slots::FIR_FILTER), None);
        assert_eq!(rows_tile(FirTypes::Ccc, 33 * 17, 17, Slots::FIR_FILTER), None);
        assert_eq!(rows_tile(FirTypes::Fff, 17 * 33, 33, Slots::FIR_FILTER), None);
        // A resampler's three slots: three slots' taps, and one more row.
        assert_eq!(
            rows_tile(FirTypes::Ccc, 64, 16, Slots::rational_resampler(3, 2)),
            tile(3, 64, 3 * 16 * 4 * 8 + 196 * 17 * 8)
        );
        assert_eq!(rows_tile(FirTypes::Ccc, 64, 16, Slots::rational_resampler(MOST_ROWS_SLOTS + 1, 0)), None);
        assert_eq!(rows_tile(FirTypes::Ccc, 64, 3, Slots::rational_resampler(3, 0)), None);
        // Several slots of float samples: the tiles below decimation 7.
        assert_eq!(rows_tile(FirTypes::Fff, 42 * 5, 5, Slots::rational_resampler(4, 0)), None);
        assert_eq!(
            rows_tile(FirTypes::Ccf, 42 * 5, 5, Slots::rational_resampler(4, 0)).map(|tile| tile.outputs_per_thread),
            Some(3)
        );
        assert_eq!(
            rows_tile(FirTypes::Fff, 115 * 7, 7, Slots::rational_resampler(2, 0)).map(|tile| tile.outputs_per_thread),
            Some(5)
        );
        assert_eq!(rows_tile(FirTypes::Ccc, 4000, 200, Slots::FIR_FILTER), None);
        assert_eq!(rows_tile(FirTypes::Ccc, 12_800, 8, Slots::FIR_FILTER), None);
        // Every tile fits one block's shared memory.
        for types in [FirTypes::Ccc, FirTypes::Ccf, FirTypes::Fff] {
            for decimation in 1..400 {
                for tap_count in [1, 2, 15, 16, 17, 31, 32, 33, 64, 100, 512, 1024, 4096, 12_800] {
                    for slots in [Slots::FIR_FILTER, Slots::rational_resampler(MOST_ROWS_SLOTS, 1)] {
                        if let Some(tile) = rows_tile(types, tap_count, decimation, slots) {
                            // Five outputs per thread have float kernels only.
                            assert!([1, 3, 5].contains(&tile.outputs_per_thread));
                            assert!(tile.outputs_per_thread < 5 || !types.complex_samples());
                            assert!([32, 64, 128, 256].contains(&tile.threads));
                            assert!(tile.shared_bytes as usize <= launch::SHARED_BYTES_PER_BLOCK);
                        }
                    }
                }
            }
        }
    }
}
