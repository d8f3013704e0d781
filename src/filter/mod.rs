// SPDX-License-Identifier: GPL-3.0-or-later

//! FIR filtering on a block's stream: the taps in device memory, and the choice between the
//! direct form and overlap-save convolution (shared-memory FFTs, or cuFFT for long filters).
//!
//! A [`FirFilter`] computes exactly what GNU Radio's fir_filter_xxx computes (see
//! [`crate::kernels::fir_filter`]), whichever method it uses, and its output does not depend
//! on how the stream is split into calls: the direct form has no state, and overlap-save
//! aligns its segments to the absolute stream position the caller passes, so every output
//! comes from the same segment, transformed the same way, whatever the call boundaries. That
//! costs a longer history ([`FirFilter::history`]): a call may start in the middle of a
//! segment, and recomputes the segment from its start.
//!
//! Invariants: a filter belongs to one thread at a time (`&mut self`) and enqueues only on its
//! own stream, so its taps, spectrum, scratch space and FFT plans are used in stream order
//! without locks or events. Whatever replaces or frees device memory that queued work may
//! still read (new taps, a larger scratch array, drop) waits for the stream first; that
//! happens when taps change and while the scratch space grows, never in the steady state.

mod overlap_save;

use crate::error::{Error, Result};
use crate::kernels::{self, Complex32, FirTypes, Rotation, validate};
use crate::memory::{DeviceAllocation, PinnedAllocation};
use crate::stream::Stream;
use overlap_save::OverlapSave;
use std::sync::Arc;

/// How a filter convolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirMethod {
    /// The direct form up to [`FirFilter::direct_tap_limit`] taps (which depends on the types
    /// and the decimation), overlap-save beyond.
    Automatic,
    /// One dot product per output.
    Direct,
    /// Overlap-save, writing every output it is asked for: a call that ends inside a segment
    /// transforms the segment with zeros for the input still to come, so its last outputs
    /// round differently (by about 1e-7 of the signal) from the same outputs computed from the
    /// complete segment in a split of the stream that ends elsewhere.
    Fft,
    /// Overlap-save on complete segments only, as GNU Radio's fft_filter_xxx filters (which
    /// asks for outputs in multiples of its segment): the output is the same bit for bit
    /// however the stream is split; outputs of a segment whose input has not all arrived wait
    /// for the next call ([`FirFilter::output_multiple`] outputs per segment).
    FftWholeSegments,
}

/// A filter's taps, as the host passes them: float for ccf and fff filters, complex for ccc.
#[derive(Clone, Copy, Debug)]
pub enum FirTaps<'a> {
    Float(&'a [f32]),
    Complex(&'a [Complex32]),
}

impl FirTaps<'_> {
    fn len(&self) -> usize {
        match self {
            FirTaps::Float(taps) => taps.len(),
            FirTaps::Complex(taps) => taps.len(),
        }
    }
}

/// The method in use and its device state.
enum Convolution {
    /// The taps, last first.
    Direct {
        reversed_taps: DeviceAllocation,
    },
    OverlapSave(Box<OverlapSave>),
}

/// A decimating FIR filter of fixed types and decimation on one stream.
pub struct FirFilter {
    // Declared before the stream, so their device memory and plans go first.
    convolution: Convolution,
    stream: Arc<Stream>,
    types: FirTypes,
    method: FirMethod,
    decimation: usize,
    tap_count: usize,
}

impl FirFilter {
    /// The most taps for which [`FirMethod::Automatic`] uses the direct form, by types and
    /// decimation; beyond it overlap-save. Measured at 2^22 outputs per call
    /// (docs/PERFORMANCE.md, "GPU filters"; decimations 1, 2 and 4 on an H200, 8, 16 and 64
    /// on an H100, the same GH100 chip): the direct form stays until overlap-save is 1.5
    /// times as fast, because its output is the same bit for bit however the stream is split
    /// into calls (overlap-save's only to within rounding, [`FirMethod::Fft`]) and it needs no
    /// longer history. Overlap-save's cost per output grows with the decimation (it
    /// transforms every input), the direct form's with the taps per phase, so the limit grows
    /// with the decimation; at 8 and 16 for float samples it is set where the rows kernel
    /// hands over to the phase-by-phase tiles (16 taps per phase), which overlap-save beats
    /// by more than 1.5 times there. Decimations between the measured ones take the limit of
    /// the measured one below (32 to 63 that of 16, conservative: from 16 to 32 overlap-save's
    /// rate halves while the direct form's only gains). The simulated backend follows the
    /// same choice.
    pub fn direct_tap_limit(types: FirTypes, decimation: usize) -> usize {
        let measured = match decimation {
            0 | 1 => 0,
            2 | 3 => 1,
            4..=7 => 2,
            8..=15 => 3,
            16..=63 => 4,
            _ => 5,
        };
        let limits: [usize; 6] = match types {
            FirTypes::Ccc => [48, 192, 384, 256, 512, 768],
            FirTypes::Ccf => [128, 256, 512, 256, 512, 768],
            FirTypes::Fff => [128, 256, 512, 512, 256, 768],
        };
        limits[measured]
    }

