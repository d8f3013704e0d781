// SPDX-License-Identifier: GPL-3.0-or-later

//! Events: markers in a stream that other streams or the host can wait for.
//!
//! Synchronisation events are created without timing (cheaper to record). Whether a host wait
//! spins or sleeps is the caller's choice: spinning answers in microseconds and burns a core,
//! blocking sync frees the core at the cost of a wake-up, and the adaptive wait spins for a
//! short while and then sleeps, so that short waits answer at once and long ones (a GPU-bound
//! flowgraph's) free the core. Adaptive waits learn per thread: after a wait that outlasted the
//! spin, the thread's next `ADAPTIVE_SLEEPS` waits sleep at once, since a GPU-bound block waits
//! long call after call; then it tries the spin again. Counting waits rather than timing them
//! keeps a slow wake-up from the driver from passing for a long wait. A record replaces the previous one; waits already enqueued keep
//! the record they saw, which is what makes reusing events safe.

use crate::device::Device;
use crate::driver_calls;
use crate::error::{DriverResultExt, Error, Result};
use cudarc::driver::{result, sys};

/// How the host waits for an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostWait {
    /// Poll until complete: lowest latency, one busy core while waiting.
    Spin,
    /// Sleep in the driver until complete (`CU_EVENT_BLOCKING_SYNC`).
    Block,
    /// Poll for `ADAPTIVE_SPIN`, then sleep in the driver: the latency of spinning for short
    /// waits, the free core of blocking sync for long ones. After a wait that outlasted the
    /// spin, a thread's next `ADAPTIVE_SLEEPS` waits sleep at once.
    Adaptive,
}

/// How long an adaptive wait polls before it sleeps: longer than the GPU work of a small
/// work() call and a blocking-sync wake-up, short against the milliseconds a GPU-bound
/// block waits per call.
pub const ADAPTIVE_SPIN: std::time::Duration = std::time::Duration::from_micros(50);

/// Adaptive waits that sleep at once after a wait that outlasted `ADAPTIVE_SPIN`: a GPU-bound
/// thread spins once every `ADAPTIVE_SLEEPS + 1` waits, and a thread whose waits turn short
/// spins again after at most this many.
const ADAPTIVE_SLEEPS: u32 = 7;

thread_local! {
    /// Adaptive waits this thread still makes without spinning.
    static SLEEPS_LEFT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

pub struct Event {
    device: Device,
    raw: sys::CUevent,
    host_wait: HostWait,
}

// A CUevent is a handle the driver lets any thread use.
unsafe impl Send for Event {}
unsafe impl Sync for Event {}

impl Event {
    /// An event for synchronisation (no timing).
    pub fn new(device: &Device, host_wait: HostWait) -> Result<Event> {
        let mut flags = sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32;
        if host_wait != HostWait::Spin {
            flags |= sys::CUevent_flags::CU_EVENT_BLOCKING_SYNC as u32;
        }
        let raw = match device.cuda_context() {
            None => std::ptr::null_mut(),
            Some(_) => {
                device.bind()?;
                let mut raw = std::ptr::null_mut();
                unsafe { sys::cuEventCreate(&mut raw, flags) }.result().during("cuEventCreate")?;
                raw
            }
        };
        Ok(Event { device: device.clone(), raw, host_wait })
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    pub(crate) fn raw(&self) -> sys::CUevent {
        self.raw
    }

    /// Blocks the calling thread until the latest record is complete, spinning, sleeping or
    /// both as the event's host wait says.
    pub fn synchronize(&self) -> Result<()> {
        driver_calls::count();
        if self.device.is_simulated() {
            return Ok(());
        }
        self.device.bind()?;
        if self.host_wait != HostWait::Adaptive {
            return unsafe { result::event::synchronize(self.raw) }.during("cuEventSynchronize");
        }
        let sleeps_left = SLEEPS_LEFT.get();
        if sleeps_left > 0 {
            SLEEPS_LEFT.set(sleeps_left - 1);
        } else {
            let started = std::time::Instant::now();
            while started.elapsed() < ADAPTIVE_SPIN {
                if self.is_complete()? {
                    return Ok(());
                }
                std::hint::spin_loop();
            }
            SLEEPS_LEFT.set(ADAPTIVE_SLEEPS);
        }
        unsafe { result::event::synchronize(self.raw) }.during("cuEventSynchronize")
    }

    /// Whether the latest record is complete, without waiting.
    pub fn is_complete(&self) -> Result<bool> {
        driver_calls::count();
        if self.device.is_simulated() {
            return Ok(true);
        }
        self.device.bind()?;
        match unsafe { result::event::query(self.raw) } {
            Ok(()) => Ok(true),
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            Err(e) => Err(Error::driver("cuEventQuery", e)),
        }
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        if self.raw.is_null() {
            return;
        }
        // Errors here mean the context is already gone (process exit): nothing to release.
        if self.device.bind().is_ok() {
            let _ = unsafe { result::event::destroy(self.raw) };
        }
    }
}
