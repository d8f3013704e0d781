// SPDX-License-Identifier: GPL-3.0-or-later

//! The kernel cache's directory set through the C API (grcuda_set_kernel_cache_directory) is
//! the one the library uses: the getter reports it, bad paths are refused with a message and
//! change nothing, NULL goes back to the environment's, and on a GPU the first launch stores
//! its compiled program there (on the simulated backend nothing is compiled, so nothing may
//! be written). This test is alone in its binary: the directory is process-wide, and a
//! program is compiled once per process.

use grcuda::ffi::*;
use std::ffi::{CStr, CString};
use std::path::{Path, PathBuf};
use std::ptr::null_mut;

fn directory_in_use() -> Option<String> {
    let text = grcuda_kernel_cache_directory();
    (!text.is_null()).then(|| unsafe { CStr::from_ptr(text) }.to_str().unwrap().to_string())
}

fn set(directory: &str) -> grcuda_status {
    grcuda_set_kernel_cache_directory(CString::new(directory).unwrap().as_ptr())
}

fn last_error() -> String {
    unsafe { CStr::from_ptr(grcuda_last_error_message()) }.to_str().unwrap().to_string()
}

/// Multiplies 1000 floats by 2 on the device the environment picks; returns its backend.
fn launch_a_kernel() -> u32 {
    let mut device = null_mut();
    assert_eq!(grcuda_device_open(0, GRCUDA_BACKEND_AUTO, &mut device), grcuda_status::GRCUDA_STATUS_OK);
    let mut info = unsafe { std::mem::zeroed() };
    assert_eq!(grcuda_device_get_info(device, &mut info), grcuda_status::GRCUDA_STATUS_OK);
    let (mut stream, mut memory) = (null_mut(), null_mut());
    assert_eq!(grcuda_stream_new(device, &mut stream), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(grcuda_memory_new(device, GRCUDA_MEMORY_DEVICE, 4000, &mut memory), grcuda_status::GRCUDA_STATUS_OK);
    let address = grcuda_memory_address(memory);
    assert_eq!(grcuda_multiply_const_ff(stream, address, address, 1000, 2.0), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(grcuda_stream_synchronize(stream), grcuda_status::GRCUDA_STATUS_OK);
    grcuda_memory_free(memory);
    grcuda_stream_free(stream);
    grcuda_device_free(device);
    info.backend
}

fn entries(directory: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(directory).map_or(Vec::new(), |list| list.map(|entry| entry.unwrap().path()).collect())
}

#[test]
fn the_directory_set_is_the_one_used() {
    let from_environment = directory_in_use();
    if let Some(variable) = std::env::var("GRCUDA_KERNEL_CACHE").ok().filter(|value| !value.is_empty()) {
        assert_eq!(from_environment.as_deref(), Some(variable.as_str()), "GRCUDA_KERNEL_CACHE is the default");
    }

    let directory = std::env::temp_dir().join(format!("grcuda-kernel-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    let directory_text = directory.to_str().unwrap();
    assert_eq!(set(directory_text), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(directory_in_use().as_deref(), Some(directory_text));

    assert_eq!(set(""), grcuda_status::GRCUDA_STATUS_INVALID_ARGUMENT);
    assert!(last_error().contains("empty"), "{}", last_error());
    assert_eq!(set("kernels"), grcuda_status::GRCUDA_STATUS_INVALID_ARGUMENT);
    assert!(last_error().contains("kernels is relative"), "{}", last_error());
    let file = directory.with_extension("file");
    std::fs::write(&file, b"not a directory").unwrap();
    assert_eq!(set(file.to_str().unwrap()), grcuda_status::GRCUDA_STATUS_INVALID_ARGUMENT);
    assert!(last_error().contains("is not a directory"), "{}", last_error());
    std::fs::remove_file(&file).unwrap();
    assert_eq!(directory_in_use().as_deref(), Some(directory_text), "a refused path changes nothing");

    let backend = launch_a_kernel();
    let stored = entries(&directory);
    if backend == GRCUDA_BACKEND_CUDA {
        assert!(
            stored.iter().any(|path| path.to_string_lossy().contains("multiply_const")),
            "the first launch stores its program in {}: {stored:?}",
            directory.display()
        );
    } else {
        assert!(stored.is_empty(), "the simulated backend compiles nothing, yet {stored:?} appeared");
    }

    assert_eq!(grcuda_set_kernel_cache_directory(std::ptr::null()), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(directory_in_use(), from_environment, "NULL goes back to the environment's directory");
    let _ = std::fs::remove_dir_all(&directory);
}
