// SPDX-License-Identifier: GPL-3.0-or-later

//! The direct-form FIR kernels alone (`kernels::fir_filter`), without a flowgraph: output
//! samples per second and multiply-adds per second at 2^22 outputs per call, back to back on
//! one stream through arrays of [`CALLS_PER_ARRAY`](super::CALLS_PER_ARRAY) calls' worth. The
//! rate does not depend on the taps' values.

use super::support::device_memory::Harness;
use super::{CALLS_PER_ARRAY, Settings, time_calls};
use grcuda::Device;
use grcuda::kernels::{self, Complex32, FirTypes, PolyphaseSample, PolyphaseTap, Rotation};

/// Outputs per call.
const OUTPUTS_PER_CALL: usize = 1 << 22;

/// Output samples per second of the direct form for `types`, `tap_count` taps and `decimation`.
fn direct_rate(harness: &Harness, settings: &Settings, types: FirTypes, tap_count: usize, decimation: usize) -> f64 {
    let (sample_bytes, tap_bytes) = (types.sample_bytes(), types.tap_bytes());
    let input_items = kernels::fir_input_items(OUTPUTS_PER_CALL, tap_count, decimation).unwrap();
    let input_call_bytes = OUTPUTS_PER_CALL * decimation * sample_bytes;
    let input = harness.allocate::<u8>((CALLS_PER_ARRAY - 1) * input_call_bytes + input_items * sample_bytes);
    let output = harness.allocate::<u8>(CALLS_PER_ARRAY * OUTPUTS_PER_CALL * sample_bytes);
    let taps = harness.upload(&(0..tap_count * tap_bytes / 4).map(|i| 1.0 / (1 + i) as f32).collect::<Vec<f32>>());
    let calls = (settings.volume / (sample_bytes * (decimation + 1))).div_ceil(OUTPUTS_PER_CALL);
    // Safety: both arrays hold CALLS_PER_ARRAY calls' worth, the input with the taps' history.
    let seconds = time_calls(settings, &harness.stream, calls, |slot| unsafe {
        kernels::fir_filter(
            &harness.stream,
            types,
            input.address() + (slot * input_call_bytes) as u64,
            taps.address(),
            output.address() + (slot * OUTPUTS_PER_CALL * sample_bytes) as u64,
            OUTPUTS_PER_CALL,
            tap_count,
            decimation,
            Rotation::NONE,
        )
        .unwrap()
    });
    (calls * OUTPUTS_PER_CALL) as f64 / seconds
}

/// (taps, decimation) of the table's rows: filters without decimation, and decimating ones
/// whose phases have few taps (a channel filter after a frequency translation).
const DIRECT_FORM_SHAPES: [(usize, usize); 15] = [
    (31, 1),
    (63, 1),
    (127, 1),
    (32, 2),
    (63, 4),
    (16, 4),
    (256, 4),
    (1024, 4),
    (64, 8),
    (256, 8),
    (1024, 8),
    (64, 16),
    (1024, 16),
    (64, 32),
    (256, 64),
];

pub(crate) fn fir_table(device: &Device, settings: &Settings) {
    let harness = Harness::on_device(device);
    println!("### The direct-form FIR kernels alone, 2^22 outputs per call\n");
    println!("| types | taps | decimation | Goutputs/s | 10^12 multiply-adds/s |");
    println!("|---|---:|---:|---:|---:|");
    for (types, multiply_adds_per_tap) in [(FirTypes::Fff, 1.0), (FirTypes::Ccf, 2.0), (FirTypes::Ccc, 4.0)] {
        for (tap_count, decimation) in DIRECT_FORM_SHAPES {
            let rate = direct_rate(&harness, settings, types, tap_count, decimation);
            println!(
                "| {} | {tap_count} | {decimation} | {:.1} | {:.2} |",
                types.name(),
                rate / 1e9,
                rate * tap_count as f64 * multiply_adds_per_tap / 1e12
            );
        }
    }
    println!();
}

