// SPDX-License-Identifier: GPL-3.0-or-later

//! $GRCUDA_KERNEL_CACHE is checked as the directory set through the C API is: a relative
//! path or one naming a file is refused when a device is opened, with the variable, its
//! value and the fix in the message, even on the simulated backend (which compiles nothing),
//! unless the application set the directory, which wins over the variable. This test is
//! alone in its binary: it changes the process's environment.

use grcuda::ffi::*;
use std::ffi::{CStr, CString};
use std::ptr::null_mut;

fn set_variable(value: &str) {
    // Safety: no other thread of this binary reads the environment meanwhile.
    unsafe { std::env::set_var("GRCUDA_KERNEL_CACHE", value) };
}

/// Opens simulated device 0 and frees it: the status, and the error message on failure.
fn open_device() -> Result<(), String> {
    let mut device = null_mut();
    let status = grcuda_device_open(0, GRCUDA_BACKEND_SIMULATED, &mut device);
    grcuda_device_free(device);
    match status {
        grcuda_status::GRCUDA_STATUS_OK => Ok(()),
        grcuda_status::GRCUDA_STATUS_INVALID_ARGUMENT => {
            Err(unsafe { CStr::from_ptr(grcuda_last_error_message()) }.to_str().unwrap().to_string())
        }
        other => panic!("grcuda_device_open: {other:?}"),
    }
}

fn directory_in_use() -> Option<String> {
    let text = grcuda_kernel_cache_directory();
    (!text.is_null()).then(|| unsafe { CStr::from_ptr(text) }.to_str().unwrap().to_string())
}

#[test]
fn the_variable_is_checked_as_the_directory_set_is() {
    let scratch = std::env::temp_dir().join(format!("grcuda-kernel-cache-environment-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    let file = scratch.join("a-file");
    std::fs::write(&file, b"not a directory").unwrap();

    set_variable("kernels");
    let message = open_device().unwrap_err();
    assert!(
        message.contains("GRCUDA_KERNEL_CACHE=\"kernels\" is refused")
            && message.contains("is relative: name an absolute path")
            && message.ends_with("or unset it"),
        "{message}"
    );
    assert_eq!(directory_in_use(), None, "a refused variable moves the cache nowhere");

    set_variable(file.to_str().unwrap());
    let message = open_device().unwrap_err();
    assert!(
        message.contains(&format!("GRCUDA_KERNEL_CACHE=\"{}\" is refused", file.display()))
            && message.contains("names something that is not a directory"),
        "{message}"
    );

    // The directory the application sets wins over the variable, which then does not matter.
    let set = scratch.join("set");
    let set_text = CString::new(set.to_str().unwrap()).unwrap();
    assert_eq!(grcuda_set_kernel_cache_directory(set_text.as_ptr()), grcuda_status::GRCUDA_STATUS_OK);
    open_device().unwrap();
    assert_eq!(directory_in_use().as_deref(), set.to_str());
    assert_eq!(grcuda_set_kernel_cache_directory(std::ptr::null()), grcuda_status::GRCUDA_STATUS_OK);

    let absolute = scratch.join("not-made-yet");
    set_variable(absolute.to_str().unwrap());
    open_device().unwrap();
    assert_eq!(directory_in_use().as_deref(), absolute.to_str());

    set_variable("");
    open_device().expect("an empty variable is an unset one");
    std::fs::remove_dir_all(&scratch).unwrap();
}
