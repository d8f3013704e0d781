// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: FFT.

use super::{borrow, grcuda_status, grcuda_stream, guard};
use crate::error::Error;
use crate::fft::{self, FftKind};
use std::ffi::c_void;

/// FFT kind: complex to complex, e^(-2πi·jk/size).
pub const GRCUDA_FFT_FORWARD: u32 = 0;
/// FFT kind: complex to complex, e^(+2πi·jk/size), not divided by size.
pub const GRCUDA_FFT_INVERSE: u32 = 1;
/// FFT kind: float to complex, forward; size/2 + 1 output bins per vector.
pub const GRCUDA_FFT_REAL_FORWARD: u32 = 2;

/// Runs `batch` transforms of `size` points stored back to back, on `stream`, unnormalised
/// (like FFTW and GNU Radio's fft_vcc). Plans are made at the first call for each (device,
/// size, batch, kind) and kept, so the first call is slower. Input and output are device
/// memory of batch * size items (complex, or float for GRCUDA_FFT_REAL_FORWARD) and batch *
/// size complex items (batch * (size / 2 + 1) for GRCUDA_FFT_REAL_FORWARD). A plan that does
/// not fit in device memory (or, simulated, host memory) is GRCUDA_STATUS_OUT_OF_MEMORY.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_fft_execute(
    stream: *const grcuda_stream,
    kind: u32,
    size: usize,
    batch: usize,
    input: *const c_void,
    output: *mut c_void,
) -> grcuda_status {
    guard(|| {
        let kind = match kind {
            GRCUDA_FFT_FORWARD => FftKind::Forward,
            GRCUDA_FFT_INVERSE => FftKind::Inverse,
            GRCUDA_FFT_REAL_FORWARD => FftKind::RealForward,
            other => {
                return Err(Error::invalid_argument(format!(
                    "FFT kind {other} is unknown: use GRCUDA_FFT_FORWARD (0), GRCUDA_FFT_INVERSE (1) or GRCUDA_FFT_REAL_FORWARD (2)"
                )));
            }
        };
        let stream = &borrow(stream, "stream")?.stream;
        unsafe { fft::execute(stream, kind, size, batch, input as u64, output as u64) }
    })
}
