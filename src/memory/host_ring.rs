// SPDX-License-Identifier: GPL-3.0-or-later

//! Pinned host rings: a double-mapped memfd registered with CUDA so DMA can read and write it.
//!
//! Only the first mapping is registered: both mappings share their physical pages, so the
//! pages are pinned either way, and DMA always addresses the first mapping (copies are split
//! at the wrap point; see `buffer`). The CPU may use either mapping. On the simulated backend
//! the mapping is plain memory. Either way a new ring starts zeroed (a fresh memfd is), as
//! GNU Radio's buffers do. A dropped ring goes to `host_ring_cache`, which hands it, zeroed
//! again, to the next ring of its device and size, or releases it.
//!
//! Zeroing a whole ring costs a memset of it (about 14 ms per 128 MiB on the H200), while a
//! short flowgraph writes a few pages of it. So a ring zeroes only the bytes before the end of
//! the furthest write it was told of ([`HostRing::note_written`]): writers start at item 0 and
//! go forward, and a write that wraps marks the whole ring.

use super::host_ring_cache;
use crate::device::Device;
use crate::error::{DriverResultExt, Result};
use crate::memory::host_mapping::DoubleMappedHost;
use cudarc::driver::sys;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct HostRing {
    /// Always `Some` but in `drop`, which hands the pages to the cache.
    pages: Option<HostPages>,
    /// Bytes `[0, written_end)` of the first mapping may hold data; the rest is still zero.
    written_end: AtomicUsize,
}

impl HostRing {
    /// A ring of exactly `size` bytes, a multiple of the page size.
    pub fn new(device: &Device, size: usize) -> Result<HostRing> {
        let pages = match host_ring_cache::take(device, size) {
            Some(pages) => pages,
            None => HostPages::new(device, size)?,
        };
        Ok(HostRing { pages: Some(pages), written_end: AtomicUsize::new(0) })
    }

    fn pages(&self) -> &HostPages {
        self.pages.as_ref().expect("a ring has its pages until it is dropped")
    }

    /// Host address of the first mapping; `[address, address + 2 * size)` is valid.
    pub fn address(&self) -> u64 {
        self.pages().mapping.base() as u64
    }

    pub fn size(&self) -> usize {
        self.pages().size()
    }

    /// Tells the ring that `len` bytes from byte `offset` of the first mapping were (or may
    /// be) written, through either mapping: a span past the end wraps to the start. Every
    /// write must be told of, or the ring's next user may find its data (see the module
    /// comment); telling of a span twice costs nothing.
    pub fn note_written(&self, offset: usize, len: usize) {
        if len == 0 {
            return;
        }
        let end = offset.saturating_add(len).min(self.size());
        // Every post tells of its span: skip the read-modify-write once the mark is past it.
        if end > self.written_end.load(Ordering::Relaxed) {
            self.written_end.fetch_max(end, Ordering::Relaxed);
        }
    }
}

impl Drop for HostRing {
    fn drop(&mut self) {
        if let Some(pages) = self.pages.take() {
            host_ring_cache::keep(pages, *self.written_end.get_mut());
        }
    }
}

/// A ring's double mapping, registered with CUDA where its device is a GPU; unregistered and
/// unmapped on drop.
pub(super) struct HostPages {
    device: Device,
    mapping: DoubleMappedHost,
    registered: bool,
}

impl HostPages {
    fn new(device: &Device, size: usize) -> Result<HostPages> {
        let mapping = DoubleMappedHost::new(size)?;
        let mut pages = HostPages { device: device.clone(), mapping, registered: false };
        if device.cuda_context().is_some() {
            device.bind()?;
            unsafe { sys::cuMemHostRegister_v2(pages.mapping.base().cast(), size, sys::CU_MEMHOSTREGISTER_PORTABLE) }
                .result()
                .during("cuMemHostRegister of the pinned host ring")?;
            pages.registered = true;
        }
        Ok(pages)
    }

    pub(super) fn size(&self) -> usize {
        self.mapping.size()
    }

    /// Sets the first `bytes` bytes of the ring to zero, so that all of it is zero again when
    /// nothing beyond them was written.
    pub(super) fn zero_first(&mut self, bytes: usize) {
        let bytes = bytes.min(self.mapping.size());
        unsafe { std::ptr::write_bytes(self.mapping.base(), 0, bytes) };
    }

    pub(super) fn belongs_to(&self, device: &Device) -> bool {
        self.device.is_same_device(device)
    }
}

impl Drop for HostPages {
    fn drop(&mut self) {
        if self.registered && self.device.bind().is_ok() {
            let _ = unsafe { sys::cuMemHostUnregister(self.mapping.base().cast()) };
        }
    }
}
