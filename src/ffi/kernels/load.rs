// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: the synthetic GPU load of the `cuda.load` block (`kernels/load.cu`).

use super::stream_argument;
use crate::ffi::{grcuda_status, grcuda_stream, guard};
use crate::kernels;
use std::ffi::c_void;

/// Synthetic load for benchmarks: copies `bytes` bytes from `input` to `output`, each byte
/// read and written `iterations` times (at least 1; 0 is GRCUDA_STATUS_INVALID_ARGUMENT).
/// Output may equal input.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_load(
    stream: *const grcuda_stream,
    input: *const c_void,
    output: *mut c_void,
    bytes: usize,
    iterations: u64,
) -> grcuda_status {
    guard(|| unsafe { kernels::load(stream_argument(stream)?, input as u64, output as u64, bytes, iterations) })
}
