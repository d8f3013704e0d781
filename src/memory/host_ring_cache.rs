// SPDX-License-Identifier: GPL-3.0-or-later

//! Host rings kept after their buffers are freed, for the next ring of the same device and
//! size to take over.
//!
//! Registering a ring with CUDA pins its pages: about 0.5 ms per MiB on the H200 (66 ms for a
//! 128 MiB ring), and unregistering costs a quarter of that. Each CPU-GPU edge of a flowgraph
//! makes its ring when the edge is first used, so a flowgraph that stops and starts again, or
//! the next flowgraph of the process, would pay both again for every edge. A freed ring
//! therefore stays mapped (and registered) here, up to [`limit_bytes`] in all (512 MiB unless
//! [`set_limit_bytes`] says otherwise), oldest released first. A ring is zeroed when it is
//! kept, because a new ring must start zeroed as GNU Radio's buffers do: a reader with history
//! or a sample delay reads items from before the first one written, and GNU Radio gives it
//! zeros there. Zeroing costs a memset of the part of the ring that was written, in the thread
//! that frees it (at a flowgraph's teardown): at most a fraction of what pinning costs, and off
//! the path that starts one.
//!
//! Invariants: one mutex guards the list, and a ring is either in the list or owned by one
//! [`super::HostRing`]. Releasing a ring (unregistering it can take milliseconds) happens
//! outside the lock.

use super::host_ring::HostPages;
use crate::device::Device;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// The default of [`limit_bytes`].
pub(crate) const DEFAULT_LIMIT_BYTES: usize = 512 << 20;

static LIMIT_BYTES: AtomicUsize = AtomicUsize::new(DEFAULT_LIMIT_BYTES);
static CACHED: Mutex<VecDeque<HostPages>> = Mutex::new(VecDeque::new());

fn cached() -> MutexGuard<'static, VecDeque<HostPages>> {
    CACHED.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The most bytes of freed rings kept for reuse.
pub fn limit_bytes() -> usize {
    LIMIT_BYTES.load(Ordering::Relaxed)
}

/// Sets [`limit_bytes`] for the process (0 keeps none), releasing the oldest kept rings
/// beyond it.
pub fn set_limit_bytes(bytes: usize) {
    LIMIT_BYTES.store(bytes, Ordering::Relaxed);
    let released = evict_beyond(&mut cached(), bytes);
    drop(released);
}

/// The bytes of freed rings kept now.
pub fn cached_bytes() -> usize {
    cached().iter().map(HostPages::size).sum()
}

/// A kept ring of `device` of exactly `size` bytes, if there is one.
pub(super) fn take(device: &Device, size: usize) -> Option<HostPages> {
    let mut cached = cached();
    let index = cached.iter().position(|pages| pages.size() == size && pages.belongs_to(device))?;
    cached.remove(index)
}

/// Keeps a freed ring whose first `written_bytes` may hold data, zeroed, releasing the oldest
/// beyond the limit; a ring larger than the limit is released at once.
pub(super) fn keep(mut pages: HostPages, written_bytes: usize) {
    let limit = limit_bytes();
    if pages.size() > limit {
        return;
    }
    // Outside the lock: a memset of a large ring takes milliseconds.
    pages.zero_first(written_bytes);
    let released = {
        let mut cached = cached();
        cached.push_back(pages);
        evict_beyond(&mut cached, limit)
    };
    drop(released);
}

/// Takes the oldest rings out of `cached` until the rest fit in `limit` bytes, for the
/// caller to release once the lock is gone.
fn evict_beyond(cached: &mut VecDeque<HostPages>, limit: usize) -> Vec<HostPages> {
    let mut total: usize = cached.iter().map(HostPages::size).sum();
    let mut released = Vec::new();
    while total > limit {
        let Some(oldest) = cached.pop_front() else { break };
        total -= oldest.size();
        released.push(oldest);
    }
    released
}
