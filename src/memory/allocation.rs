// SPDX-License-Identifier: GPL-3.0-or-later

//! Plain allocations: device memory (`cuMemAlloc`) and pinned host memory (`cuMemHostAlloc`),
//! for scratch space, FFT windows, tests and benchmark baselines. On the simulated backend
//! both are aligned host memory.

use crate::device::Device;
use crate::error::{DriverResultExt, Error, Result};
use crate::simulated;
use cudarc::driver::{result, sys};
use std::alloc::Layout;

/// Alignment of simulated allocations: what cuMemAlloc guarantees.
const SIMULATED_ALIGNMENT: usize = 256;

fn simulated_layout(bytes: usize) -> Result<Layout> {
    Layout::from_size_align(bytes, SIMULATED_ALIGNMENT)
        .map_err(|_| Error::invalid_argument(format!("allocation of {bytes} bytes is too large")))
}

fn check_size(bytes: usize) -> Result<()> {
    if bytes == 0 {
        return Err(Error::invalid_argument("allocation size is 0: ask for at least 1 byte"));
    }
    Ok(())
}

fn simulated_allocate(bytes: usize) -> Result<u64> {
    let layout = simulated_layout(bytes)?;
    let pointer = unsafe { std::alloc::alloc_zeroed(layout) };
    if pointer.is_null() {
        return Err(Error::new(
            crate::error::ErrorKind::OutOfMemory,
            format!("out of host memory allocating {bytes} bytes"),
        ));
    }
    Ok(pointer as u64)
}

fn simulated_free(address: u64, bytes: usize) {
    if let Ok(layout) = simulated_layout(bytes) {
        unsafe { std::alloc::dealloc(address as *mut u8, layout) };
    }
}

/// Device memory.
pub struct DeviceAllocation {
    device: Device,
    address: u64,
    size: usize,
}

impl DeviceAllocation {
    pub fn new(device: &Device, bytes: usize) -> Result<DeviceAllocation> {
        check_size(bytes)?;
        let address = match device.cuda_context() {
            None => {
                simulated::account_allocation(bytes)?;
                simulated_allocate(bytes).inspect_err(|_| simulated::account_release(bytes))?
            }
            Some(_) => {
                device.bind()?;
                unsafe { result::malloc_sync(bytes) }.during("cuMemAlloc")?
            }
        };
        Ok(DeviceAllocation { device: device.clone(), address, size: bytes })
    }

    pub fn address(&self) -> u64 {
        self.address
    }

    pub fn size(&self) -> usize {
        self.size
    }
}

impl Drop for DeviceAllocation {
    fn drop(&mut self) {
        if self.device.is_simulated() {
            simulated_free(self.address, self.size);
            simulated::account_release(self.size);
        } else if self.device.bind().is_ok() {
            let _ = unsafe { result::free_sync(self.address) };
        }
    }
}

/// Page-locked host memory the GPU can copy to and from at full speed.
pub struct PinnedAllocation {
    device: Device,
    address: u64,
    size: usize,
}

impl PinnedAllocation {
    pub fn new(device: &Device, bytes: usize) -> Result<PinnedAllocation> {
        check_size(bytes)?;
        let address = match device.cuda_context() {
            None => simulated_allocate(bytes)?,
            Some(_) => {
                device.bind()?;
                // PORTABLE, not WRITECOMBINED: the CPU reads this memory too.
                let pointer = unsafe { result::malloc_host(bytes, sys::CU_MEMHOSTALLOC_PORTABLE) }
                    .during("cuMemHostAlloc")?;
                pointer as u64
            }
        };
        Ok(PinnedAllocation { device: device.clone(), address, size: bytes })
    }

    pub fn address(&self) -> u64 {
        self.address
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// The memory as a byte slice for the CPU.
    ///
    /// # Safety
    /// No device work may be writing the memory while the slice is used.
    pub unsafe fn as_mut_slice(&mut self) -> &mut [u8] {
        unsafe { std::slice::from_raw_parts_mut(self.address as *mut u8, self.size) }
    }
}

impl Drop for PinnedAllocation {
    fn drop(&mut self) {
        if self.device.is_simulated() {
            simulated_free(self.address, self.size);
        } else if self.device.bind().is_ok() {
            let _ = unsafe { result::free_host(self.address as *mut std::ffi::c_void) };
        }
    }
}
