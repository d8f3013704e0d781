// SPDX-License-Identifier: GPL-3.0-or-later

//! cuFFT's half of an FFT plan: one cuFFT handle per batch, each bound to the plan's stream.
//!
//! A cuFFT handle fixes the batch it transforms, so a plan keeps one per batch it has run,
//! made at that batch's first execution: cufftCreate, cufftMakePlanMany64 (which allocates
//! the handle's work area) and cufftSetStream to the plan's stream, once. An execution is then
//! the context bind and the cufftExec call. The handles are used only on that stream and by
//! one thread at a time (the plan's owner), so a work area is never used by two transforms at
//! once, without a lock or an event. cufftDestroy frees the work area at once, so
//! [`CufftPlan::release`] waits for the stream before destroying the handles.
//!
//! cuFFT is loaded when the first plan is made; where it is missing, making a plan fails with
//! Unsupported and says how to install it.

use super::FftKind;
use crate::error::{Error, ErrorKind, Result};
use crate::fallible;
use crate::stream::Stream;
use cudarc::cufft::{result, result::CufftError, sys};
use std::sync::OnceLock;

/// cufft.h's CUFFT_FORWARD and CUFFT_INVERSE.
const CUFFT_FORWARD: i32 = -1;
const CUFFT_INVERSE: i32 = 1;

/// A cuFFT handle, destroyed on drop. The device's context must be current on the thread
/// that drops it.
struct CufftHandle(sys::cufftHandle);

impl Drop for CufftHandle {
    fn drop(&mut self) {
        let _ = unsafe { result::destroy(self.0) };
    }
}

/// The cuFFT handles of one plan, by batch.
pub(super) struct CufftPlan {
    /// The transform length, as cuFFT takes it.
    size: i64,
    /// A few entries (one per batch run): a linear search is quicker than hashing.
    handles: Vec<(usize, CufftHandle)>,
}

impl CufftPlan {
    pub(super) fn new(size: usize) -> Result<CufftPlan> {
        ensure_cufft_loaded()?;
        Ok(CufftPlan { size: cufft_count("size", size)?, handles: Vec::new() })
    }

    /// # Safety
    /// As for [`super::FftPlan::execute`], with the arguments checked; `stream` is the plan's.
    pub(super) unsafe fn execute(
        &mut self,
        stream: &Stream,
        kind: FftKind,
        batch: usize,
        input: u64,
        output: u64,
    ) -> Result<()> {
        stream.device().bind()?;
        let handle = match self.handles.iter().find(|(planned, _)| *planned == batch) {
            Some((_, handle)) => handle.0,
            None => self.add(stream, kind, batch)?,
        };
        let (input, output) = (input as *mut sys::cufftComplex, output as *mut sys::cufftComplex);
        match kind {
            FftKind::Forward => unsafe { result::exec_c2c(handle, input, output, CUFFT_FORWARD) },
            FftKind::Inverse => unsafe { result::exec_c2c(handle, input, output, CUFFT_INVERSE) },
            FftKind::RealForward => unsafe { result::exec_r2c(handle, input.cast::<sys::cufftReal>(), output) },
        }
        .map_err(|e| cufft_error(&format!("cuFFT {kind:?} transform (size {}, batch {batch})", self.size), e))
    }

    /// Makes the handle for `batch` transforms on `stream`, whose device is current, and
    /// keeps it.
    fn add(&mut self, stream: &Stream, kind: FftKind, batch: usize) -> Result<sys::cufftHandle> {
        let count = cufft_count("batch", batch)?;
        self.handles.try_reserve(1).map_err(|_| fallible::out_of_host_memory("the FFT plan's cuFFT handles", None))?;
        let transform =
            if kind == FftKind::RealForward { sys::cufftType::CUFFT_R2C } else { sys::cufftType::CUFFT_C2C };
        let handle = CufftHandle(result::create().map_err(|e| cufft_error("cufftCreate", e))?);
        let mut lengths = [self.size];
        // NULL embeddings: the basic layout, vectors back to back (input distance size, output
        // distance output_length(size)).
        let null = std::ptr::null_mut();
        unsafe {
            result::make_plan_many64(handle.0, 1, lengths.as_mut_ptr(), null, 1, 0, null, 1, 0, transform, count)
        }
        .map_err(|e| cufft_error(&format!("cufftMakePlanMany64(size {}, batch {batch})", self.size), e))?;
        unsafe { result::set_stream(handle.0, stream.raw() as sys::cudaStream_t) }
            .map_err(|e| cufft_error("cufftSetStream", e))?;
        let raw = handle.0;
        self.handles.push((batch, handle));
        Ok(raw)
    }

    /// Destroys the handles once the transforms queued on `stream` (the plan's) are complete:
    /// they use the handles' work areas, which cufftDestroy frees at once. Errors mean the
    /// context is gone (process exit), and the work with it.
    pub(super) fn release(&mut self, stream: &Stream) {
        if self.handles.is_empty() {
            return;
        }
        let _ = stream.synchronize();
        if stream.device().bind().is_ok() {
            self.handles.clear();
        } else {
            // The context is gone, and cuFFT's resources in it: cufftDestroy would only call
            // into a dead context.
            std::mem::forget(std::mem::take(&mut self.handles));
        }
    }
}

/// `value` as cuFFT's 64-bit count, or InvalidArgument naming `what`.
fn cufft_count(what: &str, value: usize) -> Result<i64> {
    i64::try_from(value).map_err(|_| {
        Error::invalid_argument(format!("FFT {what} {value} is too large for cuFFT (at most {})", i64::MAX))
    })
}

/// Fails with Unsupported, and how to get cuFFT, when libcufft cannot be loaded (cudarc would
/// panic).
fn ensure_cufft_loaded() -> Result<()> {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    if *PRESENT.get_or_init(|| unsafe { sys::is_culib_present() }) {
        return Ok(());
    }
    Err(Error::unsupported(
        "cuFFT could not be loaded (libcufft.so.12 for CUDA 13, or libcufft.so.13): install the \
         CUDA toolkit's cuFFT library (and make sure its lib64 directory is on the loader path), \
         or run `pip install nvidia-cufft` and add its library directory \
         (site-packages/nvidia/cu13/lib) to LD_LIBRARY_PATH",
    ))
}

fn cufft_error(what: &str, error: CufftError) -> Error {
    use sys::cufftResult::*;
    let (kind, hint) = match error.0 {
        CUFFT_ALLOC_FAILED => (ErrorKind::OutOfMemory, "; free device memory or use a smaller size or batch"),
        CUFFT_INVALID_SIZE | CUFFT_INVALID_VALUE => (ErrorKind::InvalidArgument, ""),
        CUFFT_NOT_SUPPORTED => (ErrorKind::Unsupported, ""),
        _ => (ErrorKind::Cuda, ""),
    };
    Error::new(kind, format!("{what} failed: {:?}{hint}", error.0))
}
