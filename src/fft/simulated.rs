// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's half of an FFT plan: rustfft on host memory, run when enqueued.
//!
//! A plan keeps its rustfft plan and the vectors a transform needs, all made with the plan,
//! so an execution allocates nothing. Complex transforms run in the output itself (the input
//! copied there first unless the transform is in place), the whole batch in one rustfft call;
//! real ones go through a work vector, because the output holds only size/2 + 1 of the bins.
//! Host memory running out is OutOfMemory, never an abort: rustfft's planner allocates
//! inside, infallibly, so before it plans, the memory it may need is checked to be available
//! ([`simulated_plan_bytes`]), and the vectors are allocated fallibly.

use super::FftKind;
use crate::error::Result;
use crate::fallible;
use crate::kernels::Complex32;
use rustfft::{FftDirection, FftPlanner};
use std::sync::Arc;

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

pub(super) struct RustfftPlan {
    fft: Arc<dyn rustfft::Fft<f32>>,
    scratch: Vec<Complex32>,
    /// One vector of a real transform's input, widened to complex; empty for complex kinds.
    work: Vec<Complex32>,
}

impl RustfftPlan {
    pub(super) fn new(kind: FftKind, size: usize) -> Result<RustfftPlan> {
        fallible::ensure_available(simulated_plan_bytes(size), &format!("planning a {size}-point FFT"))?;
        let direction = if kind == FftKind::Inverse { FftDirection::Inverse } else { FftDirection::Forward };
        let fft = FftPlanner::new().plan_fft(size, direction);
        let scratch = fallible::vec_filled(
            fft.get_inplace_scratch_len(),
            Complex32::default(),
            &format!("a {size}-point FFT's scratch space"),
        )?;
        let work_length = if kind == FftKind::RealForward { size } else { 0 };
        let work =
            fallible::vec_filled(work_length, Complex32::default(), &format!("a {size}-point FFT's work vector"))?;
        Ok(RustfftPlan { fft, scratch, work })
    }

    /// # Safety
    /// As for [`super::FftPlan::execute`], with the arguments checked, on host memory.
    pub(super) unsafe fn execute(&mut self, kind: FftKind, batch: usize, input: u64, output: u64) -> Result<()> {
        let size = self.fft.len();
        if kind != FftKind::RealForward {
            let items = size * batch;
            let output = output as *mut Complex32;
            // The checks allow only identical or disjoint arrays.
            if input != output as u64 {
                unsafe { std::ptr::copy_nonoverlapping(input as *const Complex32, output, items) };
            }
            let vectors = unsafe { std::slice::from_raw_parts_mut(output, items) };
            self.fft.process_with_scratch(vectors, &mut self.scratch);
            return Ok(());
        }
        let output_length = kind.output_length(size);
        for vector in 0..batch {
            let first = unsafe { (input as *const f32).add(vector * size) };
            for (index, value) in self.work.iter_mut().enumerate() {
                *value = Complex32::new(unsafe { first.add(index).read() }, 0.0);
            }
            self.fft.process_with_scratch(&mut self.work, &mut self.scratch);
            let destination = unsafe { (output as *mut Complex32).add(vector * output_length) };
            unsafe { std::ptr::copy_nonoverlapping(self.work.as_ptr(), destination, output_length) };
        }
        Ok(())
    }
}
