// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: FFT plans.

use super::{borrow, borrow_mut, free_handle, grcuda_status, grcuda_stream, guard, guard_out, into_handle};
use crate::error::{Error, Result};
use crate::fft::{FftKind, FftPlan};
use std::ffi::c_void;

/// FFT kind: complex to complex, e^(-2πi·jk/size).
pub const GRCUDA_FFT_FORWARD: u32 = 0;
/// FFT kind: complex to complex, e^(+2πi·jk/size), not divided by size.
pub const GRCUDA_FFT_INVERSE: u32 = 1;
/// FFT kind: float to complex, forward; size/2 + 1 output bins per vector.
pub const GRCUDA_FFT_REAL_FORWARD: u32 = 2;

/// An FFT plan: transforms of one kind and size on one stream, in any batch. Used by one
/// thread at a time.
#[allow(non_camel_case_types)]
pub struct grcuda_fft_plan {
    plan: FftPlan,
}

fn fft_kind(kind: u32) -> Result<FftKind> {
    match kind {
        GRCUDA_FFT_FORWARD => Ok(FftKind::Forward),
        GRCUDA_FFT_INVERSE => Ok(FftKind::Inverse),
        GRCUDA_FFT_REAL_FORWARD => Ok(FftKind::RealForward),
        other => Err(Error::invalid_argument(format!(
            "FFT kind {other} is unknown: use GRCUDA_FFT_FORWARD (0), GRCUDA_FFT_INVERSE (1) or GRCUDA_FFT_REAL_FORWARD (2)"
        ))),
    }
}

/// Creates a plan for transforms of `kind` with `size` points per vector on `stream`; a block
/// makes one in its constructor, on its own stream. The plan keeps the stream alive. On CUDA
/// it holds one cuFFT handle per batch it has run, each made at that batch's first
/// grcuda_fft_plan_execute() (which is slower) and kept until the plan is freed: run few
/// batches, such as powers of two. A size of 0 is GRCUDA_STATUS_INVALID_ARGUMENT; cuFFT
/// missing is GRCUDA_STATUS_UNSUPPORTED; on the simulated backend, a plan that does not fit in
/// host memory is GRCUDA_STATUS_OUT_OF_MEMORY. Free it with grcuda_fft_plan_free().
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fft_plan_new(
    stream: *const grcuda_stream,
    kind: u32,
    size: usize,
    plan_out: *mut *mut grcuda_fft_plan,
) -> grcuda_status {
    guard_out(plan_out, "plan_out", std::ptr::null_mut(), || {
        let kind = fft_kind(kind)?;
        let stream = &borrow(stream, "stream")?.stream;
        Ok(into_handle(grcuda_fft_plan { plan: FftPlan::new(stream, kind, size)? }))
    })
}

/// Enqueues `batch` transforms of the plan's size, stored back to back, on the plan's
/// stream, unnormalised (like FFTW and GNU Radio's fft_vcc); the calling thread does not
/// wait. Input and output are device memory of batch * size items (complex, or float for
/// GRCUDA_FFT_REAL_FORWARD) and batch * size complex items (batch * (size / 2 + 1) for
/// GRCUDA_FFT_REAL_FORWARD), valid until the transforms complete. A complex transform may be
/// in place (output == input); a real one may not. A batch of 0 does nothing. A cuFFT handle
/// for a new batch that does not fit in device memory is GRCUDA_STATUS_OUT_OF_MEMORY. Call it
/// from one thread at a time per plan.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fft_plan_execute(
    plan: *mut grcuda_fft_plan,
    batch: usize,
    input: *const c_void,
    output: *mut c_void,
) -> grcuda_status {
    guard(|| unsafe { borrow_mut(plan, "plan")?.plan.execute(batch, input as u64, output as u64) })
}

/// Frees a plan. NULL is ignored. It may be freed with transforms still queued: on CUDA it
/// first waits for all work queued on its stream, because its transforms use cuFFT work
/// areas that freeing releases. Do not free it while another thread is in
/// grcuda_fft_plan_execute() on it.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fft_plan_free(plan: *mut grcuda_fft_plan) {
    free_handle(plan)
}
