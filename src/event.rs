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
//! took, then naps in steps of an eighth of the time waited so far (`adaptive_wait`). So a
//! GPU-bound thread, whose waits are long and alike, wakes a few times per wait, and one whose
//! waits turn short spins again after a few of them. A record replaces the previous
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
        let remembered = adaptive_wait(|| self.is_complete(), PREVIOUS_WAIT.get())?;
        PREVIOUS_WAIT.set(remembered);
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

/// The adaptive wait's schedule, apart from the driver: polls `is_complete` until it says
/// yes, where `previous` is what the thread remembers of its previous wait, and returns what
/// to remember of this one.
///
/// Where the previous wait was short it spins first. Then it sleeps most of the previous
/// wait in one go and naps an eighth of the time waited so far between polls, so a wait
/// that turns long is noticed within an eighth of its length. A wait found complete at the
/// first poll after that first sleep may have been far shorter than the sleep; it is
/// remembered as half the previous one rather than as the sleep, so that a thread whose
/// waits turned short (after a long one at start-up, say) is back to spinning after a few
/// waits instead of sleeping each time.
fn adaptive_wait(mut is_complete: impl FnMut() -> Result<bool>, previous: Duration) -> Result<Duration> {
    let started = Instant::now();
    if previous < ADAPTIVE_SPIN {
        while started.elapsed() < ADAPTIVE_SPIN {
            if is_complete()? {
                return Ok(started.elapsed());
            }
            std::hint::spin_loop();
        }
    }
    let mut naps = 0;
    while !is_complete()? {
        let elapsed = started.elapsed();
        let nap = (previous * 3 / 4).checked_sub(elapsed).unwrap_or(elapsed / 8);
        std::thread::sleep(nap.clamp(SHORTEST_NAP, LONGEST_NAP));
        naps += 1;
    }
    if naps == 1 && previous >= ADAPTIVE_SPIN {
        return Ok(previous / 2);
    }
    Ok(started.elapsed())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for an event that completes `after` from now, and counts its polls.
    fn completing_after(after: Duration, polls: &std::cell::Cell<u32>) -> impl FnMut() -> Result<bool> + '_ {
        let done = Instant::now() + after;
        move || {
            polls.set(polls.get() + 1);
            Ok(Instant::now() >= done)
        }
    }

    #[test]
    fn short_waits_after_a_long_one_spin_again_within_a_few_waits() {
        let polls = std::cell::Cell::new(0);
        let mut remembered = adaptive_wait(completing_after(Duration::from_millis(3), &polls), Duration::ZERO).unwrap();
        assert!(remembered >= Duration::from_millis(3), "{remembered:?}");
        let mut waits = 0;
        while remembered >= ADAPTIVE_SPIN {
            remembered = adaptive_wait(completing_after(Duration::from_micros(5), &polls), remembered).unwrap();
            waits += 1;
            assert!(waits <= 8, "still sleeping through short waits after {waits} of them: {remembered:?}");
        }
        // Spinning again: a short wait is seen complete while spinning, and stays short.
        remembered = adaptive_wait(completing_after(Duration::from_micros(5), &polls), remembered).unwrap();
        assert!(remembered < ADAPTIVE_SPIN, "{remembered:?}");
    }

    #[test]
    fn long_waits_alike_poll_a_few_times_each() {
        let polls = std::cell::Cell::new(0);
        let wait = Duration::from_millis(2);
        let mut remembered = Duration::ZERO;
        for round in 0..6 {
            polls.set(0);
            let started = Instant::now();
            remembered = adaptive_wait(completing_after(wait, &polls), remembered).unwrap();
            assert!(started.elapsed() >= wait);
            if round > 0 {
                // One sleep of three quarters of the remembered wait, then naps of an eighth
                // of the time waited so far: a handful of polls. Where a loaded machine woke
                // the thread late from that sleep, the wait was found complete at once and
                // is remembered as half the one before (at least 1 ms here), so the next
                // round sleeps 0.75 ms and naps its way to 2 ms: 0.75 * 1.125^9 > 2, at most
                // ten sleeps and eleven polls. Late wake-ups only make the naps fewer.
                assert!(polls.get() <= 11, "round {round}: {} polls", polls.get());
            }
        }
        // The wait itself, or half the one before after a late wake-up: either way long
        // enough that the next wait sleeps instead of spinning.
        assert!(remembered >= wait / 2 && remembered >= ADAPTIVE_SPIN, "{remembered:?}");
    }
}
