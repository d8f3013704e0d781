// SPDX-License-Identifier: GPL-3.0-or-later

//! Pinned host rings: a double-mapped memfd registered with CUDA so DMA can read and write it.
//!
//! Only the first mapping is registered: both mappings share their physical pages, so the
//! pages are pinned either way, and DMA always addresses the first mapping (copies are split
//! at the wrap point; see `buffer`). The CPU may use either mapping. On the simulated backend
//! the mapping is plain memory. Either way a new ring starts zeroed (a fresh memfd is), as
//! GNU Radio's buffers do. A dropped ring goes to `host_ring_cache`, which hands it, zeroed
//! again, to the next ring of its device and size, or releases it.

use super::host_ring_cache;
use crate::device::Device;
use crate::error::{DriverResultExt, Result};
use crate::memory::host_mapping::DoubleMappedHost;
use cudarc::driver::sys;

pub struct HostRing {
    /// Always `Some` but in `drop`, which hands the pages to the cache.
    pages: Option<HostPages>,
}

impl HostRing {
    /// A ring of exactly `size` bytes, a multiple of the page size.
    pub fn new(device: &Device, size: usize) -> Result<HostRing> {
        let pages = match host_ring_cache::take(device, size) {
            Some(pages) => pages,
            None => HostPages::new(device, size)?,
        };
        Ok(HostRing { pages: Some(pages) })
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
}

impl Drop for HostRing {
    fn drop(&mut self) {
        if let Some(pages) = self.pages.take() {
            host_ring_cache::keep(pages);
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

    /// Sets every byte of the ring to zero, as a new ring starts.
    pub(super) fn zero(&mut self) {
        unsafe { std::ptr::write_bytes(self.mapping.base(), 0, self.mapping.size()) };
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
