// SPDX-License-Identifier: GPL-3.0-or-later

//! Streams: ordered queues of device work.
//!
//! Every [`Stream`] is created non-blocking, so it never synchronises with the legacy default
//! stream. A stream is used by one block at a time (the block's thread), but CUDA allows other
//! threads to enqueue event waits and records on it, which the buffer protocol does. On the
//! simulated backend every operation runs to completion when it is enqueued, which is a valid
//! schedule of an in-order stream.

use crate::device::Device;
use crate::driver_calls;
use crate::error::{DriverResultExt, Error, Result};
use crate::event::Event;
use crate::kernels::validate;
use cudarc::driver::{result, sys};

/// A non-blocking CUDA stream, or its simulated stand-in.
pub struct Stream {
    device: Device,
    raw: sys::CUstream,
}

// A CUstream is a handle the driver lets any thread use.
unsafe impl Send for Stream {}
unsafe impl Sync for Stream {}

impl Stream {
    pub fn new(device: &Device) -> Result<Stream> {
        let raw = match device.cuda_context() {
            None => std::ptr::null_mut(),
            Some(_) => {
                device.bind()?;
                result::stream::create(result::stream::StreamKind::NonBlocking)
                    .during("cuStreamCreate(CU_STREAM_NON_BLOCKING)")?
            }
        };
        Ok(Stream { device: device.clone(), raw })
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The `CUstream` (same value as a `cudaStream_t`) for cuFFT, CuPy or C++ kernels;
    /// 0 on the simulated backend, where there is no CUDA stream.
    pub fn raw_handle(&self) -> u64 {
        self.raw as u64
    }

    pub(crate) fn raw(&self) -> sys::CUstream {
        self.raw
    }

    /// Blocks the calling thread until everything enqueued so far on `handle`, a stream that
    /// its user created (a CuPy stream, a `cudaStream_t` of another library) on `device`, is
    /// complete. On the simulated backend work is complete when it is enqueued: nothing to do.
    ///
    /// # Safety
    /// `handle` must be a live CUstream of the device's context (0 is the legacy stream) until
    /// the call returns.
    pub unsafe fn synchronize_handle(device: &Device, handle: u64) -> Result<()> {
        driver_calls::count();
        if device.is_simulated() {
            return Ok(());
        }
        device.bind()?;
        unsafe { result::stream::synchronize(handle as usize as sys::CUstream) }.during("cuStreamSynchronize")
    }

    /// Blocks the calling thread until everything enqueued so far is complete.
    pub fn synchronize(&self) -> Result<()> {
        driver_calls::count();
        if self.device.is_simulated() {
            return Ok(());
        }
        self.device.bind()?;
        unsafe { result::stream::synchronize(self.raw) }.during("cuStreamSynchronize")
    }

    /// Marks the current end of this stream's work in `event` (replacing its previous
    /// record). The event must be on the stream's device.
    pub fn record(&self, event: &Event) -> Result<()> {
        if !self.device.is_same_device(event.device()) {
            return Err(Error::invalid_argument(format!(
                "the event belongs to {} but the stream to {}: record an event on a stream of its own device",
                event.device().describe(),
                self.device.describe()
            )));
        }
        driver_calls::count();
        if self.device.is_simulated() {
            return Ok(());
        }
        self.device.bind()?;
        unsafe { result::event::record(event.raw(), self.raw) }.during("cuEventRecord")
    }

    /// Makes work enqueued after this call wait, on the GPU, for the event's latest record.
    /// The calling thread does not wait. The event may come from another CUDA device, but not
    /// from another backend.
    pub fn wait(&self, event: &Event) -> Result<()> {
        if self.device.backend() != event.device().backend() {
            return Err(Error::invalid_argument(format!(
                "the stream belongs to {} but the event to {}: a stream can wait only for events of its own backend",
                self.device.describe(),
                event.device().describe()
            )));
        }
        driver_calls::count();
        if self.device.is_simulated() {
            return Ok(());
        }
        self.device.bind()?;
        unsafe { result::stream::wait_event(self.raw, event.raw(), sys::CUevent_wait_flags::CU_EVENT_WAIT_DEFAULT) }
            .during("cuStreamWaitEvent")
    }

    /// Enqueues a copy of `bytes` bytes from `source` to `destination`. Both are addresses in
    /// the unified address space: device memory, or host memory that is pinned or registered.
    /// NULL addresses, ranges that run past the end of the address space and overlapping ranges
    /// are InvalidArgument.
    ///
    /// # Safety
    /// Both ranges must stay valid until the copy completes, and nothing else may write them
    /// meanwhile.
    pub unsafe fn copy_async(&self, destination: u64, source: u64, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let destination_range = validate::bytes("copy destination", destination, bytes)?;
        let source_range = validate::bytes("copy source", source, bytes)?;
        validate::disjoint(("copy destination", &destination_range), ("copy source", &source_range))?;
        driver_calls::count();
        if self.device.is_simulated() {
            unsafe { std::ptr::copy(source as *const u8, destination as *mut u8, bytes) };
            return Ok(());
        }
        self.device.bind()?;
        unsafe { sys::cuMemcpyAsync(destination, source, bytes, self.raw) }.result().during("cuMemcpyAsync")
    }
}

impl Stream {
    /// Enqueues setting `bytes` bytes of device memory at `destination` to `value`. A NULL
    /// address or a range that runs past the end of the address space is InvalidArgument.
    ///
    /// # Safety
    /// The range must stay valid until the work completes, and nothing else may use it
    /// meanwhile.
    pub unsafe fn memset_async(&self, destination: u64, value: u8, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        validate::bytes("memset destination", destination, bytes)?;
        driver_calls::count();
        if self.device.is_simulated() {
            unsafe { std::ptr::write_bytes(destination as *mut u8, value, bytes) };
            return Ok(());
        }
        self.device.bind()?;
        unsafe { result::memset_d8_async(destination, value, bytes, self.raw) }.during("cuMemsetD8Async")
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        if self.raw.is_null() {
            return;
        }
        // Errors here mean the context is already gone (process exit): nothing to release.
        if self.device.bind().is_ok() {
            let _ = unsafe { result::stream::destroy(self.raw) };
        }
    }
}
