// SPDX-License-Identifier: GPL-3.0-or-later

//! Overlap-save convolution: in one kernel with shared-memory FFTs where the segments' FFT
//! size allows (up to 4096 points), through cuFFT beyond (rustfft on the simulated backend).
//!
//! The full-rate output is cut into segments of `step` positions, aligned to the stream's
//! position 0. A segment's FFT input is the `step - decimation + tap_count` input items its
//! kept outputs read, then zeros up to `fft_size`; after the forward transform, the product with
//! the taps' spectrum and the inverse transform, its items `tap_count - 1 ..` are the segment's
//! outputs. `step` is a multiple of the decimation, so every segment starts on an output that
//! decimation keeps. The one-kernel form packs two segments of float samples into one complex
//! transform (real taps keep them apart), and such a pair must always be transformed together
//! for the output not to depend on the calls: so the unit the filter aligns, completes and
//! recomputes is the *span* of the segments one transform holds (one segment, or a pair). A
//! call starting inside a span recomputes it from its start, which the history covers. A
//! complete span thus transforms the same values in whatever call it is computed; an
//! incomplete one (the input ends inside it) has zeros for the input to come, and is computed
//! only when the filter may write every output.
//!
//! The cuFFT form transforms a power-of-two batch of segments per call (the plans keep one
//! cuFFT handle per batch) in one scratch array, in place: gather, forward FFT, multiply,
//! inverse FFT, then the extraction of the decimated, optionally rotated outputs.

use super::{FirTaps, upload};
use crate::error::{Error, Result};
use crate::fft::{FftKind, FftPlan};
use crate::kernels::fir_filter::{
    OVERLAP_SAVE_SEGMENTS_LONGEST, SegmentLayout, overlap_save_extract, overlap_save_gather, overlap_save_multiply,
    overlap_save_segments, overlap_save_segments_supported, overlap_save_segments_twiddles,
};
use crate::kernels::{Complex32, FirTypes, Rotation};
use crate::memory::DeviceAllocation;
use crate::stream::Stream;
use std::sync::Arc;

/// The one-kernel form's FFT size: four times the taps (a quarter of each transform spent on
/// the overlap), within the sizes the shared-memory FFT takes, and from 256 points on (shorter
/// transforms gain nothing on the GPU).
const SHARED_SMALLEST_FFT_SIZE: usize = 256;

/// The cuFFT form's smallest transform: shorter ones would spend more on the segments'
/// overlap than they save per transform.
const CUFFT_SMALLEST_FFT_SIZE: usize = 8192;

/// The most segment items one call of the cuFFT form transforms (32 MiB of scratch space).
const MOST_SEGMENT_ITEMS: usize = 1 << 22;

/// How the segments are transformed.
enum Transforms {
    /// One kernel per call; the shared-memory FFT's twiddle table.
    SharedMemory {
        twiddles: DeviceAllocation,
    },
    Cufft(CufftTransforms),
}

/// cuFFT plans, and scratch space for `scratch_segments` segments.
struct CufftTransforms {
    forward: FftPlan,
    inverse: FftPlan,
    scratch: Option<DeviceAllocation>,
    scratch_segments: usize,
}

impl CufftTransforms {
    /// The scratch space for `segments` segments of `fft_size` items, grown where it is
    /// smaller, after the queued work that uses the old space.
    fn reserve(&mut self, stream: &Stream, segments: usize, fft_size: usize) -> Result<u64> {
        if segments > self.scratch_segments {
            stream.synchronize()?;
            self.scratch = None;
            self.scratch_segments = 0;
            let bytes = segments * fft_size * size_of::<Complex32>();
            self.scratch = Some(DeviceAllocation::new(stream.device(), bytes)?);
            self.scratch_segments = segments;
        }
        Ok(self.scratch.as_ref().expect("the scratch space was made above").address())
    }
}

pub(super) struct OverlapSave {
    types: FirTypes,
    decimation: usize,
    tap_count: usize,
    fft_size: usize,
    /// Full-rate output positions per segment: a multiple of the decimation.
    step: usize,
    /// Segments per transform: 2 for float samples in the one-kernel form, else 1.
    segments_per_transform: usize,
    /// `fft_size` bins: the spectrum of the zero-padded taps, divided by `fft_size` so that the
    /// unnormalised inverse transform gives the convolution.
    response: DeviceAllocation,
    transforms: Transforms,
    /// Whether only complete spans are computed.
    whole_segments: bool,
}

