// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: where the on-disk cache of compiled kernels is (see `crate::kernels`' disk cache).

use super::{grcuda_status, guard, guard_value};
use crate::error::Error;
use crate::kernels::DiskCache;
use crate::kernels::disk_cache::check_directory;
use std::cell::RefCell;
use std::ffi::{CStr, CString, OsStr, c_char};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

thread_local! {
    /// What grcuda_kernel_cache_directory() last returned on this thread.
    static DIRECTORY: RefCell<Option<CString>> = const { RefCell::new(None) };
}

/// Names the directory of the on-disk kernel cache for the whole process, where kernels
/// compiled with NVRTC are kept for later processes. It wins over $GRCUDA_KERNEL_CACHE and the
/// default ($XDG_CACHE_HOME/grcuda/kernels, else ~/.cache/grcuda/kernels); NULL goes back to
/// those. `directory` must be an absolute path; it is created when the first kernel is stored
/// there, and one that cannot be written costs a warning through the log callback, never a
/// failed launch. Kernels already loaded stay loaded. An empty or relative path, or one
/// naming something other than a directory (a file), is GRCUDA_STATUS_INVALID_ARGUMENT and
/// leaves the directory as it was. $GRCUDA_KERNEL_CACHE follows the same rules: unless a
/// directory was set here, grcuda_device_open() refuses a bad value of it with
/// GRCUDA_STATUS_INVALID_ARGUMENT, naming the variable.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_set_kernel_cache_directory(directory: *const c_char) -> grcuda_status {
    guard(|| {
        if directory.is_null() {
            DiskCache::set_directory(None);
            return Ok(());
        }
        let bytes = unsafe { CStr::from_ptr(directory) }.to_bytes();
        let path = PathBuf::from(OsStr::from_bytes(bytes));
        if bytes.is_empty() {
            return Err(Error::invalid_argument(
                "the kernel cache directory is empty: name an absolute path, or pass NULL for \
                 $GRCUDA_KERNEL_CACHE or the default",
            ));
        }
        check_directory(&path)?;
        DiskCache::set_directory(Some(path));
        Ok(())
    })
}

/// The directory of the on-disk kernel cache now: the one grcuda_set_kernel_cache_directory()
/// set, else the one from the environment; NULL when there is none (no variable set and no
/// HOME). The string stays valid until the calling thread's next call of this function.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_kernel_cache_directory() -> *const c_char {
    guard_value(std::ptr::null(), || {
        let directory = DiskCache::in_use().map(|cache| {
            CString::new(cache.directory().as_os_str().as_bytes()).expect("a path from C or the environment has no NUL")
        });
        DIRECTORY.with(|slot| {
            let mut slot = slot.borrow_mut();
            *slot = directory;
            slot.as_ref().map_or(std::ptr::null(), |text| text.as_ptr())
        })
    })
}
