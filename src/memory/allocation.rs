// SPDX-License-Identifier: GPL-3.0-or-later

//! Plain allocations: device memory (`cuMemAlloc`) and pinned host memory (`cuMemHostAlloc`),
//! for scratch space, FFT windows, tests and benchmark baselines. On the simulated backend
//! both are host memory: from the heap when small, anonymous mappings when large.

use crate::device::Device;
use crate::error::{DriverResultExt, Error, Result};
use crate::{fallible, simulated};
use cudarc::driver::{result, sys};

fn check_size(bytes: usize) -> Result<()> {
    if bytes == 0 {
        return Err(Error::invalid_argument("allocation size is 0: ask for at least 1 byte"));
    }
    Ok(())
}

/// Simulated allocations from this size up are anonymous mappings; smaller ones come from the
/// heap (a mapping each would use a page and a kernel mapping entry each).
const SIMULATED_MAPPING_THRESHOLD: usize = 1 << 20;

/// Alignment of simulated heap allocations: what cuMemAlloc guarantees (mappings are page
/// aligned).
const SIMULATED_ALIGNMENT: usize = 256;

/// The layout of a simulated heap allocation (below `SIMULATED_MAPPING_THRESHOLD`).
fn simulated_heap_layout(bytes: usize) -> std::alloc::Layout {
    std::alloc::Layout::from_size_align(bytes, SIMULATED_ALIGNMENT).expect("a small layout")
}

/// `bytes` of zeroed host memory standing in for `what`. Large allocations are anonymous
/// mappings, whose pages are zero-filled when first touched, so they cost nothing up front:
/// std's `alloc_zeroed` writes every byte when the alignment exceeds malloc's, which commits
/// all of it, and past the free memory the kernel's OOM killer then ends the process instead
/// of a status coming back.
fn simulated_allocate(bytes: usize, what: &str) -> Result<u64> {
    if bytes < SIMULATED_MAPPING_THRESHOLD {
        let pointer = unsafe { std::alloc::alloc_zeroed(simulated_heap_layout(bytes)) };
        if pointer.is_null() {
            return Err(fallible::out_of_host_memory(what, Some(bytes)));
        }
        return Ok(pointer as u64);
    }
    let pointer = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if pointer == libc::MAP_FAILED {
        return Err(fallible::out_of_host_memory(what, Some(bytes)));
    }
    Ok(pointer as u64)
}

fn simulated_free(address: u64, bytes: usize) {
    if bytes < SIMULATED_MAPPING_THRESHOLD {
        unsafe { std::alloc::dealloc(address as *mut u8, simulated_heap_layout(bytes)) };
    } else {
        unsafe { libc::munmap(address as *mut libc::c_void, bytes) };
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
                let ordinal = device.info().ordinal;
                simulated::account_allocation(ordinal, bytes)?;
                simulated_allocate(bytes, "simulated device memory")
                    .inspect_err(|_| simulated::account_release(ordinal, bytes))?
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
            simulated::account_release(self.device.info().ordinal, self.size);
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
            None => simulated_allocate(bytes, "simulated pinned host memory")?,
            Some(_) => {
                device.bind()?;
                // PORTABLE, not WRITECOMBINED: the CPU reads this memory too.
                let pointer =
                    unsafe { result::malloc_host(bytes, sys::CU_MEMHOSTALLOC_PORTABLE) }.during("cuMemHostAlloc")?;
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
