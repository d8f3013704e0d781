// SPDX-License-Identifier: GPL-3.0-or-later

//! The polyphase channelizer's kernels alone: the filter bank and the inverse FFT in one
//! kernel (`kernels::pfb_channelizer_spectra`) against the filter bank followed by cuFFT's
//! batched inverse transform in place (the form other channel counts take), and against the
//! copy roofline (input and output bytes at the copy kernel's rate), at 2^22 input items per
//! call, back to back on one stream through arrays of
//! [`CALLS_PER_ARRAY`](super::CALLS_PER_ARRAY) calls' worth.

use super::support::device_memory::Harness;
use super::{CALLS_PER_ARRAY, Settings, time_calls};
use grcuda::Device;
use grcuda::fft::{FftKind, FftPlan};
use grcuda::kernels::{self, ChannelizerShape, Complex32};
use grcuda::memory::DeviceAllocation;

/// Input items per call.
const INPUT_PER_CALL: usize = 1 << 22;

/// Input items per second of `call(slot)` over `settings.volume` bytes of complex input.
fn rate(harness: &Harness, settings: &Settings, call: impl FnMut(usize)) -> f64 {
    let calls = (settings.volume / size_of::<Complex32>()).div_ceil(INPUT_PER_CALL);
    (calls * INPUT_PER_CALL) as f64 / time_calls(settings, &harness.stream, calls, call)
}

/// The one-kernel and the filter-bank-and-cuFFT rates, in input items per second.
fn channelizer_rates(
    harness: &Harness,
    settings: &Settings,
    channels: usize,
    taps_per_branch: usize,
    step_advance: usize,
) -> (f64, f64) {
    let steps = INPUT_PER_CALL / step_advance;
    let shape = ChannelizerShape { channels, taps_per_branch, step_advance, steps };
    let input_items = shape.input_items().unwrap();
    let input = harness.allocate::<Complex32>(input_items + (CALLS_PER_ARRAY - 1) * INPUT_PER_CALL);
    let taps = harness.upload(&vec![1.0f32 / (channels * taps_per_branch) as f32; channels * taps_per_branch]);
    let twiddles = harness.upload(&kernels::pfb_channelizer_spectra_twiddles(channels).unwrap());
    let output = harness.allocate::<Complex32>(CALLS_PER_ARRAY * steps * channels);
    let input_at = |slot: usize| input.address() + (slot * INPUT_PER_CALL * 8) as u64;
    let output_at =
        |allocation: &DeviceAllocation, slot: usize| allocation.address() + (slot * steps * channels * 8) as u64;
    // Safety of both: the arrays hold CALLS_PER_ARRAY calls' worth and slot < CALLS_PER_ARRAY.
    let one_kernel = rate(harness, settings, |slot| unsafe {
        kernels::pfb_channelizer_spectra(
            &harness.stream,
            input_at(slot),
            taps.address(),
            twiddles.address(),
            output_at(&output, slot),
            shape,
            0,
        )
        .unwrap()
    });
    let mut plan = FftPlan::new(&harness.stream, FftKind::Inverse, channels).unwrap();
    let filter_and_cufft = rate(harness, settings, |slot| unsafe {
        kernels::pfb_channelizer_filter(
            &harness.stream,
            input_at(slot),
            taps.address(),
            output_at(&output, slot),
            shape,
            0,
        )
        .unwrap();
        plan.execute(steps, output_at(&output, slot), output_at(&output, slot)).unwrap()
    });
    (one_kernel, filter_and_cufft)
}

/// Bytes per second of the copy kernel at 2^22 complex items per call.
fn copy_rate(harness: &Harness, settings: &Settings) -> f64 {
    let source = harness.allocate::<Complex32>(CALLS_PER_ARRAY * INPUT_PER_CALL);
    let destination = harness.allocate::<Complex32>(CALLS_PER_ARRAY * INPUT_PER_CALL);
    let at = |allocation: &DeviceAllocation, slot: usize| allocation.address() + (slot * INPUT_PER_CALL * 8) as u64;
    // Safety: both arrays hold CALLS_PER_ARRAY calls' worth.
    let items = rate(harness, settings, |slot| unsafe {
        kernels::copy(&harness.stream, at(&source, slot), at(&destination, slot), INPUT_PER_CALL * 8).unwrap()
    });
    items * 16.0
}

pub(crate) fn channelizer_table(device: &Device, settings: &Settings) {
    let harness = Harness::on_device(device);
    let copy = copy_rate(&harness, settings);
    println!(
        "### The channelizer's kernels alone (2^22 input items per call, Gsamples/s of input; copy kernel \
         {:.0} GB/s read + written)\n",
        copy / 1e9
    );
    println!(
        "| channels | taps per branch | oversample | one kernel | filter bank + cuFFT | one kernel / two | roofline | one kernel, of roofline |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (channels, taps_per_branch, oversample) in
        [(32, 16, 1), (64, 16, 1), (256, 16, 1), (1024, 16, 1), (256, 16, 2), (256, 16, 4), (1024, 16, 2)]
    {
        let step_advance = channels / oversample;
        let (one_kernel, two) = channelizer_rates(&harness, settings, channels, taps_per_branch, step_advance);
        // Bytes per input item: 8 read, 8 * oversample written.
        let roofline = copy / (8.0 * (1 + oversample) as f64);
        println!(
            "| {channels} | {taps_per_branch} | {oversample} | {:.1} | {:.1} | {:.2}x | {:.1} | {:.0}% |",
            one_kernel / 1e9,
            two / 1e9,
            one_kernel / two,
            roofline / 1e9,
            100.0 * one_kernel / roofline
        );
    }
    println!();
}
