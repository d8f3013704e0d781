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

use grcuda::block::Block;
use grcuda::buffer::{Buffer, TransferType};
use grcuda::driver_calls;
use grcuda::{BackendChoice, Device, HostWait, kernels};
use std::sync::Arc;

const CHUNK: usize = 512;

struct Chain {
    edges: [Arc<Buffer>; 3],
    blocks: [Block; 2],
    cpu_reader: grcuda::buffer::ReaderHandle,
    position: usize,
}

impl Chain {
    fn new(device: &Device) -> Chain {
        let kinds = [TransferType::HostToDevice, TransferType::DeviceToDevice, TransferType::DeviceToHost];
        let edges = kinds.map(|kind| {
            let buffer = Buffer::new(device, 4, 4096, HostWait::Spin).unwrap();
            buffer.set_transfer_type(kind).unwrap();
            Arc::new(buffer)
        });
        let mut blocks = [Block::new(device).unwrap(), Block::new(device).unwrap()];
        for (index, block) in blocks.iter_mut().enumerate() {
            block.attach_ports(&[Some(edges[index].clone())], &[Some(edges[index + 1].clone())]).unwrap();
        }
        let cpu_reader = edges[2].add_reader(None).unwrap();
        Chain { edges, blocks, cpu_reader, position: 0 }
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
        let mut gpu_blocks = [0; 2];
        for (number, block) in self.blocks.iter().enumerate() {
            let (input, output) = (&edges[number], &edges[number + 1]);
            gpu_blocks[number] = Self::count(|| {
                // write_pointer(), _read_pointer(), work(), report_consumed(), post_work().
                let destination = output.writer_pointer(index).unwrap();
                output.begin_write(index, CHUNK).unwrap();
                let source = input.begin_read(index).unwrap();
                unsafe { kernels::multiply_const(block.stream(), source, destination, CHUNK, 2.0f32).unwrap() };
                block.consume(0, index, CHUNK).unwrap();
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

#[test]
fn steady_state_work_calls_make_few_driver_calls() {
    let device = Device::open(0, BackendChoice::Simulated).unwrap();
    let mut chain = Chain::new(&device);
    for _ in 0..100 {
        chain.lap();
    }
    let laps: Vec<[u64; 4]> = (0..64).map(|_| chain.lap()).collect();
    let most = |party: usize| laps.iter().map(|lap| lap[party]).max().unwrap();
    let total = |party: usize| laps.iter().map(|lap| lap[party]).sum::<u64>();
    eprintln!(
        "driver operations per work() call, most (mean): source {} ({:.2}), block A {} ({:.2}), block B {} ({:.2}), sink {} ({:.2})",
        most(0),
        total(0) as f64 / 64.0,
        most(1),
        total(1) as f64 / 64.0,
        most(2),
        total(2) as f64 / 64.0,
        most(3),
        total(3) as f64 / 64.0
    );
    // Source: begin_write queries the copy that last read its host span (a lap ago: done);
    // post_work queries block A's newest read of the device span, copies, records the post
    // and makes block A's stream wait for it.
    assert_eq!(most(0), 5);
    // Block A: begin_write queries block B's newest read of its output span; the kernel;
    // consume records the read; post_work records the post and makes block B's stream wait
    // for it; one call in eight or so also queries a read record half a ring newer to free
    // the slot it reuses.
    assert_eq!(most(1), 6);
    // Block B: begin_write finds the copy of its output span known complete (the sink's
    // query marked it); the kernel; the read record; post_work records the kernel's end,
    // makes the copy stream wait for it, copies and records the post.
    assert_eq!(most(2), 6);
    // Sink: begin_read queries the newest post overlapping what it reads.
    assert_eq!(most(3), 1);
    assert!(total(1) < 64 * 6, "block A should free most slots without a query");
}
