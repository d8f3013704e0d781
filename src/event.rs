// SPDX-License-Identifier: GPL-3.0-or-later

//! Events: markers in a stream that other streams or the host can wait for.
//!
//! Synchronisation events are created without timing (cheaper to record). Whether a host wait
//! spins or sleeps is the caller's choice: spinning answers in microseconds and burns a core;
//! blocking sync (`CU_EVENT_BLOCKING_SYNC`) frees the waiting core, but every record of such an
//! event makes the GPU interrupt the driver's event thread (`cuda-EvtHandlr`), which in a
//! GPU-bound flowgraph costs the process most of a core whether anyone waits or not. The
//! adaptive wait records plain events and sleeps in naps between queries instead: it spins
//! for short waits, and for long ones sleeps for most of the time the thread's previous wait
//! took, then naps in steps of an eighth of the time waited so far. So a GPU-bound thread,
//! whose waits are long and alike, wakes a few times per wait. A record replaces the previous
//! one; waits already enqueued keep the record they saw, which is what makes reusing events
//! safe.

use crate::device::Device;
use crate::driver_calls;
use crate::error::{DriverResultExt, Error, Result};
use cudarc::driver::{result, sys};
use std::time::{Duration, Instant};

/// How the host waits for an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostWait {
    /// Poll until complete: lowest latency, one busy core while waiting.
    Spin,
    /// Sleep in the driver until complete (`CU_EVENT_BLOCKING_SYNC`): no polling, at the cost
    /// of a GPU interrupt for every record.
    Block,
    /// Poll for up to `ADAPTIVE_SPIN` where the thread's previous wait was short; otherwise,
    /// and after the spin, sleep in naps between queries (see the module's introduction).
    Adaptive,
}

/// How long an adaptive wait polls before it sleeps: longer than the GPU work of a small
/// work() call, short against the hundreds of microseconds a GPU-bound block waits.
pub const ADAPTIVE_SPIN: Duration = Duration::from_micros(50);

/// The shortest and the longest nap of an adaptive wait between two queries. The longest
/// bounds how late a long wait notices completion (and its wake-ups: 1000 per second).
const SHORTEST_NAP: Duration = Duration::from_micros(10);
const LONGEST_NAP: Duration = Duration::from_millis(1);

thread_local! {
    /// How long this thread's previous adaptive wait took, until it saw the event complete.
    static PREVIOUS_WAIT: std::cell::Cell<Duration> = const { std::cell::Cell::new(Duration::ZERO) };
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
        if host_wait == HostWait::Block {
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
        let started = Instant::now();
        let expected = PREVIOUS_WAIT.get();
        if expected < ADAPTIVE_SPIN {
            while started.elapsed() < ADAPTIVE_SPIN {
                if self.is_complete()? {
                    PREVIOUS_WAIT.set(started.elapsed());
                    return Ok(());
                }
                std::hint::spin_loop();
            }
        }
        // Most of the previous wait in one sleep, then naps of an eighth of the time waited:
        // a wait that turns short is noticed within a quarter of the previous one, and one
        // that turns long within an eighth of its length.
        while !self.is_complete()? {
            let elapsed = started.elapsed();
            let nap = (expected * 3 / 4).checked_sub(elapsed).unwrap_or(elapsed / 8);
            std::thread::sleep(nap.clamp(SHORTEST_NAP, LONGEST_NAP));
        }
        PREVIOUS_WAIT.set(started.elapsed());
        Ok(())
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
