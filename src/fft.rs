// SPDX-License-Identifier: GPL-3.0-or-later

//! FFT: batched one-dimensional transforms through cuFFT, or rustfft on the simulated backend.
//!
//! [`execute`] runs `batch` transforms of `size` points each, stored back to back, on the
//! caller's stream: complex-to-complex forward and inverse, and real-to-complex forward, which
//! gives size/2 + 1 bins per vector (the non-redundant half: cuFFT's and FFTW's convention).
//! Nothing is normalised: a forward then an inverse transform multiplies by `size`, as FFTW and
//! GNU Radio's fft_vcc do. Forward uses e^(-2πi·jk/size), inverse e^(+2πi·jk/size).
//!
//! Plans are made on first use of a (device, size, batch, transform) and kept for the life of
//! the process together with their cuFFT work area, so a flowgraph should use a few shapes
//! rather than many; forward and inverse share one complex plan. A plan is shared by all
//! streams that need its shape, but cuFFT runs a plan on one stream at a time (cufftSetStream)
//! and its work area is busy until the transform ends on the GPU. So an execution holds the
//! plan's mutex while it sets the stream and enqueues, and first makes its stream wait for the
//! plan's previous execution (an event): two streams never run one plan at the same time.
//! The simulated backend keeps one rustfft planner and the plans it made, by size and
//! direction, and transforms immediately. Its host memory runs out with OutOfMemory, never an
//! abort: before rustfft plans (allocating inside, infallibly) the memory it may need is
//! checked to be available, and the work vectors are allocated fallibly.
//!
//! cuFFT is loaded at first use; where it is missing, CUDA transforms fail with Unsupported and
//! say how to install it.

use crate::device::Device;
use crate::error::{Error, ErrorKind, Result};
use crate::event::{Event, HostWait};
use crate::fallible;
use crate::kernels::{Complex32, validate};
use crate::stream::Stream;
use cudarc::cufft::{result, result::CufftError, sys};
use rustfft::{FftDirection, FftPlanner};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, OnceLock};

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