/// The longest transform: its response takes 64 MiB of host memory while it is computed.
const LARGEST_FFT_SIZE: usize = 1 << 22;

/// The transforms of `tap_count` taps at `decimation`.
struct TransformSize {
    fft_size: usize,
    /// Full-rate output positions per segment.
    step: usize,
    /// Whether the one-kernel form (shared-memory FFTs) takes them.
    shared: bool,
}

/// The transforms for `tap_count` taps at `decimation`. InvalidArgument beyond
/// [`LARGEST_FFT_SIZE`].
fn transform_size(tap_count: usize, decimation: usize) -> Result<TransformSize> {
    let too_long = || Error::invalid_argument(format!("{tap_count} taps are too many for an FFT filter"));
    let shortest = tap_count.checked_add(decimation).and_then(usize::checked_next_power_of_two).ok_or_else(too_long)?;
    let step_of = |fft_size: usize| (fft_size - tap_count + 1) / decimation * decimation;
    let shared_size = tap_count
        .checked_mul(4)
        .and_then(usize::checked_next_power_of_two)
        .ok_or_else(too_long)?
        .clamp(SHARED_SMALLEST_FFT_SIZE, OVERLAP_SAVE_SEGMENTS_LONGEST)
        .max(shortest);
    // Where at least half of each shared-memory transform is output, one kernel beats five
    // passes around cuFFT.
    let shared = overlap_save_segments_supported(shared_size) && step_of(shared_size) >= shared_size / 2;
    let fft_size = if shared {
        shared_size
    } else {
        tap_count
            .checked_next_power_of_two()
            .and_then(|power| power.checked_mul(2))
            .ok_or_else(too_long)?
            .max(shortest)
            .max(CUFFT_SMALLEST_FFT_SIZE)
    };
    if fft_size > LARGEST_FFT_SIZE {
        return Err(Error::invalid_argument(format!(
            "overlap-save would need {fft_size}-point FFTs for {tap_count} taps at decimation {decimation}, \
             more than the {LARGEST_FFT_SIZE} points it takes: use the direct method"
        )));
    }
    Ok(TransformSize { fft_size, step: step_of(fft_size), shared })
}

impl OverlapSave {
    /// Whether overlap-save takes `tap_count` taps at `decimation` (its FFTs are not too long).
    pub(super) fn takes(tap_count: usize, decimation: usize) -> bool {
        transform_size(tap_count, decimation).is_ok()
    }

    pub(super) fn new(
        stream: &Arc<Stream>,
        types: FirTypes,
        decimation: usize,
        taps: FirTaps,
        whole_segments: bool,
    ) -> Result<OverlapSave> {
        let tap_count = taps.len();
        let TransformSize { fft_size, step, shared } = transform_size(tap_count, decimation)?;
        let response = upload(stream, response(taps, fft_size).into_iter())?;
        let transforms = if shared {
            Transforms::SharedMemory { twiddles: upload(stream, overlap_save_segments_twiddles(fft_size).into_iter())? }
        } else {
            Transforms::Cufft(CufftTransforms {
                forward: FftPlan::new(stream, FftKind::Forward, fft_size)?,
                inverse: FftPlan::new(stream, FftKind::Inverse, fft_size)?,
                scratch: None,
                scratch_segments: 0,
            })
        };
        let segments_per_transform = if shared && !types.complex_samples() { 2 } else { 1 };
        Ok(OverlapSave {
            types,
            decimation,
            tap_count,
            fft_size,
            step,
            segments_per_transform,
            response,
            transforms,
            whole_segments,
        })
    }

    /// Full-rate output positions per span (the segments of one transform).
    fn span(&self) -> usize {
        self.step * self.segments_per_transform
    }

    pub(super) fn history(&self) -> usize {
        self.tap_count + self.span() - self.decimation
    }

    pub(super) fn whole_segments(&self) -> bool {
        self.whole_segments
    }

    pub(super) fn fft_size(&self) -> usize {
        self.fft_size
    }

    /// Outputs per span: a whole-segments filter writes multiples of it.
    pub(super) fn outputs_per_span(&self) -> usize {
        self.span() / self.decimation
    }

