// SPDX-License-Identifier: GPL-3.0-or-later

//! multiply_const_ff through device-to-device buffers against the bare kernel.

use super::support::Edge;
use super::{Settings, measure};
use grcuda::buffer::{Buffer, TransferType};
use grcuda::memory::DeviceAllocation;
use grcuda::{Device, HostWait, Stream, kernels};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

/// Calls' worth of items each multiply buffer holds; the bare kernel cycles through the same
/// footprint, so neither runs from cache while the other runs from memory.
pub(crate) const MULTIPLY_RING_CALLS: usize = 4;

/// The bare kernel: multiply_const_ff between raw allocations of the rings' size, back to back
/// on one stream, moving through them call by call.
fn raw_multiply(device: &Device, settings: &Settings, items: usize) -> f64 {
    let input = DeviceAllocation::new(device, MULTIPLY_RING_CALLS * items * 4).unwrap();
    let output = DeviceAllocation::new(device, MULTIPLY_RING_CALLS * items * 4).unwrap();
    let stream = Stream::new(device).unwrap();
    let calls = (settings.volume / 4).div_ceil(items);
    let seconds = measure(settings, || {
        let started = Instant::now();
        for call in 0..calls {
            let offset = ((call % MULTIPLY_RING_CALLS) * items * 4) as u64;
            unsafe {
                kernels::multiply_const(&stream, input.address() + offset, output.address() + offset, items, 1.5f32)
                    .unwrap()
            };
        }
        stream.synchronize().unwrap();
        started.elapsed()
    });
    (calls * items) as f64 / seconds / 1e9
}

/// source -> [D2D] -> multiply_const_ff -> [D2D] -> sink, every block's calls made in turn by
/// one thread: the protocol's cost without any scheduler's.
fn driven_multiply(device: &Device, settings: &Settings, items: usize, host_wait: HostWait) -> f64 {
    let calls = (settings.volume / 4).div_ceil(items);
    let seconds = measure(settings, || {
        let streams: Vec<Arc<Stream>> = (0..3).map(|_| Arc::new(Stream::new(device).unwrap())).collect();
        let buffer = |writer: &Arc<Stream>, reader: &Arc<Stream>| {
            let buffer = Buffer::new(device, 4, MULTIPLY_RING_CALLS * items, host_wait).unwrap();
            buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
            buffer.set_writer_stream(Some(writer.clone())).unwrap();
            let reader = buffer.add_reader(Some(reader.clone())).unwrap();
            (buffer, reader)
        };
        let (first, multiply_reader) = buffer(&streams[0], &streams[1]);
        let (second, sink_reader) = buffer(&streams[1], &streams[2]);
        let ring = first.ring_items();
        let started = Instant::now();
        for call in 0..calls {
            let index = (call * items) % ring;
            first.begin_write(index, items).unwrap();
            first.post_work(index, items).unwrap();
            second.begin_write(index, items).unwrap();
            let (input, output) = (first.reader_pointer(index).unwrap(), second.writer_pointer(index).unwrap());
            unsafe { kernels::multiply_const(&streams[1], input, output, items, 1.5f32).unwrap() };
            first.consume(&multiply_reader, index, items).unwrap();
            second.post_work(index, items).unwrap();
            second.consume(&sink_reader, index, items).unwrap();
        }
        streams.iter().for_each(|s| s.synchronize().unwrap());
        started.elapsed()
    });
    (calls * items) as f64 / seconds / 1e9
}

/// source block -> [D2D] -> multiply_const_ff block -> [D2D] -> sink block, one thread and one
/// stream each; the source and sink enqueue no work, so the figure is the multiply block's.
fn buffered_multiply(device: &Device, settings: &Settings, items: usize, host_wait: HostWait) -> f64 {
    let calls = (settings.volume / 4).div_ceil(items);
    let seconds = measure(settings, || {
        let edge = |writer: &Arc<Stream>| {
            let buffer = Buffer::new(device, 4, MULTIPLY_RING_CALLS * items, host_wait).unwrap();
            buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
            buffer.set_writer_stream(Some(writer.clone())).unwrap();
            Edge::new(buffer)
        };
        let streams: Vec<Arc<Stream>> = (0..3).map(|_| Arc::new(Stream::new(device).unwrap())).collect();
        let (first, second) = (edge(&streams[0]), edge(&streams[1]));
        let multiply_reader = first.add_reader(Some(streams[1].clone()));
        let sink_reader = second.add_reader(Some(streams[2].clone()));
        let started = Instant::now();
        let source = {
            let first = first.clone();
            thread::spawn(move || {
                for _ in 0..calls {
                    let (index, n) = first.wait_space(items as u64);
                    first.buffer.begin_write(index, n as usize).unwrap();
                    first.buffer.post_work(index, n as usize).unwrap();
                    first.publish(n);
                }
                first.finish();
            })
        };
        let multiply = {
            let (first, second, stream) = (first.clone(), second.clone(), streams[1].clone());
            thread::spawn(move || {
                let multiply_handle = first.buffer.reader(multiply_reader).unwrap();
                while let Some((read_index, available)) = first.wait_items(multiply_reader, items as u64) {
                    let (write_index, n) = second.wait_space(available);
                    second.buffer.begin_write(write_index, n as usize).unwrap();
                    let input = first.buffer.reader_pointer(read_index).unwrap();
                    let output = second.buffer.writer_pointer(write_index).unwrap();
                    unsafe { kernels::multiply_const(&stream, input, output, n as usize, 1.5f32).unwrap() };
                    first.buffer.consume(&multiply_handle, read_index, n as usize).unwrap();
                    first.release(multiply_reader, n);
                    second.buffer.post_work(write_index, n as usize).unwrap();
                    second.publish(n);
                }
                second.finish();
            })
        };
        let sink_handle = second.buffer.reader(sink_reader).unwrap();
        while let Some((index, n)) = second.wait_items(sink_reader, u64::MAX) {
            second.buffer.consume(&sink_handle, index, n as usize).unwrap();
            second.release(sink_reader, n);
        }
        source.join().unwrap();
        multiply.join().unwrap();
        streams.iter().for_each(|s| s.synchronize().unwrap());
        started.elapsed()
    });
    (calls * items) as f64 / seconds / 1e9
}

pub(crate) fn multiply_table(device: &Device, settings: &Settings) {
    println!("### multiply_const_ff through device-to-device buffers vs the bare kernel\n");
    println!("Gitems/s; \"driven\": one thread makes every block's calls in turn; \"threaded\": a thread per block.\n");
    println!(
        "| items per call | bare kernel | driven, spin events | ratio | driven, blocking-sync events | ratio | threaded, spin events | ratio |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for shift in [16, 18, 20, 22, 24] {
        let items = 1usize << shift;
        let raw = raw_multiply(device, settings, items);
        let spin = driven_multiply(device, settings, items, HostWait::Spin);
        let block = driven_multiply(device, settings, items, HostWait::Block);
        let threaded = buffered_multiply(device, settings, items, HostWait::Spin);
        let ratio = |x: f64| 100.0 * x / raw;
        println!(
            "| 2^{shift} | {raw:.1} | {spin:.1} | {:.0}% | {block:.1} | {:.0}% | {threaded:.1} | {:.0}% |",
            ratio(spin),
            ratio(block),
            ratio(threaded)
        );
    }
    println!();
}
