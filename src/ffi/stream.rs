// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: streams and copies.

use super::{
    borrow, free_handle, grcuda_device, grcuda_event, grcuda_status, guard, guard_out, guard_value, into_handle,
};
use crate::error::Error;
use crate::stream::Stream;
use std::ffi::c_void;
use std::sync::Arc;

/// A non-blocking CUDA stream (simulated: work runs when enqueued).
#[allow(non_camel_case_types)]
pub struct grcuda_stream {
    pub(crate) stream: Arc<Stream>,
}

/// Creates a non-blocking stream on `device`. Free it with grcuda_stream_free(); buffers
/// that use it keep it alive until they are freed too.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_stream_new(
    device: *const grcuda_device,
    stream_out: *mut *mut grcuda_stream,
) -> grcuda_status {
    guard_out(stream_out, "stream_out", std::ptr::null_mut(), || {
        let device = &borrow(device, "device")?.device;
        Ok(into_handle(grcuda_stream { stream: Arc::new(Stream::new(device)?) }))
    })
}

/// Frees a stream handle. NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_stream_free(stream: *mut grcuda_stream) {
    free_handle(stream)
}

/// The CUstream (equal to a cudaStream_t) as an integer, for C++ kernels, cuFFT and CuPy
/// (cupy.cuda.ExternalStream). 0 on the simulated backend and for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_stream_handle(stream: *const grcuda_stream) -> u64 {
    guard_value(0, || unsafe { stream.as_ref() }.map_or(0, |s| s.stream.raw_handle()))
}

/// Blocks until all work enqueued on the stream is complete.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_stream_synchronize(stream: *const grcuda_stream) -> grcuda_status {
    guard(|| borrow(stream, "stream")?.stream.synchronize())
}

/// Makes work enqueued on `stream` after this call wait (on the GPU) for the event's latest
/// record. The calling thread does not wait. The event may be another CUDA device's, but not
/// the other backend's (a simulated event for a CUDA stream, or the reverse).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_stream_wait_event(stream: *const grcuda_stream, event: *const grcuda_event) -> grcuda_status {
    guard(|| borrow(stream, "stream")?.stream.wait(&borrow(event, "event")?.event))
}

/// Enqueues a copy of `bytes` bytes. Each address is device memory or pinned/registered host
/// memory (from this library or CUDA). The ranges must stay valid until the copy completes. A
/// zero-byte copy does nothing; overlapping ranges, and sizes that run past the end of the
/// address space, are GRCUDA_STATUS_INVALID_ARGUMENT.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_stream_copy_async(
    stream: *const grcuda_stream,
    destination: *mut c_void,
    source: *const c_void,
    bytes: usize,
) -> grcuda_status {
    guard(|| {
        let stream = &borrow(stream, "stream")?.stream;
        if bytes > 0 && (destination.is_null() || source.is_null()) {
            return Err(Error::invalid_argument("grcuda_stream_copy_async: destination or source is NULL"));
        }
        unsafe { stream.copy_async(destination as u64, source as u64, bytes) }
    })
}

/// Enqueues setting `bytes` bytes of device memory at `destination` to `value`. The range must
/// stay valid until the work completes. Zero bytes do nothing; a size that runs past the end
/// of the address space is GRCUDA_STATUS_INVALID_ARGUMENT.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_stream_memset_async(
    stream: *const grcuda_stream,
    destination: *mut c_void,
    value: u8,
    bytes: usize,
) -> grcuda_status {
    guard(|| {
        let stream = &borrow(stream, "stream")?.stream;
        if bytes > 0 && destination.is_null() {
            return Err(Error::invalid_argument("grcuda_stream_memset_async: destination is NULL"));
        }
        unsafe { stream.memset_async(destination as u64, value, bytes) }
    })
}