    /// As [`super::FirFilter::execute`].
    pub(super) unsafe fn execute(
        &mut self,
        stream: &Stream,
        input: u64,
        output: u64,
        outputs: usize,
        position: u64,
        rotation: Rotation,
    ) -> Result<usize> {
        if outputs == 0 {
            return Ok(0);
        }
        let (span, decimation) = (self.span(), self.decimation);
        let overflow =
            || Error::invalid_argument(format!("{outputs} outputs from stream position {position} overflow"));
        let full_rate_position = position.checked_mul(decimation as u64).ok_or_else(overflow)?;
        // Where the call's first output lies in its span (a multiple of the decimation).
        let first = (full_rate_position % span as u64) as usize;
        let last =
            (outputs - 1).checked_mul(decimation).and_then(|span| span.checked_add(first)).ok_or_else(overflow)?;
        // The first span's first input item, counted from the history's start, and the input
        // items from there on.
        let span_start = self.history() - self.tap_count - first;
        let available = last - first + self.history() - span_start;
        // What a span's kept outputs read: from its first position to its last multiple of the
        // decimation.
        let span_length = span - decimation + self.tap_count;
        let mut spans = last / span + 1;
        if self.whole_segments {
            let complete = if available >= span_length { (available - span_length) / span + 1 } else { 0 };
            spans = spans.min(complete);
            if spans == 0 {
                return Ok(0);
            }
        }
        let sample_bytes = self.types.sample_bytes();
        let span_input = input.checked_add((span_start * sample_bytes) as u64).ok_or_else(overflow)?;
        let (step, fft_size, offset) = (self.step, self.fft_size, self.tap_count - 1);
        // What one segment's kept outputs read.
        let length = step - decimation + self.tap_count;
        match &mut self.transforms {
            Transforms::SharedMemory { twiddles } => {
                let produced = outputs.min((spans * span - first) / decimation);
                unsafe {
                    overlap_save_segments(
                        stream,
                        self.types,
                        span_input,
                        available,
                        self.response.address(),
                        twiddles.address(),
                        output,
                        produced,
                        SegmentLayout {
                            fft_size,
                            step,
                            length,
                            offset,
                            first,
                            decimation,
                            segment_count: spans * self.segments_per_transform,
                        },
                        rotation,
                    )?
                };
                Ok(produced)
            }
            Transforms::Cufft(cufft) => {
                let most = MOST_SEGMENT_ITEMS / fft_size;
                let batch = largest_power_of_two_at_most(spans).min(most.max(1));
                let produced = outputs.min((batch * step - first) / decimation);
                let scratch = cufft.reserve(stream, batch, fft_size)?;
                unsafe {
                    overlap_save_gather(
                        stream,
                        self.types.complex_samples(),
                        span_input,
                        available,
                        scratch,
                        fft_size,
                        step,
                        length,
                        batch,
                    )?;
                    cufft.forward.execute(batch, scratch, scratch)?;
                    overlap_save_multiply(stream, scratch, self.response.address(), fft_size, batch)?;
                    cufft.inverse.execute(batch, scratch, scratch)?;
                    overlap_save_extract(
                        stream, self.types, scratch, batch, output, produced, fft_size, step, offset, first,
                        decimation, rotation,
                    )?;
                }
                Ok(produced)
            }
        }
    }
}

/// The spectrum of the taps zero-padded to `fft_size`, divided by `fft_size`, computed in
/// double precision and rounded to complex64.
fn response(taps: FirTaps, fft_size: usize) -> Vec<Complex32> {
    let mut padded = vec![num_complex::Complex::<f64>::default(); fft_size];
    match taps {
        FirTaps::Float(taps) => {
            padded.iter_mut().zip(taps).for_each(|(value, &tap)| value.re = f64::from(tap));
        }
        FirTaps::Complex(taps) => {
            padded
                .iter_mut()
                .zip(taps)
                .for_each(|(value, tap)| *value = num_complex::Complex::new(f64::from(tap.re), f64::from(tap.im)));
        }
    }
    rustfft::FftPlanner::new().plan_fft_forward(fft_size).process(&mut padded);
    let scale = 1.0 / fft_size as f64;
    padded.iter().map(|bin| Complex32::new((bin.re * scale) as f32, (bin.im * scale) as f32)).collect()
}

fn largest_power_of_two_at_most(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}
