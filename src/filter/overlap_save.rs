// SPDX-License-Identifier: GPL-3.0-or-later

//! Overlap-save convolution through cuFFT (rustfft on the simulated backend).
//!
//! The full-rate output is cut into segments of `step` positions, aligned to the stream's
//! position 0. A segment's FFT input is the `step - decimation + tap_count` input items its
//! kept outputs read, then zeros up to `fft_size`; after the forward transform, the product with the taps'
//! spectrum and the inverse transform, its items `tap_count - 1 ..` are the segment's outputs.
//! `step` is a multiple of the decimation, so every segment starts on an output that
//! decimation keeps, and a call starting inside a segment recomputes it from its start, which
//! the history covers. A complete segment thus transforms the same values in whatever call it
//! is computed; an incomplete one (the input ends inside it) has zeros for the input to come,
//! and is computed only when the filter may write every output.
//!
//! Each call transforms a power-of-two batch of segments (the plans keep one cuFFT handle per
//! batch) in one scratch array, in place: gather, forward FFT, multiply, inverse FFT, then
//! the extraction of the decimated, optionally rotated outputs.

use super::{FirTaps, upload};
use crate::error::{Error, Result};
use crate::fft::{FftKind, FftPlan};
use crate::kernels::fir_filter::{overlap_save_extract, overlap_save_gather, overlap_save_multiply};
use crate::kernels::{Complex32, FirTypes, Rotation};
use crate::memory::DeviceAllocation;
use crate::stream::Stream;
use std::sync::Arc;

/// The smallest transform: shorter ones would spend more on the segments' overlap than they
/// save per transform.
const SMALLEST_FFT_SIZE: usize = 8192;

/// The most segment items one call transforms (32 MiB of scratch space).
const MOST_SEGMENT_ITEMS: usize = 1 << 22;

pub(super) struct OverlapSave {
    types: FirTypes,
    decimation: usize,
    tap_count: usize,
    fft_size: usize,
    /// Full-rate output positions per segment: a multiple of the decimation.
    step: usize,
    /// `fft_size` bins: the spectrum of the zero-padded taps, divided by `fft_size` so that the
    /// unnormalised inverse transform gives the convolution.
    response: DeviceAllocation,
    forward: FftPlan,
    inverse: FftPlan,
    /// Space for `scratch_segments` segments.
    scratch: Option<DeviceAllocation>,
    scratch_segments: usize,
    /// Whether only complete segments are computed.
    whole_segments: bool,
}

impl OverlapSave {
    pub(super) fn new(
        stream: &Arc<Stream>,
        types: FirTypes,
        decimation: usize,
        taps: FirTaps,
        whole_segments: bool,
    ) -> Result<OverlapSave> {
        let tap_count = taps.len();
        let too_long = || Error::invalid_argument(format!("{tap_count} taps are too many for an FFT filter"));
        let shortest =
            tap_count.checked_add(decimation).and_then(usize::checked_next_power_of_two).ok_or_else(too_long)?;
        let fft_size = tap_count
            .checked_next_power_of_two()
            .and_then(|power| power.checked_mul(2))
            .ok_or_else(too_long)?
            .max(shortest)
            .max(SMALLEST_FFT_SIZE);
        let step = (fft_size - tap_count + 1) / decimation * decimation;
        let scale = 1.0 / fft_size as f32;
        let padded = |index: usize| -> Complex32 {
            let tap = match taps {
                FirTaps::Float(taps) => taps.get(index).map(|&tap| Complex32::new(tap, 0.0)),
                FirTaps::Complex(taps) => taps.get(index).copied(),
            };
            tap.unwrap_or_default() * scale
        };
        let response = upload(stream, (0..fft_size).map(padded))?;
        let mut forward = FftPlan::new(stream, FftKind::Forward, fft_size)?;
        unsafe { forward.execute(1, response.address(), response.address())? };
        let inverse = FftPlan::new(stream, FftKind::Inverse, fft_size)?;
        Ok(OverlapSave {
            types,
            decimation,
            tap_count,
            fft_size,
            step,
            response,
            forward,
            inverse,
            scratch: None,
            scratch_segments: 0,
            whole_segments,
        })
    }

    pub(super) fn history(&self) -> usize {
        self.tap_count + self.step - self.decimation
    }

    pub(super) fn whole_segments(&self) -> bool {
        self.whole_segments
    }

    pub(super) fn outputs_per_segment(&self) -> usize {
        self.step / self.decimation
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
        let (step, decimation) = (self.step, self.decimation);
        let overflow =
            || Error::invalid_argument(format!("{outputs} outputs from stream position {position} overflow"));
        let full_rate_position = position.checked_mul(decimation as u64).ok_or_else(overflow)?;
        // Where the call's first output lies in its segment (a multiple of the decimation).
        let first = (full_rate_position % step as u64) as usize;
        let last =
            (outputs - 1).checked_mul(decimation).and_then(|span| span.checked_add(first)).ok_or_else(overflow)?;
        // The first segment's first input item, counted from the history's start, and the
        // input items from there on.
        let segment_start = self.history() - self.tap_count - first;
        let available = last - first + self.history() - segment_start;
        // What the segment's kept outputs read: from its first position to its last multiple
        // of the decimation.
        let length = step - decimation + self.tap_count;
        let mut needed = last / step + 1;
        if self.whole_segments {
            let complete = if available >= length { (available - length) / step + 1 } else { 0 };
            needed = needed.min(complete);
            if needed == 0 {
                return Ok(0);
            }
        }
        let most = MOST_SEGMENT_ITEMS / self.fft_size;
        let batch = largest_power_of_two_at_most(needed).min(most.max(1));
        let produced = outputs.min((batch * step - first) / decimation);
        self.reserve(stream, batch)?;
        let scratch = self.scratch.as_ref().expect("reserve made the scratch space").address();

        let sample_bytes = if self.types.complex_samples() { size_of::<Complex32>() } else { size_of::<f32>() };
        let segment_input = input.checked_add((segment_start * sample_bytes) as u64).ok_or_else(overflow)?;
        unsafe {
            overlap_save_gather(
                stream,
                self.types.complex_samples(),
                segment_input,
                available,
                scratch,
                self.fft_size,
                step,
                length,
                batch,
            )?;
            self.forward.execute(batch, scratch, scratch)?;
            overlap_save_multiply(stream, scratch, self.response.address(), self.fft_size, batch)?;
            self.inverse.execute(batch, scratch, scratch)?;
            overlap_save_extract(
                stream,
                self.types,
                scratch,
                batch,
                output,
                produced,
                self.fft_size,
                step,
                self.tap_count - 1,
                first,
                decimation,
                rotation,
            )?;
        }
        Ok(produced)
    }

    /// Makes the scratch space hold `segments` segments, waiting for the queued work that
    /// uses the old space before freeing it.
    fn reserve(&mut self, stream: &Stream, segments: usize) -> Result<()> {
        if segments <= self.scratch_segments {
            return Ok(());
        }
        stream.synchronize()?;
        self.scratch = None;
        self.scratch_segments = 0;
        let bytes = segments * self.fft_size * size_of::<Complex32>();
        self.scratch = Some(DeviceAllocation::new(stream.device(), bytes)?);
        self.scratch_segments = segments;
        Ok(())
    }
}

fn largest_power_of_two_at_most(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}
