// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: devices.

use super::{borrow, free_handle, grcuda_status, guard, guard_out, into_handle};
use crate::device::{Backend, BackendChoice, Device};
use crate::error::{Error, Result};
use crate::stream::Stream;
use std::ffi::c_char;

/// Backend choice for grcuda_device_open(): read GRCUDA_BACKEND (cuda|simulated|auto); when it
/// is unset, use CUDA if a driver and a device exist, else the simulated backend (with a
/// one-line notice on stderr).
pub const GRCUDA_BACKEND_AUTO: u32 = 0;
/// Backend choice: the real GPU; fails with NO_DRIVER or NO_DEVICE when there is none.
pub const GRCUDA_BACKEND_CUDA: u32 = 1;
/// Backend choice: host memory and CPU kernels behind the same API, for tests and machines
/// without a GPU.
pub const GRCUDA_BACKEND_SIMULATED: u32 = 2;

/// Bytes of grcuda_device_info.name, including the terminating NUL.
pub const GRCUDA_DEVICE_NAME_SIZE: usize = 256;

/// A device: a CUDA device's primary context, or the simulated device. Objects created on a
/// device keep it alive, so handles may be freed in any order.
#[allow(non_camel_case_types)]
pub struct grcuda_device {
    pub(crate) device: Device,
}

/// What a device is and can do.
#[repr(C)]
#[derive(Clone, Copy)]
#[allow(non_camel_case_types)]
pub struct grcuda_device_info {
    /// GRCUDA_BACKEND_CUDA or GRCUDA_BACKEND_SIMULATED.
    pub backend: u32,
    /// The device ordinal.
    pub ordinal: i32,
    /// The device name, NUL-terminated (truncated if longer).
    pub name: [c_char; GRCUDA_DEVICE_NAME_SIZE],
    /// Compute capability, major part: 9 for an H200 (0 when simulated).
    pub compute_capability_major: i32,
    /// Compute capability, minor part: 0 for an H200 (0 when simulated).
    pub compute_capability_minor: i32,
    /// Streaming multiprocessors (CPU threads when simulated).
    pub multiprocessor_count: i32,
    /// Total device memory in bytes.
    pub total_memory: u64,
    /// Whether CUDA virtual memory management works (needed by buffers and device rings).
    pub vmm_supported: bool,
    /// Every ring's size is a multiple of this many bytes.
    pub ring_granularity: u64,
}

fn backend_choice(backend: u32) -> Result<BackendChoice> {
    match backend {
        GRCUDA_BACKEND_AUTO => Ok(BackendChoice::Auto),
        GRCUDA_BACKEND_CUDA => Ok(BackendChoice::Cuda),
        GRCUDA_BACKEND_SIMULATED => Ok(BackendChoice::Simulated),
        other => Err(Error::invalid_argument(format!(
            "backend {other} is unknown: use GRCUDA_BACKEND_AUTO (0), GRCUDA_BACKEND_CUDA (1) or GRCUDA_BACKEND_SIMULATED (2)"
        ))),
    }
}

fn checked_ordinal(ordinal: i32) -> Result<usize> {
    usize::try_from(ordinal).map_err(|_| Error::invalid_argument(format!("device ordinal {ordinal} is negative")))
}

/// Counts the devices of a backend (GRCUDA_BACKEND_*). The simulated backend has
/// GRCUDA_SIMULATED_DEVICES of them (1 to 16; 2 when unset), each with its own memory.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_device_count(backend: u32, count_out: *mut i32) -> grcuda_status {
    guard_out(count_out, "count_out", 0, || Ok(Device::count(backend_choice(backend)?)? as i32))
}

/// Opens device `ordinal` of a backend (GRCUDA_BACKEND_*). The CUDA primary context is
/// retained for the rest of the process. Free the handle with grcuda_device_free().
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_device_open(ordinal: i32, backend: u32, device_out: *mut *mut grcuda_device) -> grcuda_status {
    guard_out(device_out, "device_out", std::ptr::null_mut(), || {
        let device = Device::open(checked_ordinal(ordinal)?, backend_choice(backend)?)?;
        Ok(into_handle(grcuda_device { device }))
    })
}

/// Frees a device handle. NULL is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_device_free(device: *mut grcuda_device) {
    free_handle(device)
}

/// Describes a device.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_device_get_info(
    device: *const grcuda_device,
    info_out: *mut grcuda_device_info,
) -> grcuda_status {
    // All zero: backend 0, empty name, no VMM.
    let cleared = grcuda_device_info {
        backend: 0,
        ordinal: 0,
        name: [0; GRCUDA_DEVICE_NAME_SIZE],
        compute_capability_major: 0,
        compute_capability_minor: 0,
        multiprocessor_count: 0,
        total_memory: 0,
        vmm_supported: false,
        ring_granularity: 0,
    };
    guard_out(info_out, "info_out", cleared, || {
        let info = borrow(device, "device")?.device.info();
        let mut name = [0 as c_char; GRCUDA_DEVICE_NAME_SIZE];
        for (slot, byte) in name.iter_mut().zip(info.name.bytes().take(GRCUDA_DEVICE_NAME_SIZE - 1)) {
            *slot = byte as c_char;
        }
        Ok(grcuda_device_info {
            backend: match info.backend {
                Backend::Cuda => GRCUDA_BACKEND_CUDA,
                Backend::Simulated => GRCUDA_BACKEND_SIMULATED,
            },
            ordinal: info.ordinal as i32,
            name,
            compute_capability_major: info.compute_capability.0,
            compute_capability_minor: info.compute_capability.1,
            multiprocessor_count: info.multiprocessor_count,
            total_memory: info.total_memory as u64,
            vmm_supported: info.vmm_supported,
            ring_granularity: info.ring_granularity as u64,
        })
    })
}

/// Free device memory in bytes right now.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_device_free_memory(device: *const grcuda_device, bytes_out: *mut u64) -> grcuda_status {
    guard_out(bytes_out, "bytes_out", 0, || Ok(borrow(device, "device")?.device.free_memory()? as u64))
}

/// Blocks until all work on every stream of the device is complete.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_device_synchronize(device: *const grcuda_device) -> grcuda_status {
    guard(|| borrow(device, "device")?.device.synchronize())
}

/// Blocks until all work enqueued so far on `stream_handle` is complete: a CUstream (equal to a
/// cudaStream_t) that its user created on the device, such as a CuPy stream's `ptr`, which
/// libgrcuda does not own. Returns at once on the simulated backend, where work is complete
/// when it is enqueued. The stream must stay alive until the call returns.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_device_synchronize_stream_handle(
    device: *const grcuda_device,
    stream_handle: u64,
) -> grcuda_status {
    guard(|| unsafe { Stream::synchronize_handle(&borrow(device, "device")?.device, stream_handle) })
}
