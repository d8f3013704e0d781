// SPDX-License-Identifier: GPL-3.0-or-later

//! Pinned host rings: a double-mapped memfd registered with CUDA so DMA can read and write it.
//!
//! Only the first mapping is registered: both mappings share their physical pages, so the
//! pages are pinned either way, and DMA always addresses the first mapping (copies are split
//! at the wrap point; see `buffer`). The CPU may use either mapping.

use crate::device::Device;
use crate::error::{DriverResultExt, Result};
use crate::memory::host_mapping::DoubleMappedHost;
use cudarc::driver::sys;

pub struct HostRing {
    device: Device,
    mapping: DoubleMappedHost,
    registered: bool,
}

impl HostRing {
    /// A ring of exactly `size` bytes, a multiple of the page size.
    pub fn new(device: &Device, size: usize) -> Result<HostRing> {
        let mapping = DoubleMappedHost::new(size)?;
        let mut ring = HostRing { device: device.clone(), mapping, registered: false };
        if device.cuda_context().is_some() {
            device.bind()?;
            unsafe { sys::cuMemHostRegister_v2(ring.mapping.base().cast(), size, sys::CU_MEMHOSTREGISTER_PORTABLE) }
                .result()
                .during("cuMemHostRegister of the pinned host ring")?;
            ring.registered = true;
        }
        Ok(ring)
    }

    /// Host address of the first mapping; `[address, address + 2 * size)` is valid.
    pub fn address(&self) -> u64 {
        self.mapping.base() as u64
    }

    pub fn size(&self) -> usize {
        self.mapping.size()
    }
}

impl Drop for HostRing {
    fn drop(&mut self) {
        if self.registered && self.device.bind().is_ok() {
            let _ = unsafe { sys::cuMemHostUnregister(self.mapping.base().cast()) };
        }
    }
}
