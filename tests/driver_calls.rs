// SPDX-License-Identifier: GPL-3.0-or-later

//! Driver operations per work() call: what the buffer protocol and the block work-wrapper cost
//! a GPU block in the steady state, counted on the simulated backend (which counts the
//! operations the CUDA backend would send to the driver), so that a change that adds calls to
//! the hot path fails here, in CI.
//!
//! The flowgraph is the one GNU Radio runs: CPU source -> [host-to-device] -> GPU block A ->
//! [device-to-device] -> GPU block B -> [device-to-host] -> CPU sink, each party making the
//! calls that gr-cuda's GNU Radio hooks make for it, in the order GNU Radio makes them. One
//! thread plays every party, call by call, so each call's operations are counted apart.
//! Expected counts are exact: a change that saves a call must lower them.

use grcuda::block::{Block, Consumption};
use grcuda::buffer::{Buffer, TransferType};
use grcuda::driver_calls;
use grcuda::ffi::GRCUDA_MAX_RECORDS_IN_FLIGHT as MAX_RECORDS_IN_FLIGHT;
use grcuda::{BackendChoice, Device, HostWait, kernels};
use std::sync::Arc;

const CHUNK: usize = 512;

struct Chain {
    edges: [Arc<Buffer>; 3],
    blocks: [Block; 2],
    cpu_reader: grcuda::buffer::ReaderHandle,
    position: usize,
    /// The GPU blocks end their calls as sync blocks do (`end_work`), or as general blocks
    /// (`consume`).
    sync_blocks: bool,
}

impl Chain {
    fn new(device: &Device, sync_blocks: bool) -> Chain {
        let kinds = [TransferType::HostToDevice, TransferType::DeviceToDevice, TransferType::DeviceToHost];
        let edges = kinds.map(|kind| {
            let buffer = Buffer::new(device, 4, 4096, HostWait::Spin).unwrap();
            buffer.set_transfer_type(kind).unwrap();
            Arc::new(buffer)
        });
        let mut blocks = [Block::new(device, HostWait::Spin).unwrap(), Block::new(device, HostWait::Spin).unwrap()];
        for (index, block) in blocks.iter_mut().enumerate() {
            block.attach_ports(&[Some(edges[index].clone())], &[Some(edges[index + 1].clone())]).unwrap();
        }
        let cpu_reader = edges[2].add_reader(None).unwrap();
        Chain { edges, blocks, cpu_reader, position: 0, sync_blocks }
    }

    /// Driver operations of `call` on this thread.
    fn count(call: impl FnOnce()) -> u64 {
        let before = driver_calls::on_this_thread();
        call();
        driver_calls::on_this_thread() - before
    }

    /// One work() call of every party, in flowgraph order; returns the operations of each:
    /// source, block A, block B, sink.
    fn lap(&mut self) -> [u64; 4] {
        let (index, edges) = (self.position, &self.edges);
        let source = Self::count(|| {
            let host = edges[0].writer_pointer(index).unwrap();
            edges[0].begin_write(index, CHUNK).unwrap();
            unsafe { std::ptr::write_bytes(host as *mut u8, 1, CHUNK * 4) };
            edges[0].post_work(index, CHUNK).unwrap();
        });
        let sync_blocks = self.sync_blocks;
        let mut gpu_blocks = [0; 2];
        for (number, block) in self.blocks.iter().enumerate() {
            let (input, output) = (&edges[number], &edges[number + 1]);
            gpu_blocks[number] = Self::count(|| {
                // write_pointer(), _read_pointer(), work(), end of work, post_work().
                let destination = output.writer_pointer(index).unwrap();
                output.begin_write(index, CHUNK).unwrap();
                let source = input.begin_read(index).unwrap();
                unsafe { kernels::multiply_const(block.stream(), source, destination, CHUNK, 2.0f32).unwrap() };
                if sync_blocks {
                    block.end_work([Consumption { read_index: index, nitems: CHUNK }].into_iter()).unwrap();
                } else {
                    block.consume(0, index, CHUNK).unwrap();
                }
                output.post_work(index, CHUNK).unwrap();
            });
        }
        let sink = Self::count(|| {
            edges[2].begin_read(index).unwrap();
            edges[2].consume(&self.cpu_reader, index, CHUNK).unwrap();
        });
        self.position = (index + CHUNK) % edges[0].ring_items();
        [source, gpu_blocks[0], gpu_blocks[1], sink]
    }
}