/// Runs `batch` transforms of `size` points on `stream`, without waiting for them.
///
/// `input` holds `size * batch` items (complex64, or float32 for [`FftKind::RealForward`]) and
/// `output` receives `output_length(size) * batch` complex64 items. A complex transform may be
/// in place (`output == input`); a real one may not. A `batch` of 0 does nothing.
///
/// # Safety
/// Both addresses must be device memory of the stream's device (host memory on the simulated
/// backend) of the sizes above, valid until the transform completes, and nothing else may
/// write them meanwhile.
pub unsafe fn execute(
    stream: &Stream,
    kind: FftKind,
    size: usize,
    batch: usize,
    input: u64,
    output: u64,
) -> Result<()> {
    if size == 0 {
        return Err(Error::invalid_argument("FFT size is 0: pass the number of points per transform"));
    }
    if batch == 0 {
        return Ok(());
    }
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
    if stream.device().is_simulated() {
        return unsafe { simulated_execute(kind, size, batch, input, output) };
    }
    unsafe { cuda_execute(stream, kind, size, batch, input, output) }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every value behind these mutexes stays consistent if a holder panicked.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

// ---- simulated backend ----

/// The memory reserved (and given back) before the simulated backend plans a transform of
/// `size` points, so that a plan too large for the host fails with OutOfMemory instead of
/// aborting inside rustfft; `None` when the size overflows. Public for tests.
///
/// What rustfft 6.4's planner allocates at its peak, in complex values of one transform
/// (tests/fft_memory.rs checks the bound on every run): about `size` (twiddles) when the part
/// of `size` left after taking out its factors 2 and 3, `rest`, is small; otherwise it may
/// plan a transform of `rest` points with Bluestein's or Rader's algorithm, which costs up to
/// 10.6 * `rest` (Bluestein's planning runs a transform of up to 4 * `rest` points). So:
/// 2 * size + 12 * rest complex values, plus 64 KiB for the fixed costs of tiny sizes.
pub fn simulated_plan_bytes(size: usize) -> Option<usize> {
    let mut rest = size.max(1);
    for factor in [2, 3] {
        while rest % factor == 0 {
            rest /= factor;
        }
    }
    let values = size.checked_mul(2)?.checked_add(rest.checked_mul(12)?)?;
    values.checked_mul(size_of::<Complex32>())?.checked_add(64 << 10)
}

/// rustfft's planner and the plans made so far, by size and direction (inverse or not).
struct SimulatedPlans {
    planner: FftPlanner<f32>,
    plans: HashMap<(usize, bool), Arc<dyn rustfft::Fft<f32>>>,
}

static SIMULATED_PLANS: LazyLock<Mutex<SimulatedPlans>> =
    LazyLock::new(|| Mutex::new(SimulatedPlans { planner: FftPlanner::new(), plans: HashMap::new() }));

/// The plan for `size` points, made on first use. Planning allocates inside rustfft, where
/// running out of memory would abort the process: the memory it may need is checked first.
fn simulated_plan(size: usize, inverse: bool) -> Result<Arc<dyn rustfft::Fft<f32>>> {
    let mut cache = lock(&SIMULATED_PLANS);
    if let Some(plan) = cache.plans.get(&(size, inverse)) {
        return Ok(plan.clone());
    }
    fallible::ensure_available(simulated_plan_bytes(size), &format!("planning a {size}-point FFT"))?;
    cache.plans.try_reserve(1).map_err(|_| fallible::out_of_host_memory("the FFT plan cache", None))?;
    let direction = if inverse { FftDirection::Inverse } else { FftDirection::Forward };
    let plan = cache.planner.plan_fft(size, direction);
    cache.plans.insert((size, inverse), plan.clone());
    Ok(plan)
}

/// # Safety
/// As for [`execute`], on host memory.
unsafe fn simulated_execute(kind: FftKind, size: usize, batch: usize, input: u64, output: u64) -> Result<()> {
    let fft = simulated_plan(size, kind == FftKind::Inverse)?;
    let output_length = kind.output_length(size);
    let mut buffer = fallible::vec_filled(size, Complex32::default(), &format!("a {size}-point FFT's work vector"))?;
    let scratch_length = fft.get_inplace_scratch_len();
    let mut scratch =
        fallible::vec_filled(scratch_length, Complex32::default(), &format!("a {size}-point FFT's scratch space"))?;
    for vector in 0..batch {
        // Copying each vector in before transforming makes in-place calls safe.
        let first = vector * size;
        for (index, value) in buffer.iter_mut().enumerate() {
            *value = match kind {
                FftKind::RealForward => Complex32::new(unsafe { (input as *const f32).add(first + index).read() }, 0.0),
                _ => unsafe { (input as *const Complex32).add(first + index).read() },
            };
        }
        fft.process_with_scratch(&mut buffer, &mut scratch);
        let destination = unsafe { (output as *mut Complex32).add(vector * output_length) };
        unsafe { std::ptr::copy_nonoverlapping(buffer.as_ptr(), destination, output_length) };
    }
    Ok(())
}

// ---- CUDA backend ----

/// cufft.h's CUFFT_FORWARD and CUFFT_INVERSE.
const CUFFT_FORWARD: i32 = -1;
const CUFFT_INVERSE: i32 = 1;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct PlanKey {
    ordinal: usize,
    size: usize,
    batch: usize,
    real_input: bool,
}

/// A cuFFT plan handle, destroyed on drop.
struct PlanHandle(sys::cufftHandle);

impl Drop for PlanHandle {
    fn drop(&mut self) {
        let _ = unsafe { result::destroy(self.0) };
    }
}

struct CudaPlan {
    handle: PlanHandle,
    /// Recorded after each execution; the next execution's stream waits for it.
    last_execution: Event,
}

static PLANS: LazyLock<Mutex<HashMap<PlanKey, Arc<Mutex<CudaPlan>>>>> = LazyLock::new(Default::default);

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

impl CudaPlan {
    fn new(device: &Device, key: PlanKey) -> Result<CudaPlan> {
        let too_large = |what: &str, value: usize| {
            Error::invalid_argument(format!("FFT {what} {value} is too large for cuFFT (at most {})", i64::MAX))
        };
        let mut size = [i64::try_from(key.size).map_err(|_| too_large("size", key.size))?];
        let batch = i64::try_from(key.batch).map_err(|_| too_large("batch", key.batch))?;
        let transform = if key.real_input { sys::cufftType::CUFFT_R2C } else { sys::cufftType::CUFFT_C2C };
        device.bind()?;
        let handle = PlanHandle(result::create().map_err(|e| cufft_error("cufftCreate", e))?);
        // NULL embeddings: the basic layout, vectors back to back (input distance size, output
        // distance output_length(size)).
        let null = std::ptr::null_mut();
        unsafe { result::make_plan_many64(handle.0, 1, size.as_mut_ptr(), null, 1, 0, null, 1, 0, transform, batch) }
            .map_err(|e| cufft_error(&format!("cufftMakePlanMany64(size {}, batch {})", key.size, key.batch), e))?;
        Ok(CudaPlan { handle, last_execution: Event::new(device, HostWait::Spin)? })
    }
}

fn cuda_plan(device: &Device, key: PlanKey) -> Result<Arc<Mutex<CudaPlan>>> {
    let mut plans = lock(&PLANS);
    if let Some(plan) = plans.get(&key) {
        return Ok(plan.clone());
    }
    ensure_cufft_loaded()?;
    let plan = Arc::new(Mutex::new(CudaPlan::new(device, key)?));
    plans.insert(key, plan.clone());
    Ok(plan)
}

/// # Safety
/// As for [`execute`].
unsafe fn cuda_execute(
    stream: &Stream,
    kind: FftKind,
    size: usize,
    batch: usize,
    input: u64,
    output: u64,
) -> Result<()> {
    let device = stream.device();
    let key = PlanKey { ordinal: device.info().ordinal, size, batch, real_input: kind == FftKind::RealForward };
    let plan = cuda_plan(device, key)?;
    let plan = lock(&plan);
    stream.wait(&plan.last_execution)?;
    device.bind()?;
    let handle = plan.handle.0;
    unsafe { result::set_stream(handle, stream.raw() as sys::cudaStream_t) }
        .map_err(|e| cufft_error("cufftSetStream", e))?;
    let output = output as *mut sys::cufftComplex;
    match kind {
        FftKind::Forward => unsafe { result::exec_c2c(handle, input as *mut sys::cufftComplex, output, CUFFT_FORWARD) },
        FftKind::Inverse => unsafe { result::exec_c2c(handle, input as *mut sys::cufftComplex, output, CUFFT_INVERSE) },
        FftKind::RealForward => unsafe { result::exec_r2c(handle, input as *mut sys::cufftReal, output) },
    }
    .map_err(|e| cufft_error(&format!("cuFFT {kind:?} transform (size {size}, batch {batch})"), e))?;
    stream.record(&plan.last_execution)
}
