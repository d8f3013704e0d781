// SPDX-License-Identifier: GPL-3.0-or-later

//! Device rings: one CUDA VMM allocation of N bytes mapped twice in a 2N virtual reservation.
//!
//! Construction is reserve(2N) -> create(N) -> map at 0 -> map at N -> set access(2N). Each
//! step's resource sits in `VmmParts` before the next step runs, and `VmmParts::drop` undoes
//! exactly the steps that succeeded, so a failure half-way leaks nothing and frees nothing
//! twice. The ring starts zeroed, as GNU Radio's own buffers do. On the simulated backend the
//! ring is double-mapped host memory.
//!
//! The ring's own device may read and write it; `grant_access` lets the kernels of another
//! device that has peer access to it (a reader on another GPU) do so too, through the same
//! addresses.

use crate::device::{Device, allocation_properties};
use crate::error::{DriverResultExt, Error, ErrorKind, Result};
use crate::memory::host_mapping::DoubleMappedHost;
use crate::simulated;
use cudarc::driver::sys;
use std::sync::Mutex;

pub struct DeviceRing {
    device: Device,
    storage: Storage,
    /// The other devices granted access so far (ordinals).
    peers: Mutex<Vec<usize>>,
}

enum Storage {
    Cuda(VmmParts),
    Simulated(DoubleMappedHost),
}

impl DeviceRing {
    /// A ring of exactly `size` bytes; `size` must be a multiple of the device's ring
    /// granularity (see `memory::sizing`).
    pub fn new(device: &Device, size: usize) -> Result<DeviceRing> {
        let granularity = device.info().ring_granularity;
        if !device.info().vmm_supported {
            return Err(Error::unsupported(format!(
                "{} does not support CUDA virtual memory management, which device rings need",
                device.info().name
            )));
        }
        if size == 0 || size % granularity != 0 {
            return Err(Error::invalid_argument(format!(
                "device ring size {size} is not a non-zero multiple of the {granularity}-byte granularity"
            )));
        }
        let storage = match device.cuda_context() {
            None => {
                let ordinal = device.info().ordinal;
                simulated::account_allocation(ordinal, size)?;
                let mapping = DoubleMappedHost::new(size).inspect_err(|_| simulated::account_release(ordinal, size))?;
                Storage::Simulated(mapping)
            }
            Some(context) => {
                device.bind()?;
                Storage::Cuda(VmmParts::map_twice(context.cu_device(), size)?)
            }
        };
        Ok(DeviceRing { device: device.clone(), storage, peers: Mutex::new(Vec::new()) })
    }

    /// Device address of the first mapping; `[address, address + 2 * size)` is valid.
    pub fn address(&self) -> u64 {
        match &self.storage {
            Storage::Cuda(parts) => parts.reserved,
            Storage::Simulated(mapping) => mapping.base() as u64,
        }
    }

    /// Bytes in one lap of the ring.
    pub fn size(&self) -> usize {
        match &self.storage {
            Storage::Cuda(parts) => parts.size,
            Storage::Simulated(mapping) => mapping.size(),
        }
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Lets kernels on `reader` read and write the ring, once per device; the caller has
    /// checked that `reader` may access this device's memory (`Device::can_be_read_by`).
    /// Nothing to do for the ring's own device, or on the simulated backend (host memory).
    pub(crate) fn grant_access(&self, reader: &Device) -> Result<()> {
        let (Storage::Cuda(parts), Some(context)) = (&self.storage, reader.cuda_context()) else { return Ok(()) };
        if reader.is_same_device(&self.device) {
            return Ok(());
        }
        let ordinal = reader.info().ordinal;
        let mut peers = self.peers.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if peers.contains(&ordinal) {
            return Ok(());
        }
        self.device.bind()?;
        parts.allow_access(context.cu_device(), "cuMemSetAccess granting a peer device access to the ring")?;
        peers.push(ordinal);
        Ok(())
    }
}

impl Drop for DeviceRing {
    fn drop(&mut self) {
        match &mut self.storage {
            Storage::Simulated(mapping) => simulated::account_release(self.device.info().ordinal, mapping.size()),
            // The VMM calls need the context current; if it is gone (process exit) the driver
            // has released everything already and VmmParts' calls fail harmlessly.
            Storage::Cuda(_) => {
                let _ = self.device.bind();
            }
        }
    }
}

/// The pieces of a VMM double mapping; each field is set once its step has succeeded.
struct VmmParts {
    size: usize,
    reserved: sys::CUdeviceptr,
    handle: Option<sys::CUmemGenericAllocationHandle>,
    mapped_halves: usize,
}

impl VmmParts {
    fn map_twice(device: sys::CUdevice, size: usize) -> Result<VmmParts> {
        let span = size * 2;
        let mut parts = VmmParts { size, reserved: 0, handle: None, mapped_halves: 0 };
        unsafe {
            sys::cuMemAddressReserve(&mut parts.reserved, span, 0, 0, 0)
                .result()
                .during("cuMemAddressReserve of the ring's 2N range")?;
            let properties = allocation_properties(device);
            let mut handle = 0;
            sys::cuMemCreate(&mut handle, size, &properties, 0).result().map_err(|e| {
                let error = Error::driver("cuMemCreate of the ring's memory", e);
                match error.kind() {
                    ErrorKind::OutOfMemory => Error::new(
                        ErrorKind::OutOfMemory,
                        format!("out of device memory allocating a {size}-byte ring: {error}"),
                    ),
                    _ => error,
                }
            })?;
            parts.handle = Some(handle);
            for half in 0..2 {
                sys::cuMemMap(parts.reserved + (half * size) as u64, size, 0, handle, 0)
                    .result()
                    .during(if half == 0 { "cuMemMap of the first half" } else { "cuMemMap of the second half" })?;
                parts.mapped_halves += 1;
            }
            parts.allow_access(device, "cuMemSetAccess of the ring")?;
            // GNU Radio preloads a reader's history with zeros, and readers see those items
            // before the writer's first: fresh device memory holds whatever was there before.
            // Once per ring, completed before any party's stream (all non-blocking, so not
            // ordered after the null stream) can touch it.
            sys::cuMemsetD8_v2(parts.reserved, 0, size).result().during("cuMemsetD8 zeroing the ring")?;
            sys::cuStreamSynchronize(std::ptr::null_mut())
                .result()
                .during("cuStreamSynchronize after zeroing the ring")?;
        }
        Ok(parts)
    }
}

impl VmmParts {
    /// Lets kernels on `device` read and write the whole 2N mapping.
    fn allow_access(&self, device: sys::CUdevice, call: &'static str) -> Result<()> {
        let access = sys::CUmemAccessDesc {
            location: allocation_properties(device).location,
            flags: sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
        };
        unsafe { sys::cuMemSetAccess(self.reserved, 2 * self.size, &access, 1) }.result().during(call)
    }
}

impl Drop for VmmParts {
    fn drop(&mut self) {
        unsafe {
            for half in 0..self.mapped_halves {
                let _ = sys::cuMemUnmap(self.reserved + (half * self.size) as u64, self.size);
            }
            if let Some(handle) = self.handle {
                let _ = sys::cuMemRelease(handle);
            }
            if self.reserved != 0 {
                let _ = sys::cuMemAddressFree(self.reserved, self.size * 2);
            }
        }
    }
}
