// SPDX-License-Identifier: GPL-3.0-or-later

//! A per-thread count of the operations that reach the CUDA driver: event records, waits,
//! queries and synchronisations, copies, memsets, kernel launches and FFT executions.
//!
//! The CPU time of a GPU block's work() call is mostly these calls, so tests hold their number
//! per call down. The simulated backend counts the same operations at the same places (it runs
//! them on the CPU instead), so the count is checked in CI without a GPU. Context binds, which
//! every operation makes and which cost a thread-local lookup in the driver, are not counted.
//! Each thread has its own count, so tests running in parallel do not disturb each other.

use std::cell::Cell;

thread_local! {
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one driver operation on the calling thread.
pub(crate) fn count() {
    CALLS.with(|calls| calls.set(calls.get() + 1));
}

/// Driver operations the calling thread has made since it started.
pub fn on_this_thread() -> u64 {
    CALLS.with(Cell::get)
}
