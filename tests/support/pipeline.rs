// SPDX-License-Identifier: GPL-3.0-or-later

//! A flowgraph that moves a known payload through every edge type and checks it:
//!
//! ```text
//! CPU source -H2D-> +-> GPU copy -D2D-> GPU copy -D2H-> CPU sink (checks)   reader 0
//!                   +-> GPU copy -D2D-> GPU copy -D2H-> CPU sink (checks)   reader 1
//!                   ...                                                     (fan-out)
//! ```
//!
//! Each block runs in its own thread with its own stream, takes chunks of random size
//! (crossing the wrap point at random offsets), and branches run at different speeds. The
//! payload is item `i` = a pseudo-random function of `i`, so sinks check every byte and its
//! order without storing the input.

use super::{Edge, test_devices};
use grcuda::buffer::{Buffer, TransferType};
use grcuda::{Device, HostWait, Stream};
use std::sync::Arc;
use std::thread;

pub struct PipelineConfig {
    pub item_size: usize,
    pub min_ring_items: usize,
    pub total_items: u64,
    pub branches: usize,
    pub max_chunk: u64,
    pub host_wait: HostWait,
    /// The devices to spread the GPU blocks over (as many as the backend has, up to this):
    /// branch b's second block, and its device-to-host edge, go to device (b + 1) % devices,
    /// reading the first block's buffer on device 0 from there.
    pub devices: usize,
}

