// SPDX-License-Identifier: GPL-3.0-or-later

//! Status codes, the thread-local last error, and the ABI version.

use crate::error::{Error, ErrorKind};
use std::cell::RefCell;
use std::ffi::{CString, c_char};

/// The version of this C ABI. It changes whenever a function, struct or constant changes
/// incompatibly; the shared library's soname carries it (`libgrcuda.so.<ABI>`).
pub const GRCUDA_ABI_VERSION: u32 = 1;

/// Result of every fallible call. Values are stable: new ones are only ever appended.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum grcuda_status {
    /// The call succeeded.
    GRCUDA_STATUS_OK = 0,
    /// An argument was wrong (NULL, zero or overflowing size, unknown enum value, index out of
    /// range, call out of order); the message says which and how to fix it.
    GRCUDA_STATUS_INVALID_ARGUMENT = 1,
    /// No CUDA driver (libcuda.so.1) could be loaded on this machine.
    GRCUDA_STATUS_NO_DRIVER = 2,
    /// The driver loaded but has no device with the requested ordinal.
    GRCUDA_STATUS_NO_DEVICE = 3,
    /// Device or host memory (pinned memory, rings, FFT plans and work space) is exhausted,
    /// or the process's address-space limit is reached; the message says how much was asked
    /// for.
    GRCUDA_STATUS_OUT_OF_MEMORY = 4,
    /// The device, driver or platform lacks a needed feature (VMM, NVRTC, cuFFT).
    GRCUDA_STATUS_UNSUPPORTED = 5,
    /// A kernel failed to compile; the message holds the NVRTC log.
    GRCUDA_STATUS_KERNEL_COMPILE = 6,
    /// Another CUDA, cuFFT or operating-system failure; see grcuda_last_cuda_result().
    GRCUDA_STATUS_CUDA_ERROR = 7,
    /// The queried work is not complete yet (not an error).
    GRCUDA_STATUS_NOT_READY = 8,
    /// A bug in grcuda was caught at the C boundary; the object involved may be unusable.
    GRCUDA_STATUS_PANIC = 9,
}

struct LastError {
    message: CString,
    cuda_result: i32,
}

thread_local! {
    static LAST_ERROR: RefCell<Option<LastError>> = const { RefCell::new(None) };
}

fn store(message: String, cuda_result: i32) {
    // Interior NULs cannot appear in a C string; replace them rather than lose the message.
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|slot| *slot.borrow_mut() = Some(LastError { message, cuda_result }));
}

pub(crate) fn set_last_error(error: &Error) -> grcuda_status {
    store(format!("grcuda: {}", error.message()), error.cuda_result());
    match error.kind() {
        ErrorKind::InvalidArgument => grcuda_status::GRCUDA_STATUS_INVALID_ARGUMENT,
        ErrorKind::NoDriver => grcuda_status::GRCUDA_STATUS_NO_DRIVER,
        ErrorKind::NoDevice => grcuda_status::GRCUDA_STATUS_NO_DEVICE,
        ErrorKind::OutOfMemory => grcuda_status::GRCUDA_STATUS_OUT_OF_MEMORY,
        ErrorKind::Unsupported => grcuda_status::GRCUDA_STATUS_UNSUPPORTED,
        ErrorKind::KernelCompile => grcuda_status::GRCUDA_STATUS_KERNEL_COMPILE,
        ErrorKind::Cuda => grcuda_status::GRCUDA_STATUS_CUDA_ERROR,
    }
}

pub(crate) fn set_last_panic(what: &str) -> grcuda_status {
    store(format!("grcuda: internal error (panic): {what}; please report it"), 0);
    grcuda_status::GRCUDA_STATUS_PANIC
}

/// The ABI version of the loaded library. Compare it with GRCUDA_ABI_VERSION from the
/// header you compiled against; they differ only when the wrong library was loaded.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_abi_version() -> u32 {
    GRCUDA_ABI_VERSION
}

/// A static, never-NULL name for a status value ("GRCUDA_STATUS_OK"); unknown values give
/// "GRCUDA_STATUS_UNKNOWN". Takes an int so that any value from C is safe to pass.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_status_name(status: i32) -> *const c_char {
    let name: &'static std::ffi::CStr = match status {
        0 => c"GRCUDA_STATUS_OK",
        1 => c"GRCUDA_STATUS_INVALID_ARGUMENT",
        2 => c"GRCUDA_STATUS_NO_DRIVER",
        3 => c"GRCUDA_STATUS_NO_DEVICE",
        4 => c"GRCUDA_STATUS_OUT_OF_MEMORY",
        5 => c"GRCUDA_STATUS_UNSUPPORTED",
        6 => c"GRCUDA_STATUS_KERNEL_COMPILE",
        7 => c"GRCUDA_STATUS_CUDA_ERROR",
        8 => c"GRCUDA_STATUS_NOT_READY",
        9 => c"GRCUDA_STATUS_PANIC",
        _ => c"GRCUDA_STATUS_UNKNOWN",
    };
    name.as_ptr()
}

/// The message of the most recent failed call on the calling thread, or NULL if none failed
/// yet. It stays valid until the next failed call on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_last_error_message() -> *const c_char {
    LAST_ERROR.with(|slot| slot.borrow().as_ref().map_or(std::ptr::null(), |e| e.message.as_ptr()))
}

/// The raw CUresult of the most recent failed call on the calling thread, or 0 when that
/// failure did not come from the CUDA driver.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_last_cuda_result() -> i32 {
    LAST_ERROR.with(|slot| slot.borrow().as_ref().map_or(0, |e| e.cuda_result))
}
