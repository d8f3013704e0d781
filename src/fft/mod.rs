// SPDX-License-Identifier: GPL-3.0-or-later

//! FFT: batched one-dimensional transforms through cuFFT, or rustfft on the simulated backend.
//!
//! An [`FftPlan`] is made for one stream, one [`FftKind`] and one size, and belongs to its
//! user (a GNU Radio block makes one in its constructor). [`FftPlan::execute`] enqueues
//! `batch` transforms of `size` points each, stored back to back, on the plan's stream:
//! complex-to-complex forward and inverse, and real-to-complex forward, which gives
//! size/2 + 1 bins per vector (the non-redundant half: cuFFT's and FFTW's convention).
//! Nothing is normalised: a forward then an inverse transform multiplies by `size`, as FFTW
//! and GNU Radio's fft_vcc do. Forward uses e^(-2πi·jk/size), inverse e^(+2πi·jk/size).
//!
//! Invariants: a plan is used by one thread at a time (`execute` takes `&mut self`) and
//! enqueues only on its own stream, so what it owns (cuFFT handles and their work areas, the
//! simulated backend's scratch space) is used in stream order and needs no lock and no event.
//! It keeps its stream alive, and dropping it waits for the stream before cuFFT frees the
//! work areas that queued transforms may still use. Every argument is checked here, before
//! either backend sees it; `cuda` runs the checked transforms through cuFFT and `simulated`
//! through rustfft.

mod cuda;
mod simulated;

pub use simulated::simulated_plan_bytes;

use crate::driver_calls;
use crate::error::{Error, Result};
use crate::kernels::{Complex32, validate};
use crate::stream::Stream;
use std::sync::Arc;

/// Which transform to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FftKind {
    /// Complex to complex, e^(-2πi·jk/size).
    Forward,
    /// Complex to complex, e^(+2πi·jk/size), not divided by size.
    Inverse,
    /// Real (float32) to complex, forward; size/2 + 1 output bins per vector.
    RealForward,
}

impl FftKind {
    /// Items in one output vector: `size` for complex input, `size / 2 + 1` for real input.
    pub fn output_length(self, size: usize) -> usize {
        match self {
            FftKind::Forward | FftKind::Inverse => size,
            FftKind::RealForward => size / 2 + 1,
        }
    }
}

/// The backend's half of a plan.
enum Transforms {
    Cuda(cuda::CufftPlan),
    Simulated(simulated::RustfftPlan),
}

/// Transforms of one kind and size on one stream, in any batch.
///
/// On CUDA the plan keeps one cuFFT handle per batch it has run, made at that batch's first
/// execution and kept until the plan is dropped, so its users should run few batches (GNU
/// Radio's FFT block runs powers of two). On the simulated backend it plans with rustfft when
/// it is made.
pub struct FftPlan {
    // Declared before the stream, so the cuFFT handles are destroyed before the stream they
    // are bound to.
    transforms: Transforms,
    stream: Arc<Stream>,
    kind: FftKind,
    size: usize,
}

impl FftPlan {
    /// A plan for transforms of `size` points on `stream`. A size of 0 is InvalidArgument;
    /// cuFFT missing is Unsupported; on the simulated backend, a plan that does not fit in
    /// host memory is OutOfMemory.
    pub fn new(stream: &Arc<Stream>, kind: FftKind, size: usize) -> Result<FftPlan> {
        if size == 0 {
            return Err(Error::invalid_argument("FFT size is 0: pass the number of points per transform"));
        }
        let transforms = if stream.device().is_simulated() {
            Transforms::Simulated(simulated::RustfftPlan::new(kind, size)?)
        } else {
            Transforms::Cuda(cuda::CufftPlan::new(size)?)
        };
        Ok(FftPlan { transforms, stream: stream.clone(), kind, size })
    }

    /// Enqueues `batch` transforms on the plan's stream, without waiting for them.
    ///
    /// `input` holds `size * batch` items (complex64, or float32 for
    /// [`FftKind::RealForward`]) and `output` receives `output_length(size) * batch` complex64
    /// items. A complex transform may be in place (`output == input`); a real one may not. A
    /// `batch` of 0 does nothing.
    ///
    /// # Safety
    /// Both addresses must be device memory of the stream's device (host memory on the
    /// simulated backend) of the sizes above, valid until the transforms complete, and
    /// nothing else may write them meanwhile.
    pub unsafe fn execute(&mut self, batch: usize, input: u64, output: u64) -> Result<()> {
        if batch == 0 {
            return Ok(());
        }
        let (kind, size) = (self.kind, self.size);
        let input_count = validate::product("FFT input", &[size, batch])?;
        let output_count = validate::product("FFT output", &[kind.output_length(size), batch])?;
        let output_range = validate::array::<Complex32>("FFT output", output, output_count)?;
        if kind == FftKind::RealForward {
            let input_range = validate::array::<f32>("FFT input", input, input_count)?;
            validate::disjoint(("FFT input", &input_range), ("FFT output", &output_range))?;
        } else {
            let input_range = validate::array::<Complex32>("FFT input", input, input_count)?;
            validate::same_or_disjoint(("FFT input", &input_range), ("FFT output", &output_range))?;
        }
        driver_calls::count();
        match &mut self.transforms {
            Transforms::Cuda(plan) => unsafe { plan.execute(&self.stream, kind, batch, input, output) },
            Transforms::Simulated(plan) => unsafe { plan.execute(kind, batch, input, output) },
        }
    }
}

impl Drop for FftPlan {
    fn drop(&mut self) {
        if let Transforms::Cuda(plan) = &mut self.transforms {
            plan.release(&self.stream);
        }
    }
}
