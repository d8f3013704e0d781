// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: FIR filters (GNU Radio's fir_filter_ccc/ccf/fff, and the engine of its FFT and
//! frequency-translating filters).

use super::{
    borrow, borrow_mut, borrow_slice, free_handle, grcuda_complex32, grcuda_status, grcuda_stream, guard_out,
    guard_value, into_handle,
};
use crate::error::{Error, Result};
use crate::filter::{FirFilter, FirMethod, FirTaps};
use crate::kernels::{Complex32, FirTypes, Rotation};
use std::ffi::c_void;

/// FIR method: the direct form for short filters, overlap-save for long ones (the limit,
/// which depends on the types and the decimation, is grcuda_fir_filter_direct_tap_limit()).
pub const GRCUDA_FIR_AUTOMATIC: u32 = 0;
/// FIR method: one dot product per output.
pub const GRCUDA_FIR_DIRECT: u32 = 1;
/// FIR method: overlap-save convolution, writing every output asked for (a call
/// that ends inside a segment rounds its last outputs slightly differently, about 1e-7 of the
/// signal, from a split of the stream that ends elsewhere).
pub const GRCUDA_FIR_FFT: u32 = 2;
/// FIR method: overlap-save on complete segments only, as GNU Radio's fft_filter_xxx: the
/// same output bit for bit however the stream is split; outputs of a segment whose input has
/// not all arrived wait (grcuda_fir_filter_output_multiple() outputs per segment).
pub const GRCUDA_FIR_FFT_WHOLE_SEGMENTS: u32 = 3;

/// A decimating FIR filter on one stream, with its taps in device memory. Used by one thread
/// at a time.
#[allow(non_camel_case_types)]
pub struct grcuda_fir_filter {
    filter: FirFilter,
}

fn fir_method(method: u32) -> Result<FirMethod> {
    match method {
        GRCUDA_FIR_AUTOMATIC => Ok(FirMethod::Automatic),
        GRCUDA_FIR_DIRECT => Ok(FirMethod::Direct),
        GRCUDA_FIR_FFT => Ok(FirMethod::Fft),
        GRCUDA_FIR_FFT_WHOLE_SEGMENTS => Ok(FirMethod::FftWholeSegments),
        other => Err(Error::invalid_argument(format!(
            "FIR method {other} is unknown: use GRCUDA_FIR_AUTOMATIC (0), GRCUDA_FIR_DIRECT (1), GRCUDA_FIR_FFT (2) \
             or GRCUDA_FIR_FFT_WHOLE_SEGMENTS (3)"
        ))),
    }
}

fn complex_taps<'a>(taps: *const grcuda_complex32, tap_count: usize) -> Result<FirTaps<'a>> {
    // grcuda_complex32 and Complex32 are both (real, imag) pairs of f32, #[repr(C)].
    Ok(FirTaps::Complex(borrow_slice(taps.cast::<Complex32>(), tap_count, "taps")?))
}

fn float_taps<'a>(taps: *const f32, tap_count: usize) -> Result<FirTaps<'a>> {
    Ok(FirTaps::Float(borrow_slice(taps, tap_count, "taps")?))
}

fn new_filter(
    stream: *const grcuda_stream,
    types: FirTypes,
    decimation: usize,
    method: u32,
    taps: FirTaps,
) -> Result<*mut grcuda_fir_filter> {
    let method = fir_method(method)?;
    let stream = &borrow(stream, "stream")?.stream;
    Ok(into_handle(grcuda_fir_filter { filter: FirFilter::new(stream, types, decimation, method, taps)? }))
}

/// Creates a filter of complex input, `tap_count` complex taps and complex output, keeping
/// one output in `decimation`, on `stream` (which it keeps alive), as GNU Radio's
/// fir_filter_ccc: output j is the dot product of the reversed taps with the input from item
/// j * decimation on. `method` is GRCUDA_FIR_AUTOMATIC, _DIRECT or _FFT. No taps, non-finite
/// taps and a decimation of 0 are GRCUDA_STATUS_INVALID_ARGUMENT; the FFT method without
/// cuFFT where the filter needs it (more than 2049 taps) is GRCUDA_STATUS_UNSUPPORTED. The
/// taps are copied (the call waits for the copy). Free it with grcuda_fir_filter_free().
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_new_ccc(
    stream: *const grcuda_stream,
    decimation: usize,
    method: u32,
    taps: *const grcuda_complex32,
    tap_count: usize,
    filter_out: *mut *mut grcuda_fir_filter,
) -> grcuda_status {
    guard_out(filter_out, "filter_out", std::ptr::null_mut(), || {
        new_filter(stream, FirTypes::Ccc, decimation, method, complex_taps(taps, tap_count)?)
    })
}

