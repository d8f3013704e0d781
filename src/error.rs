// SPDX-License-Identifier: GPL-3.0-or-later

//! Errors of the safe core.
//!
//! Every fallible operation returns [`Result`]. An [`Error`] carries the category a caller can
//! act on ([`ErrorKind`]), a message that says what was wrong and how to fix it, and, when CUDA
//! reported the failure, the raw `CUresult`. The C API maps the kind to a status code and
//! keeps the message for `grcuda_last_error_message()`.

use cudarc::driver::{DriverError, sys::CUresult};
use std::fmt;

/// What kind of failure happened; decides the status code the C API returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The caller passed something wrong: NULL, a zero or overflowing size, an unknown
    /// transfer type, an index out of range, a call out of order.
    InvalidArgument,
    /// No CUDA driver library (libcuda.so.1) could be loaded.
    NoDriver,
    /// The driver loaded but there is no usable device with the requested ordinal.
    NoDevice,
    /// Device or host memory is exhausted (or the address-space limit reached).
    OutOfMemory,
    /// The device, driver or platform lacks a needed feature (VMM, host registration, NVRTC).
    Unsupported,
    /// A kernel failed to compile with NVRTC.
    KernelCompile,
    /// Any other CUDA driver, cuFFT or operating-system failure.
    Cuda,
}

/// An error with a message for people and a kind for programs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
    cuda_result: i32,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into(), cuda_result: 0 }
    }

    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }

    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Unsupported, message)
    }

    /// Wraps a failed driver call. `what` names the operation ("cuMemMap of the second
    /// half"); the kind follows the CUresult so that out-of-memory and missing devices
    /// keep their own status.
    pub fn driver(what: &str, error: DriverError) -> Self {
        let code = error.0;
        let name = error.error_name().map(|s| s.to_string_lossy().into_owned());
        let text = error.error_string().map(|s| s.to_string_lossy().into_owned());
        let description = match (name, text) {
            (Ok(name), Ok(text)) => format!("{name} ({text})"),
            _ => format!("CUresult {}", code as i32),
        };
        let kind = match code {
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => ErrorKind::OutOfMemory,
            CUresult::CUDA_ERROR_NO_DEVICE | CUresult::CUDA_ERROR_INVALID_DEVICE => ErrorKind::NoDevice,
            CUresult::CUDA_ERROR_NOT_SUPPORTED => ErrorKind::Unsupported,
            _ => ErrorKind::Cuda,
        };
        let hint = match kind {
            ErrorKind::OutOfMemory => "; free device memory or ask for smaller buffers (fewer items per buffer)",
            ErrorKind::NoDevice => "; check nvidia-smi and CUDA_VISIBLE_DEVICES",
            _ => "",
        };
        Self { kind, message: format!("{what} failed: {description}{hint}"), cuda_result: code as i32 }
    }

    /// Wraps an operating-system failure (mmap, memfd_create) with the errno text.
    pub fn os(what: &str) -> Self {
        let errno = std::io::Error::last_os_error();
        let kind = match errno.raw_os_error() {
            Some(libc::ENOMEM) => ErrorKind::OutOfMemory,
            _ => ErrorKind::Cuda,
        };
        Self::new(kind, format!("{what} failed: {errno}"))
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// The raw `CUresult` when the driver reported the failure, else 0.
    pub fn cuda_result(&self) -> i32 {
        self.cuda_result
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Names the failed operation in driver errors: `result::init().during("cuInit")`.
pub(crate) trait DriverResultExt<T> {
    fn during(self, what: &str) -> Result<T>;
}

impl<T> DriverResultExt<T> for std::result::Result<T, DriverError> {
    fn during(self, what: &str) -> Result<T> {
        self.map_err(|e| Error::driver(what, e))
    }
}
