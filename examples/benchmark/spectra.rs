// SPDX-License-Identifier: GPL-3.0-or-later

//! logpwrfft's spectrum kernels alone against cuFFT: window, FFT, |X|^2, decibels and the
//! fft-shift of complex frames (`kernels::logpwrfft_spectra`) against the bare batched
//! complex-to-complex transform of the same frames, both back to back on one stream at 2^22
//! samples per call, through arrays of [`CALLS_PER_ARRAY`](super::CALLS_PER_ARRAY) calls' worth.

use super::support::device_memory::Harness;
use super::{CALLS_PER_ARRAY, Settings, time_calls};
use grcuda::Device;
use grcuda::fft::{FftKind, FftPlan};
use grcuda::kernels::{self, Complex32};
use grcuda::memory::DeviceAllocation;

/// Samples per call.
const SAMPLES_PER_CALL: usize = 1 << 22;

/// Samples per second of `call(slot)` over `settings.volume` bytes of complex input.
fn rate(harness: &Harness, settings: &Settings, call: impl FnMut(usize)) -> f64 {
    let calls = (settings.volume / size_of::<Complex32>()).div_ceil(SAMPLES_PER_CALL);
    (calls * SAMPLES_PER_CALL) as f64 / time_calls(settings, &harness.stream, calls, call)
}

/// The spectrum kernels' and cuFFT's rates, in samples per second, for frames of `length`.
fn spectra_rates(harness: &Harness, settings: &Settings, length: usize) -> (f64, f64) {
    let frames = SAMPLES_PER_CALL / length;
    let samples = CALLS_PER_ARRAY * SAMPLES_PER_CALL;
    let input = harness.allocate::<Complex32>(samples);
    let window = harness.upload(&vec![1.0f32; length]);
    let twiddles = harness.upload(&kernels::logpwrfft_spectra_twiddles(length).unwrap());
    let scratch = harness.allocate::<Complex32>(kernels::logpwrfft_spectra_scratch(length, frames).unwrap());
    let decibels = harness.allocate::<f32>(samples);
    let state = harness.allocate::<f32>(length);
    let at = |allocation: &DeviceAllocation, slot: usize, item_bytes: usize| {
        allocation.address() + (slot * SAMPLES_PER_CALL * item_bytes) as u64
    };
    // Safety of both: the arrays hold CALLS_PER_ARRAY calls' worth and slot < CALLS_PER_ARRAY.
    let spectra = rate(harness, settings, |slot| unsafe {
        kernels::logpwrfft_spectra::<Complex32>(
            &harness.stream,
            at(&input, slot, 8),
            length,
            window.address(),
            twiddles.address(),
            scratch.address(),
            at(&decibels, slot, 4),
            state.address(),
            length,
            frames,
            true,
            1.0,
            0.0,
        )
        .unwrap()
    });
    let spectrum = harness.allocate::<Complex32>(samples);
    let mut plan = FftPlan::new(&harness.stream, FftKind::Forward, length).unwrap();
    let transforms = rate(harness, settings, |slot| unsafe {
        plan.execute(frames, at(&input, slot, 8), at(&spectrum, slot, 8)).unwrap()
    });
    (spectra, transforms)
}

pub(crate) fn spectra_table(device: &Device, settings: &Settings) {
    let harness = Harness::on_device(device);
    println!(
        "### logpwrfft's spectrum kernels alone against cuFFT (complex frames, 2^22 samples per call, \
         Gsamples/s)\n"
    );
    println!("| frame length | spectrum kernels | cuFFT C2C | spectra / cuFFT |");
    println!("|---:|---:|---:|---:|");
    for length in [64, 256, 1024, 2048, 4096, 8192, 16384, 65536, 1 << 20] {
        let (spectra, transforms) = spectra_rates(&harness, settings, length);
        println!(
            "| {length} | {:.1} | {:.1} | {:.0}% |",
            spectra / 1e9,
            transforms / 1e9,
            100.0 * spectra / transforms
        );
    }
    println!();
}