/// As grcuda_fir_filter_new_ccc(), for complex input, float taps and complex output
/// (fir_filter_ccf).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_new_ccf(
    stream: *const grcuda_stream,
    decimation: usize,
    method: u32,
    taps: *const f32,
    tap_count: usize,
    filter_out: *mut *mut grcuda_fir_filter,
) -> grcuda_status {
    guard_out(filter_out, "filter_out", std::ptr::null_mut(), || {
        new_filter(stream, FirTypes::Ccf, decimation, method, float_taps(taps, tap_count)?)
    })
}

/// As grcuda_fir_filter_new_ccc(), for float input, float taps and float output
/// (fir_filter_fff).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_new_fff(
    stream: *const grcuda_stream,
    decimation: usize,
    method: u32,
    taps: *const f32,
    tap_count: usize,
    filter_out: *mut *mut grcuda_fir_filter,
) -> grcuda_status {
    guard_out(filter_out, "filter_out", std::ptr::null_mut(), || {
        new_filter(stream, FirTypes::Fff, decimation, method, float_taps(taps, tap_count)?)
    })
}

/// Replaces a ccc filter's taps (their number may change, and with it the history). Waits
/// for the work queued on the filter's stream first. Float taps for a ccc filter, no taps and
/// non-finite taps are GRCUDA_STATUS_INVALID_ARGUMENT; on any failure the old taps stay.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_set_taps_complex(
    filter: *mut grcuda_fir_filter,
    taps: *const grcuda_complex32,
    tap_count: usize,
) -> grcuda_status {
    super::guard(|| borrow_mut(filter, "filter")?.filter.set_taps(complex_taps(taps, tap_count)?))
}

/// As grcuda_fir_filter_set_taps_complex(), for the float taps of a ccf or fff filter.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_set_taps_float(
    filter: *mut grcuda_fir_filter,
    taps: *const f32,
    tap_count: usize,
) -> grcuda_status {
    super::guard(|| borrow_mut(filter, "filter")?.filter.set_taps(float_taps(taps, tap_count)?))
}

/// The history the filter needs, as GNU Radio counts it (set_history()): the input items
/// before a call's first new item that grcuda_fir_filter_execute() reads, plus one. The tap
/// count for the direct method; more for the FFT method, whose calls may start in the middle
/// of a segment. 0 for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_history(filter: *const grcuda_fir_filter) -> usize {
    guard_value(0, || unsafe { filter.as_ref() }.map_or(0, |f| f.filter.history()))
}

/// The method the filter uses: GRCUDA_FIR_DIRECT, GRCUDA_FIR_FFT or
/// GRCUDA_FIR_FFT_WHOLE_SEGMENTS (GRCUDA_FIR_AUTOMATIC for NULL).
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_method(filter: *const grcuda_fir_filter) -> u32 {
    guard_value(GRCUDA_FIR_AUTOMATIC, || match unsafe { filter.as_ref() }.map(|f| f.filter.method()) {
        Some(FirMethod::Direct) => GRCUDA_FIR_DIRECT,
        Some(FirMethod::Fft) => GRCUDA_FIR_FFT,
        Some(FirMethod::FftWholeSegments) => GRCUDA_FIR_FFT_WHOLE_SEGMENTS,
        Some(FirMethod::Automatic) | None => GRCUDA_FIR_AUTOMATIC,
    })
}

/// The outputs of one overlap-save transform's segments (1 for the direct method, and for
/// NULL): a GNU Radio block using GRCUDA_FIR_FFT_WHOLE_SEGMENTS sets its output multiple to it.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_output_multiple(filter: *const grcuda_fir_filter) -> usize {
    guard_value(1, || unsafe { filter.as_ref() }.map_or(1, |f| f.filter.output_multiple()))
}