/// Input samples per second of the rational resampler (`kernels::rational_resampler`, the
/// direct form with one slot per output phase) from `S` samples through `T` taps.
fn resampler_rate<S: PolyphaseSample, T: PolyphaseTap<S>>(
    harness: &Harness,
    settings: &Settings,
    interpolation: usize,
    decimation: usize,
    taps_per_phase: usize,
) -> f64 {
    let sample_bytes = std::mem::size_of::<S>();
    let outputs = RESAMPLER_INPUT_PER_CALL * interpolation / decimation;
    let input_items =
        kernels::rational_resampler_input_items(outputs, interpolation, decimation, taps_per_phase, 0).unwrap();
    let input_call_bytes = RESAMPLER_INPUT_PER_CALL * sample_bytes;
    let input = harness.allocate::<u8>((CALLS_PER_ARRAY - 1) * input_call_bytes + input_items * sample_bytes);
    let output = harness.allocate::<u8>(CALLS_PER_ARRAY * outputs * sample_bytes);
    let tap_floats = interpolation * taps_per_phase * std::mem::size_of::<T>() / 4;
    let taps = harness.upload(&(0..tap_floats).map(|i| 1.0 / (1 + i) as f32).collect::<Vec<f32>>());
    let calls = (settings.volume / (input_call_bytes + outputs * sample_bytes)).max(1);
    // Safety: both arrays hold CALLS_PER_ARRAY calls' worth, the input with the taps' history.
    let seconds = time_calls(settings, &harness.stream, calls, |slot| unsafe {
        kernels::rational_resampler::<S, T>(
            &harness.stream,
            input.address() + (slot * input_call_bytes) as u64,
            taps.address(),
            output.address() + (slot * outputs * sample_bytes) as u64,
            outputs,
            interpolation,
            decimation,
            taps_per_phase,
            0,
        )
        .unwrap()
    });
    (calls * RESAMPLER_INPUT_PER_CALL) as f64 / seconds
}

/// Input items per resampler call.
const RESAMPLER_INPUT_PER_CALL: usize = 1 << 22;

/// (interpolation, decimation) of the resampler table.
const RESAMPLER_RATIOS: [(usize, usize); 6] = [(3, 2), (4, 5), (2, 5), (3, 8), (2, 7), (1, 4)];

/// The taps per phase GNU Radio's rational_resampler designs for `interpolation` /
/// `decimation` (a Kaiser low-pass with beta 7, 72.2 dB, whose transition band is 0.1 of the
/// lower of the two rates: 3.28 / 0.1 taps per phase, times decimation / interpolation when
/// decimating), rounded up as GNU Radio pads the prototype.
fn designed_taps_per_phase(interpolation: usize, decimation: usize) -> usize {
    let transition = 0.1 * (interpolation as f64 / decimation as f64).min(1.0);
    let taps = ((72.2 * interpolation as f64 / (22.0 * transition)) as usize) | 1;
    taps.div_ceil(interpolation)
}

pub(crate) fn resampler_table(device: &Device, settings: &Settings) {
    let harness = Harness::on_device(device);
    println!("### The rational resampler's kernels alone, 2^22 input items per call\n");
    println!("| types | interpolation | decimation | taps per phase | input Gsamples/s | output Gsamples/s |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (interpolation, decimation) in RESAMPLER_RATIOS {
        let taps_per_phase = designed_taps_per_phase(interpolation, decimation);
        let rates = [
            (
                "ccc",
                resampler_rate::<Complex32, Complex32>(&harness, settings, interpolation, decimation, taps_per_phase),
            ),
            ("ccf", resampler_rate::<Complex32, f32>(&harness, settings, interpolation, decimation, taps_per_phase)),
            ("fff", resampler_rate::<f32, f32>(&harness, settings, interpolation, decimation, taps_per_phase)),
        ];
        for (types, rate) in rates {
            println!(
                "| {types} | {interpolation} | {decimation} | {taps_per_phase} | {:.1} | {:.1} |",
                rate / 1e9,
                rate * interpolation as f64 / decimation as f64 / 1e9
            );
        }
    }
    println!();
}
