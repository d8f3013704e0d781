// SPDX-License-Identifier: GPL-3.0-or-later

//! Without a CUDA driver, asking for the GPU fails with NO_DRIVER and a message that says what
//! to do, and the automatic choice falls back to the simulated backend. On a machine with a
//! driver the first half cannot be exercised; the test says so.

use grcuda::ffi::*;
use std::ffi::CStr;

fn driver_present() -> bool {
    unsafe { cudarc::driver::sys::is_culib_present() }
}

#[test]
fn cuda_backend_without_driver_reports_no_driver() {
    if driver_present() {
        eprintln!("skipped: a CUDA driver is installed here, so the no-driver path cannot run");
        return;
    }
    let mut device = std::ptr::null_mut();
    let status = grcuda_device_open(0, GRCUDA_BACKEND_CUDA, &mut device);
    assert_eq!(status, grcuda_status::GRCUDA_STATUS_NO_DRIVER);
    assert!(device.is_null());
    let message = unsafe { CStr::from_ptr(grcuda_last_error_message()) }.to_string_lossy().into_owned();
    assert!(message.contains("libcuda.so.1") && message.contains("GRCUDA_BACKEND=simulated"), "{message}");
    let mut count = -1;
    assert_eq!(grcuda_device_count(GRCUDA_BACKEND_CUDA, &mut count), grcuda_status::GRCUDA_STATUS_NO_DRIVER);
}

#[test]
fn simulated_backend_always_opens() {
    let mut device = std::ptr::null_mut();
    assert_eq!(grcuda_device_open(0, GRCUDA_BACKEND_SIMULATED, &mut device), grcuda_status::GRCUDA_STATUS_OK);
    let mut info: grcuda_device_info = unsafe { std::mem::zeroed() };
    assert_eq!(grcuda_device_get_info(device, &mut info), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(info.backend, GRCUDA_BACKEND_SIMULATED);
    grcuda_device_free(device);
}
