// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: plain allocations and double-mapped rings behind one handle type.

use super::{borrow, free_handle, grcuda_device, grcuda_status, guard_out, guard_value, into_handle};
use crate::error::{Error, Result};
use crate::memory::{DeviceAllocation, DeviceRing, HostRing, PinnedAllocation, host_ring_cache, sizing};
use std::ffi::c_void;

/// Memory kind: device memory (cuMemAlloc).
pub const GRCUDA_MEMORY_DEVICE: u32 = 0;
/// Memory kind: page-locked host memory (cuMemHostAlloc, portable, not write-combined).
pub const GRCUDA_MEMORY_PINNED_HOST: u32 = 1;
/// Memory kind: a device ring, one VMM allocation mapped twice: 2 * size bytes are
/// addressable and byte i + size aliases byte i.
pub const GRCUDA_MEMORY_DEVICE_RING: u32 = 2;
/// Memory kind: a pinned host ring, one memfd mapped twice and registered with CUDA.
pub const GRCUDA_MEMORY_HOST_RING: u32 = 3;

/// Memory owned by this library; freed with grcuda_memory_free().
#[allow(non_camel_case_types)]
pub struct grcuda_memory {
    storage: Storage,
}

enum Storage {
    Device(DeviceAllocation),
    PinnedHost(PinnedAllocation),
    DeviceRing(DeviceRing),
    HostRing(HostRing),
}

impl Storage {
    fn new(device: &crate::Device, kind: u32, min_bytes: usize) -> Result<Storage> {
        let ring_bytes = |granularity| sizing::ring_bytes(min_bytes, 1, granularity);
        match kind {
            GRCUDA_MEMORY_DEVICE => Ok(Storage::Device(DeviceAllocation::new(device, min_bytes)?)),
            GRCUDA_MEMORY_PINNED_HOST => Ok(Storage::PinnedHost(PinnedAllocation::new(device, min_bytes)?)),
            GRCUDA_MEMORY_DEVICE_RING => {
                Ok(Storage::DeviceRing(DeviceRing::new(device, ring_bytes(device.info().ring_granularity)?)?))
            }
            GRCUDA_MEMORY_HOST_RING => {
                Ok(Storage::HostRing(HostRing::new(device, ring_bytes(crate::memory::host_mapping::page_size())?)?))
            }
            other => Err(Error::invalid_argument(format!(
                "memory kind {other} is unknown: use GRCUDA_MEMORY_DEVICE (0), GRCUDA_MEMORY_PINNED_HOST (1), \
                 GRCUDA_MEMORY_DEVICE_RING (2) or GRCUDA_MEMORY_HOST_RING (3)"
            ))),
        }
    }

    fn address(&self) -> u64 {
        match self {
            Storage::Device(m) => m.address(),
            Storage::PinnedHost(m) => m.address(),
            Storage::DeviceRing(m) => m.address(),
            Storage::HostRing(m) => m.address(),
        }
    }

    fn size(&self) -> usize {
        match self {
            Storage::Device(m) => m.size(),
            Storage::PinnedHost(m) => m.size(),
            Storage::DeviceRing(m) => m.size(),
            Storage::HostRing(m) => m.size(),
        }
    }
}

/// Allocates memory of a kind (GRCUDA_MEMORY_*) holding at least `min_bytes` bytes. Rings are
/// rounded up to the ring granularity (device) or the page size (host).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_memory_new(
    device: *const grcuda_device,
    kind: u32,
    min_bytes: usize,
    memory_out: *mut *mut grcuda_memory,
) -> grcuda_status {
    guard_out(memory_out, "memory_out", std::ptr::null_mut(), || {
        let device = &borrow(device, "device")?.device;
        Ok(into_handle(grcuda_memory { storage: Storage::new(device, kind, min_bytes)? }))
    })
}

/// Frees memory. NULL is ignored. No pending work may still use it.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_memory_free(memory: *mut grcuda_memory) {
    free_handle(memory)
}

/// The memory's address (device or host, as its kind says); NULL for a NULL handle.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_memory_address(memory: *const grcuda_memory) -> *mut c_void {
    guard_value(std::ptr::null_mut(), || {
        unsafe { memory.as_ref() }.map_or(std::ptr::null_mut(), |m| m.storage.address() as *mut c_void)
    })
}

/// The memory's size in bytes (one lap, for rings); 0 for a NULL handle.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_memory_size(memory: *const grcuda_memory) -> usize {
    guard_value(0, || unsafe { memory.as_ref() }.map_or(0, |m| m.storage.size()))
}

/// Sets the most bytes of freed host rings (the pinned host side of CPU-GPU buffers, and
/// GRCUDA_MEMORY_HOST_RING memory) that the process keeps for the next rings of the same
/// device and size, for the whole process. Registering a ring with CUDA pins its pages (about
/// 0.4 ms per MiB), which a flowgraph that starts again would otherwise pay again for every
/// CPU-GPU edge. A kept ring is zeroed when it is freed, so that a ring taken over starts
/// zeroed as a new one does. The default is 512 MiB; 0 keeps none. Rings kept beyond a
/// lowered limit are released at once, oldest first.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_set_host_ring_cache_limit(bytes: usize) {
    guard_value((), || host_ring_cache::set_limit_bytes(bytes))
}

/// The bytes of freed host rings kept now for reuse (see grcuda_set_host_ring_cache_limit()).
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_host_ring_cache_held_bytes() -> usize {
    guard_value(0, host_ring_cache::cached_bytes)
}