    /// A filter with `taps` (of the kind `types` takes) and `decimation` on `stream`. No taps,
    /// taps of the wrong kind, a decimation of 0 or non-finite taps are InvalidArgument.
    pub fn new(
        stream: &Arc<Stream>,
        types: FirTypes,
        decimation: usize,
        method: FirMethod,
        taps: FirTaps,
    ) -> Result<FirFilter> {
        if decimation == 0 {
            return Err(Error::invalid_argument("decimation is 0: pass 1 for no decimation, or more"));
        }
        let convolution = Self::convolution(stream, types, decimation, method, taps)?;
        Ok(FirFilter { convolution, stream: stream.clone(), types, method, decimation, tap_count: taps.len() })
    }

    /// Replaces the taps (their number may change, and with it [`FirFilter::history`]). Waits
    /// for the work queued on the stream first. On failure the filter keeps its old taps.
    pub fn set_taps(&mut self, taps: FirTaps) -> Result<()> {
        self.stream.synchronize()?;
        self.convolution = Self::convolution(&self.stream, self.types, self.decimation, self.method, taps)?;
        self.tap_count = taps.len();
        Ok(())
    }

    fn convolution(
        stream: &Arc<Stream>,
        types: FirTypes,
        decimation: usize,
        method: FirMethod,
        taps: FirTaps,
    ) -> Result<Convolution> {
        check_taps(types, &taps)?;
        let whole_segments = method == FirMethod::FftWholeSegments;
        let direct = match method {
            FirMethod::Automatic => {
                taps.len() <= Self::direct_tap_limit(types, decimation) || !OverlapSave::takes(taps.len(), decimation)
            }
            FirMethod::Direct => true,
            FirMethod::Fft | FirMethod::FftWholeSegments => false,
        };
        if !direct {
            return Ok(Convolution::OverlapSave(Box::new(OverlapSave::new(
                stream,
                types,
                decimation,
                taps,
                whole_segments,
            )?)));
        }
        let reversed_taps = match taps {
            FirTaps::Float(taps) => upload(stream, taps.iter().rev().copied())?,
            FirTaps::Complex(taps) => upload(stream, taps.iter().rev().copied())?,
        };
        Ok(Convolution::Direct { reversed_taps })
    }

    pub fn types(&self) -> FirTypes {
        self.types
    }

    pub fn tap_count(&self) -> usize {
        self.tap_count
    }

    pub fn decimation(&self) -> usize {
        self.decimation
    }

    /// The method in use: [`FirMethod::Direct`], [`FirMethod::Fft`] or
    /// [`FirMethod::FftWholeSegments`].
    pub fn method(&self) -> FirMethod {
        match &self.convolution {
            Convolution::Direct { .. } => FirMethod::Direct,
            Convolution::OverlapSave(overlap_save) if overlap_save.whole_segments() => FirMethod::FftWholeSegments,
            Convolution::OverlapSave(_) => FirMethod::Fft,
        }
    }

    /// The outputs of one transform's segments for overlap-save (GNU Radio's fft_filter asks
    /// the scheduler for outputs in multiples of it), 1 for the direct form.
    pub fn output_multiple(&self) -> usize {
        match &self.convolution {
            Convolution::Direct { .. } => 1,
            Convolution::OverlapSave(overlap_save) => overlap_save.outputs_per_span(),
        }
    }

    /// The length of overlap-save's transforms, one forward and one inverse per
    /// [`FirFilter::output_multiple`] outputs; 0 for the direct form.
    pub fn fft_size(&self) -> usize {
        match &self.convolution {
            Convolution::Direct { .. } => 0,
            Convolution::OverlapSave(overlap_save) => overlap_save.fft_size(),
        }
    }

