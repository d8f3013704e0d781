// SPDX-License-Identifier: GPL-3.0-or-later

//! The buffer protocol end to end: host-to-device, device-to-device and device-to-host edges,
//! fan-out to branches of different speeds, random chunk sizes across the wrap point. Runs on
//! the simulated backend in CI and on the GPU with GRCUDA_BACKEND=cuda.
//!
//! GRCUDA_TEST_PIPELINE_ITEMS sets the item count of the long runs (default 2*10^6; the GPU
//! run uses 10^9). The runs across devices spread the GPU blocks over two devices where the
//! backend has them (the simulated backend's two in CI), over one otherwise.

mod support;

use grcuda::HostWait;
use support::pipeline::{PipelineConfig, run};

fn check(config: PipelineConfig) {
    let total = config.total_items;
    let branches = config.branches;
    let checked = run(config);
    assert_eq!(checked, vec![total; branches], "every sink must see every item exactly once");
}

#[test]
fn one_branch_float_items() {
    check(PipelineConfig {
        item_size: 4,
        min_ring_items: 1000,
        total_items: 200_000,
        branches: 1,
        max_chunk: 700,
        host_wait: HostWait::Spin,
        devices: 1,
    });
}

#[test]
fn odd_item_size_and_tiny_chunks() {
    check(PipelineConfig {
        item_size: 3,
        min_ring_items: 10,
        total_items: 30_000,
        branches: 2,
        max_chunk: 5,
        host_wait: HostWait::Block,
        devices: 1,
    });
}

#[test]
fn chunks_up_to_the_whole_ring() {
    check(PipelineConfig {
        item_size: 8,
        min_ring_items: 512,
        total_items: 100_000,
        branches: 3,
        max_chunk: 1 << 20,
        host_wait: HostWait::Spin,
        devices: 1,
    });
}

#[test]
fn large_items() {
    check(PipelineConfig {
        item_size: 4096 * 3 + 8,
        min_ring_items: 7,
        total_items: 3_000,
        branches: 2,
        max_chunk: 9,
        host_wait: HostWait::Block,
        devices: 1,
    });
}

#[test]
fn fan_out_across_two_devices() {
    check(PipelineConfig {
        item_size: 12,
        min_ring_items: 333,
        total_items: 60_000,
        branches: 3,
        max_chunk: 900,
        host_wait: HostWait::Spin,
        devices: 2,
    });
}

fn long_run(devices: usize) {
    let total = std::env::var("GRCUDA_TEST_PIPELINE_ITEMS").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000_000);
    let started = std::time::Instant::now();
    check(PipelineConfig {
        item_size: 4,
        min_ring_items: 1 << 20,
        total_items: total,
        branches: 2,
        max_chunk: 1 << 18,
        host_wait: HostWait::Block,
        devices,
    });
    eprintln!("{total} items through 2 branches on up to {devices} device(s) in {:.2?}", started.elapsed());
}

#[test]
fn long_run_two_readers_of_different_speeds() {
    long_run(1);
}

#[test]
fn long_run_across_two_devices() {
    long_run(2);
}