/// The length of the FFTs overlap-save computes, a forward and an inverse one per
/// grcuda_fir_filter_output_multiple() outputs (0 for the direct method, and for NULL): what
/// a roofline of the filter's transforms is measured with.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_fft_size(filter: *const grcuda_fir_filter) -> usize {
    guard_value(0, || unsafe { filter.as_ref() }.map_or(0, |f| f.filter.fft_size()))
}

/// FIR types: complex input, complex taps, complex output (fir_filter_ccc).
pub const GRCUDA_FIR_CCC: u32 = 0;
/// FIR types: complex input, float taps, complex output (fir_filter_ccf).
pub const GRCUDA_FIR_CCF: u32 = 1;
/// FIR types: float input, float taps, float output (fir_filter_fff).
pub const GRCUDA_FIR_FFF: u32 = 2;

/// The most taps for which GRCUDA_FIR_AUTOMATIC uses the direct form for filters of `types`
/// (GRCUDA_FIR_CCC, _CCF or _FFF) and `decimation`; beyond it overlap-save. 0 where the
/// direct form is never chosen, and for any other `types`.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_direct_tap_limit(types: u32, decimation: usize) -> usize {
    match types {
        GRCUDA_FIR_CCC => FirFilter::direct_tap_limit(FirTypes::Ccc, decimation),
        GRCUDA_FIR_CCF => FirFilter::direct_tap_limit(FirTypes::Ccf, decimation),
        GRCUDA_FIR_FFF => FirFilter::direct_tap_limit(FirTypes::Fff, decimation),
        _ => 0,
    }
}

/// Enqueues the filtering of up to `outputs` outputs on the filter's stream, without waiting,
/// and sets `produced_out` to how many it will write: all of them for the direct method; for
/// the FFT methods fewer, to keep its batches of transforms to powers of two (call again for
/// the rest), and with GRCUDA_FIR_FFT_WHOLE_SEGMENTS only the outputs of complete segments
/// (0 when the input does not complete the first one); otherwise at least one. `position` is the stream index of the first output (GNU Radio's
/// nitems_written), which the FFT method aligns its segments to, so the output does not depend
/// on how the stream is split into calls. `input` is device memory of (outputs - 1) *
/// decimation + grcuda_fir_filter_history() items, the history first; `output` of `outputs`
/// items, not overlapping the input. Both must stay valid until the work completes.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_execute(
    filter: *mut grcuda_fir_filter,
    input: *const c_void,
    output: *mut c_void,
    outputs: usize,
    position: u64,
    produced_out: *mut usize,
) -> grcuda_status {
    guard_out(produced_out, "produced_out", 0, || execute(filter, input, output, outputs, position, Rotation::NONE))
}

/// As grcuda_fir_filter_execute() for a filter of complex output, then multiplies output j of
/// the call by e^(i·(start_phase + j·phase_increment)) (radians; the angle is computed in
/// double precision). Non-finite phases, and float filters, are GRCUDA_STATUS_INVALID_ARGUMENT.
#[must_use]
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn grcuda_fir_filter_execute_rotated(
    filter: *mut grcuda_fir_filter,
    input: *const c_void,
    output: *mut c_void,
    outputs: usize,
    position: u64,
    start_phase: f64,
    phase_increment: f64,
    produced_out: *mut usize,
) -> grcuda_status {
    guard_out(produced_out, "produced_out", 0, || {
        execute(filter, input, output, outputs, position, Rotation::new(start_phase, phase_increment))
    })
}

fn execute(
    filter: *mut grcuda_fir_filter,
    input: *const c_void,
    output: *mut c_void,
    outputs: usize,
    position: u64,
    rotation: Rotation,
) -> Result<usize> {
    let filter = &mut borrow_mut(filter, "filter")?.filter;
    unsafe { filter.execute(input as u64, output as u64, outputs, position, rotation) }
}

/// Frees a filter. NULL is ignored. It may be freed with work still queued: it first waits
/// for its stream. Do not free it while another thread uses it.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fir_filter_free(filter: *mut grcuda_fir_filter) {
    free_handle(filter)
}