    /// The input items before each call's first new item that [`FirFilter::execute`] reads,
    /// plus one, as GNU Radio counts history: the tap count for the direct form; for
    /// overlap-save also the segment a call may start in.
    pub fn history(&self) -> usize {
        match &self.convolution {
            Convolution::Direct { .. } => self.tap_count,
            Convolution::OverlapSave(overlap_save) => overlap_save.history(),
        }
    }

    /// Filters on the stream, without waiting: writes up to `outputs` outputs to `output` and
    /// returns how many it wrote: all of them for the direct form; for overlap-save fewer, to
    /// keep its FFT batches to powers of two (call again for the rest), and with
    /// [`FirMethod::FftWholeSegments`] only the outputs of complete segments (0 when the input
    /// does not complete the first one); otherwise at least one.
    /// `position` is the stream index of the first output (GNU Radio's nitems_written), which
    /// overlap-save aligns its segments to. `input` holds `(outputs - 1) * decimation +
    /// history()` items, the history first. Complex filters may rotate their outputs
    /// (`rotation`, counted from this call's first output).
    ///
    /// # Safety
    /// `input` and `output` must be device memory of the stream's device (host memory on the
    /// simulated backend) of the sizes above, valid until the work completes, and nothing else
    /// may write them meanwhile.
    pub unsafe fn execute(
        &mut self,
        input: u64,
        output: u64,
        outputs: usize,
        position: u64,
        rotation: Rotation,
    ) -> Result<usize> {
        if outputs == 0 {
            return Ok(0);
        }
        // Checked here, whole, before overlap-save offsets the input into its segments.
        let input_items = kernels::fir_input_items(outputs, self.history(), self.decimation)?;
        let (input_range, output_range) = if self.types.complex_samples() {
            (
                validate::array::<Complex32>("input", input, input_items)?,
                validate::array::<Complex32>("output", output, outputs)?,
            )
        } else {
            (validate::array::<f32>("input", input, input_items)?, validate::array::<f32>("output", output, outputs)?)
        };
        validate::disjoint(("input", &input_range), ("output", &output_range))?;
        match &mut self.convolution {
            Convolution::Direct { reversed_taps } => {
                unsafe {
                    kernels::fir_filter(
                        &self.stream,
                        self.types,
                        input,
                        reversed_taps.address(),
                        output,
                        outputs,
                        self.tap_count,
                        self.decimation,
                        rotation,
                    )?
                };
                Ok(outputs)
            }
            Convolution::OverlapSave(overlap_save) => unsafe {
                overlap_save.execute(&self.stream, input, output, outputs, position, rotation)
            },
        }
    }
}

impl Drop for FirFilter {
    /// Queued work may still read the taps and the scratch space.
    fn drop(&mut self) {
        let _ = self.stream.synchronize();
    }
}

fn check_taps(types: FirTypes, taps: &FirTaps) -> Result<()> {
    if taps.len() == 0 {
        return Err(Error::invalid_argument("the filter has no taps: pass at least one tap"));
    }
    let complex = matches!(taps, FirTaps::Complex(_));
    if complex != types.complex_taps() {
        let (wanted, given) = if types.complex_taps() { ("complex", "float") } else { ("float", "complex") };
        return Err(Error::invalid_argument(format!(
            "a {} filter takes {wanted} taps, not {given} ones",
            types.name()
        )));
    }
    let not_finite = match taps {
        FirTaps::Float(taps) => taps.iter().position(|tap| !tap.is_finite()),
        FirTaps::Complex(taps) => taps.iter().position(|tap| !(tap.re.is_finite() && tap.im.is_finite())),
    };
    if let Some(index) = not_finite {
        return Err(Error::invalid_argument(format!("tap {index} is not finite: every tap must be a finite number")));
    }
    Ok(())
}

/// Device memory holding `values`, copied through pinned memory; waits for the copy.
pub(crate) fn upload<T: Copy>(stream: &Stream, values: impl ExactSizeIterator<Item = T>) -> Result<DeviceAllocation> {
    let bytes = values.len() * size_of::<T>();
    let device = DeviceAllocation::new(stream.device(), bytes)?;
    let staging = PinnedAllocation::new(stream.device(), bytes)?;
    let host = staging.address() as *mut T;
    for (index, value) in values.enumerate() {
        unsafe { host.add(index).write(value) };
    }
    unsafe { stream.copy_async(device.address(), staging.address(), bytes)? };
    stream.synchronize()?;
    Ok(device)
}
