// SPDX-License-Identifier: GPL-3.0-or-later

//! The buffer protocol end to end: host-to-device, device-to-device and device-to-host edges,
//! fan-out to branches of different speeds, random chunk sizes across the wrap point. Runs on
//! the simulated backend in CI and on the GPU with GRCUDA_BACKEND=cuda.
//!
//! GRCUDA_TEST_PIPELINE_ITEMS sets the item count of the long run (default 2*10^6; the GPU
//! run uses 10^9).

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
    });
}

#[test]
fn long_run_two_readers_of_different_speeds() {
    let total = std::env::var("GRCUDA_TEST_PIPELINE_ITEMS").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000_000);
    let started = std::time::Instant::now();
    check(PipelineConfig {
        item_size: 4,
        min_ring_items: 1 << 20,
        total_items: total,
        branches: 2,
        max_chunk: 1 << 18,
        host_wait: HostWait::Block,
    });
    eprintln!("{total} items through 2 branches in {:.2?}", started.elapsed());
}
