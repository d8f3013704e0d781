// SPDX-License-Identifier: GPL-3.0-or-later

//! Benchmark of the buffer protocol; prints Markdown tables (docs/PERFORMANCE.md holds them).
//!
//! 1. Host-to-device and device-to-host throughput through a buffer (a CPU thread and a GPU
//!    "block" thread, as in a flowgraph), against raw cuMemcpyAsync between a pinned and a
//!    device allocation, in the same run, for several sizes per call.
//! 2. CPU cost of the protocol calls per work() round, in microseconds.
//! 3. multiply_const_ff through two device-to-device buffers (three blocks, three streams)
//!    against the same kernel on raw allocations of the same size: once with one thread making
//!    every block's calls in turn (the protocol's own cost), once with a thread per block and
//!    a condition-variable scheduler like GNU Radio's (adds thread hand-offs).
//! 4. Kernel launches: the CPU time of enqueueing one or three small kernels with
//!    cuLaunchKernel, as nodes of a graph given new arguments before each launch, and through
//!    libgrcuda's launcher.
//! 5. The driver calls of a GPU block's work() (a launch, an event record, a stream wait)
//!    made by 1 to 8 threads at once, as GNU Radio's threads make them.
//! 6. What making and freeing a buffer costs, by ring size and edge kind: a flowgraph's start
//!    makes one per edge, and an edge between a CPU and a GPU block also pins a host ring as
//!    large as its device ring.
//! 7. Elementwise kernels alone (multiply, magnitude, expressions, moving average) against the
//!    copy kernel.
//! 8. logpwrfft's spectrum kernels alone against cuFFT's transforms of the same frames.
//! 9. The direct-form FIR kernels alone.
//! 10. The rational resampler's kernels alone, with the taps GNU Radio designs.
//! 11. The channelizer's kernels alone: one kernel against the filter bank and cuFFT.
//!
//! Run: cargo run --release --example benchmark [-- --quick] [--only TABLE ...], TABLE one of
//! transfers, protocol, multiply, graphs, concurrent_calls, buffer_lifetime, elementwise, spectra, fir,
//! resampler, channelizer.

#[path = "../../tests/support/mod.rs"]
mod support;

mod buffer_lifetime;
mod channelizer;
mod elementwise;
mod fir;
mod launches;
mod multiply;
mod protocol;
mod spectra;
mod transfers;

use buffer_lifetime::buffer_lifetime_table;
use channelizer::channelizer_table;
use elementwise::elementwise_table;
use fir::{fir_table, resampler_table};
use grcuda::{Device, Stream};
use launches::{concurrent_calls_table, graph_table};
use multiply::{MULTIPLY_RING_CALLS, multiply_table};
use protocol::protocol_cost_table;
use spectra::spectra_table;
use std::time::{Duration, Instant};
use transfers::transfer_table;

struct Settings {
    /// Bytes moved per measurement.
    volume: usize,
    /// Measurements per figure; the median is reported.
    repeats: usize,
    /// Protocol rounds for the CPU-cost figure.
    rounds: usize,
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn measure(settings: &Settings, mut run: impl FnMut() -> Duration) -> f64 {
    run(); // warm-up: first-use costs (pinning, module load) are not the steady state
    median((0..settings.repeats).map(|_| run().as_secs_f64()).collect())
}

/// Calls' worth of data each array of the kernel tables (elementwise, spectra, fir) holds;
/// calls move through them in turn, so that from 2^22 items per call on the footprint exceeds
/// the L2 cache and every call reads device memory.
const CALLS_PER_ARRAY: usize = 4;

/// Seconds, as [`measure`] reports them, of `calls` calls of `call(slot)` (slot = call index
/// modulo [`CALLS_PER_ARRAY`]) back to back on `stream`, until the stream has done them.
fn time_calls(settings: &Settings, stream: &Stream, calls: usize, mut call: impl FnMut(usize)) -> f64 {
    measure(settings, || {
        let started = Instant::now();
        for index in 0..calls {
            call(index % CALLS_PER_ARRAY);
        }
        stream.synchronize().unwrap();
        started.elapsed()
    })
}

fn gigabytes_per_second(bytes: usize, seconds: f64) -> f64 {
    bytes as f64 / seconds / 1e9
}

fn human_bytes(bytes: usize) -> String {
    if bytes >= 1 << 20 { format!("{} MiB", bytes >> 20) } else { format!("{} KiB", bytes >> 10) }
}

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    let quick = arguments.iter().any(|a| a == "--quick");
    let device = support::test_device();
    let info = device.info();
    let settings = if quick || device.is_simulated() {
        Settings { volume: 256 << 20, repeats: 1, rounds: 10_000 }
    } else {
        Settings { volume: 4 << 30, repeats: 5, rounds: 200_000 }
    };
    println!(
        "## grcuda benchmark on {} (compute capability {}.{}, {:?} backend)\n",
        info.name, info.compute_capability.0, info.compute_capability.1, info.backend
    );
    println!(
        "{} per measurement, median of {} runs after a warm-up; buffers hold 8 calls' worth (copies) \
         or {MULTIPLY_RING_CALLS} (multiply). GPU readers take one call's worth per work(), CPU readers \
         every item already copied.\n",
        human_bytes(settings.volume),
        settings.repeats
    );
    // `--only NAME` (repeatable) runs only the tables named; the graph and concurrency tables
    // call the driver directly and run on a GPU only.
    let only: Vec<String> =
        arguments.windows(2).filter(|pair| pair[0] == "--only").map(|pair| pair[1].clone()).collect();
    type Table = fn(&Device, &Settings);
    let tables: [(&str, Table, bool); 11] = [
        ("transfers", transfer_table, true),
        ("protocol", protocol_cost_table, true),
        ("multiply", multiply_table, true),
        ("graphs", graph_table, false),
        ("concurrent_calls", concurrent_calls_table, false),
        ("buffer_lifetime", buffer_lifetime_table, true),
        ("elementwise", elementwise_table, true),
        ("spectra", spectra_table, false),
        ("fir", fir_table, false),
        ("resampler", resampler_table, false),
        ("channelizer", channelizer_table, false),
    ];
    if let Some(wrong) = only.iter().find(|name| !tables.iter().any(|(table, ..)| table == name)) {
        let names: Vec<&str> = tables.iter().map(|(table, ..)| *table).collect();
        panic!("--only {wrong}: no such table; the tables are {}", names.join(", "));
    }
    for (name, table, simulated_too) in tables {
        if (only.is_empty() || only.iter().any(|wanted| wanted == name)) && (simulated_too || !device.is_simulated()) {
            table(&device, &settings);
        }
    }
}