/// The most and the mean driver operations per work() call of each party (source, block A,
/// block B, sink) over 64 laps in the steady state.
fn measure(sync_blocks: bool) -> [(u64, f64); 4] {
    let device = Device::open(0, BackendChoice::Simulated).unwrap();
    let mut chain = Chain::new(&device, sync_blocks);
    for _ in 0..100 {
        chain.lap();
    }
    let laps: Vec<[u64; 4]> = (0..64).map(|_| chain.lap()).collect();
    let figures = std::array::from_fn(|party| {
        let most = laps.iter().map(|lap| lap[party]).max().unwrap();
        (most, laps.iter().map(|lap| lap[party]).sum::<u64>() as f64 / laps.len() as f64)
    });
    eprintln!("driver operations per work() call, most and mean (source, block A, block B, sink): {figures:?}");
    figures
}

#[test]
fn sync_blocks_make_one_record_per_call() {
    let [source, block_a, block_b, sink] = measure(true);
    // Source: begin_write queries the copy that last read its host span (a lap ago: done);
    // post_work queries block A's newest read of the device span, copies, records the post
    // and makes block A's stream wait for it.
    assert_eq!(source.0, 5);
    // Block A: begin_write queries block B's newest read of its output span; the kernel;
    // end_work records one event, its read and its post; post_work makes block B's stream
    // wait for it; one call in eight or so also queries a read record half a ring newer to
    // free the slot it reuses.
    assert_eq!(block_a.0, 5);
    assert!(block_a.1 < 4.5, "block A should free most slots without a query: {block_a:?}");
    // Block B: begin_write finds the copy of its output span known complete (the sink's
    // query marked it); the kernel; end_work's event; post_work makes the copy stream wait
    // for it, copies and records the post.
    assert_eq!(block_b.0, 5);
    // Sink: begin_read queries the newest post overlapping what it reads.
    assert_eq!(sink.0, 1);
}

#[test]
fn general_blocks_make_a_record_per_input_and_output() {
    let [source, block_a, block_b, sink] = measure(false);
    assert_eq!(source.0, 5);
    // As above, with a read record and a post record instead of end_work's one event.
    assert_eq!(block_a.0, 6);
    assert!(block_a.1 < 6.0, "block A should free most slots without a query: {block_a:?}");
    // As above, with a read record, and a record of the kernel's end for the copy stream.
    assert_eq!(block_b.0, 6);
    assert_eq!(sink.0, 1);
}

/// A GPU block whose kernels outlast its calls waits on the host once per half ring of
/// records, not once per call: each wait (a sleep and a wake-up of its thread, where the host
/// wait sleeps) frees half the ring. On the GPU the block's kernels are slow enough that the
/// host runs a ring ahead; on the simulated backend every record is complete at once and the
/// block never waits, which the counts bound the same way.
#[test]
fn a_gpu_bound_block_waits_once_per_half_ring() {
    const ROUNDS: usize = 64;
    let device = Device::open(0, BackendChoice::Auto).unwrap();
    let buffer = Arc::new(Buffer::new(&device, 4, 4096, HostWait::Block).unwrap());
    buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
    let mut block = Block::new(&device, HostWait::Block).unwrap();
    block.attach_ports(&[], &[Some(buffer.clone())]).unwrap();
    // About 0.2 ms of GPU work per call on an H200, a few microseconds of host work; one
    // pass on the CPU, which runs it at once anyway.
    let iterations = if device.is_simulated() { 1 } else { 2000 };
    let mut index = 0;
    let mut call = || {
        let operations = Chain::count(|| {
            let destination = buffer.writer_pointer(index).unwrap();
            buffer.begin_write(index, CHUNK).unwrap();
            unsafe { kernels::load(block.stream(), destination, destination, CHUNK * 4, iterations).unwrap() };
            block.end_work(std::iter::empty()).unwrap();
            buffer.post_work(index, CHUNK).unwrap();
        });
        index = (index + CHUNK) % buffer.ring_items();
        operations
    };
    // Fill the ring of post records, then let the GPU fall a ring behind.
    for _ in 0..2 * MAX_RECORDS_IN_FLIGHT {
        call();
    }
    let calls: Vec<u64> = (0..ROUNDS).map(|_| call()).collect();
    block.synchronize().unwrap();
    // Every call: the kernel and end_work's event. A call that reuses a slot still pending
    // queries the record half a ring newer and, while it runs, waits for it.
    let waits = calls.iter().filter(|&&operations| operations == 4).count();
    eprintln!("driver operations per call of a GPU-bound block: {calls:?}; {waits} waits in {ROUNDS} calls");
    assert!(calls.iter().all(|&operations| (2..=4).contains(&operations)), "{calls:?}");
    let half_ring = MAX_RECORDS_IN_FLIGHT / 2;
    assert!(waits <= ROUNDS / half_ring + 1, "more than one wait per half ring: {calls:?}");
    if !device.is_simulated() {
        assert!(waits >= ROUNDS / half_ring - 1, "the GPU should have been a ring behind the host: {calls:?}");
    }
}