/// Byte `b` of item `i`: cheap, position-dependent, not periodic in the ring size.
pub fn payload_byte(item: u64, byte: usize) -> u8 {
    let x = item.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (byte as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (x ^ (x >> 29) ^ (x >> 47)) as u8
}

/// A small deterministic generator for chunk sizes (xorshift).
struct Chunks(u64);

impl Chunks {
    fn next(&mut self, max: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        1 + self.0 % max
    }
}

fn edge(device: &Device, config: &PipelineConfig, transfer: TransferType) -> Arc<Edge> {
    let buffer = Buffer::new(device, config.item_size, config.min_ring_items, config.host_wait).expect("Buffer::new");
    buffer.set_transfer_type(transfer).expect("set_transfer_type");
    Edge::new(buffer)
}

/// Runs the flowgraph; returns the items each sink checked. Panics on the first mismatch.
pub fn run(config: PipelineConfig) -> Vec<u64> {
    let devices = test_devices(config.devices.max(1));
    let device = &devices[0];
    let source_edge = edge(device, &config, TransferType::HostToDevice);
    let item_size = config.item_size;
    let mut threads = Vec::new();
    let mut sinks = Vec::new();
    for branch in 0..config.branches {
        let second_device = &devices[(branch + 1) % devices.len()];
        let middle = edge(device, &config, TransferType::DeviceToDevice);
        let last = edge(second_device, &config, TransferType::DeviceToHost);
        let first_stream = Arc::new(Stream::new(device).unwrap());
        let second_stream = Arc::new(Stream::new(second_device).unwrap());
        let first_reader = source_edge.add_reader(Some(first_stream.clone()));
        middle.buffer.set_writer_stream(Some(first_stream.clone())).unwrap();
        let second_reader = middle.add_reader(Some(second_stream.clone()));
        last.buffer.set_writer_stream(Some(second_stream.clone())).unwrap();
        let sink_reader = last.add_reader(None);
        // Branches differ in chunk sizes, so they run at different speeds.
        let max_chunk = (config.max_chunk >> branch).max(1);
        let seed = 0x1234_5678 + branch as u64;
        let (input, output) = (source_edge.clone(), middle.clone());
        threads.push(thread::spawn(move || {
            gpu_copy_block(&input, first_reader, &output, &first_stream, item_size, max_chunk, seed)
        }));
        let (input, output) = (middle.clone(), last.clone());
        threads.push(thread::spawn(move || {
            gpu_copy_block(&input, second_reader, &output, &second_stream, item_size, max_chunk / 2 + 1, seed + 7)
        }));
        let input = last.clone();
        sinks.push(thread::spawn(move || cpu_sink(&input, sink_reader, item_size, max_chunk, seed + 13)));
    }
    cpu_source(&source_edge, item_size, config.total_items, config.max_chunk);
    for thread in threads {
        thread.join().expect("a GPU block panicked");
    }
    sinks.into_iter().map(|s| s.join().expect("a sink panicked")).collect()
}

fn cpu_source(output: &Edge, item_size: usize, total_items: u64, max_chunk: u64) {
    let mut chunks = Chunks(0xDEAD_BEEF);
    let mut written = 0u64;
    while written < total_items {
        let (index, n) = output.wait_space(chunks.next(max_chunk).min(total_items - written));
        output.buffer.begin_write(index, n as usize).unwrap();
        let pointer = output.buffer.writer_pointer(index).unwrap() as *mut u8;
        // Safety: the span is free (the scheduler says so) and the host ring is mapped twice,
        // so n <= N items from any index are addressable.
        let bytes = unsafe { std::slice::from_raw_parts_mut(pointer, n as usize * item_size) };
        for (k, byte) in bytes.iter_mut().enumerate() {
            *byte = payload_byte(written + (k / item_size) as u64, k % item_size);
        }
        output.buffer.post_work(index, n as usize).unwrap();
        output.publish(n);
        written += n;
    }
    output.finish();
}

fn gpu_copy_block(
    input: &Edge,
    reader: usize,
    output: &Edge,
    stream: &Stream,
    item_size: usize,
    max_chunk: u64,
    seed: u64,
) {
    let mut chunks = Chunks(seed);
    while let Some((read_index, available)) = input.wait_items(reader, chunks.next(max_chunk)) {
        let (write_index, n) = output.wait_space(available);
        output.buffer.begin_write(write_index, n as usize).unwrap();
        // The ring, or this reader's mirror of it where its device has no peer access.
        let source = input.buffer.reader_address(&input.buffer.reader(reader).unwrap(), read_index).unwrap();
        let destination = output.buffer.writer_pointer(write_index).unwrap();
        // Safety: both spans are owned by this block for now; the buffers order the copy.
        unsafe { stream.copy_async(destination, source, n as usize * item_size).unwrap() };
        input.buffer.consume(&input.buffer.reader(reader).unwrap(), read_index, n as usize).unwrap();
        input.release(reader, n);
        output.buffer.post_work(write_index, n as usize).unwrap();
        output.publish(n);
    }
    output.finish();
}

/// How a CPU reader takes host-ready items: those already published, or, when none are, waits
/// for the first one. Returns how many of the `available` items it may read now.
pub fn published(buffer: &Buffer, index: usize, available: u64) -> u64 {
    let ready = buffer.published_items(index, available as usize).unwrap();
    if ready > 0 {
        return ready as u64;
    }
    buffer.wait_published(index, 1).unwrap();
    let ready = buffer.published_items(index, available as usize).unwrap();
    assert!(ready > 0, "after waiting for item {index}, it must be published");
    ready as u64
}

fn cpu_sink(input: &Edge, reader: usize, item_size: usize, max_chunk: u64, seed: u64) -> u64 {
    let mut chunks = Chunks(seed);
    let mut checked = 0u64;
    while let Some((index, available)) = input.wait_items(reader, chunks.next(max_chunk)) {
        let n = published(&input.buffer, index, available);
        let pointer = input.buffer.reader_pointer(index).unwrap() as *const u8;
        let bytes = unsafe { std::slice::from_raw_parts(pointer, n as usize * item_size) };
        for (k, &byte) in bytes.iter().enumerate() {
            let item = checked + (k / item_size) as u64;
            let expected = payload_byte(item, k % item_size);
            assert_eq!(
                byte,
                expected,
                "item {item} byte {} (ring index {index}): got {byte}, want {expected}",
                k % item_size
            );
        }
        input.buffer.consume(&input.buffer.reader(reader).unwrap(), index, n as usize).unwrap();
        input.release(reader, n);
        checked += n;
    }
    checked
}
