// SPDX-License-Identifier: GPL-3.0-or-later

//! Host-to-device and device-to-host copies through a buffer against raw pinned copies.

use super::support::{self, Edge};
use super::{Settings, gigabytes_per_second, human_bytes, measure};
use grcuda::buffer::{Buffer, TransferType};
use grcuda::memory::{DeviceAllocation, PinnedAllocation};
use grcuda::{Device, Event, HostWait, Stream};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

/// Raw copies of `chunk` bytes, back to back on one stream, between pinned and device memory;
/// with `event_per_copy`, an event recorded after each copy, as any event-based protocol must.
fn raw_copy(device: &Device, settings: &Settings, chunk: usize, to_device: bool, event_per_copy: bool) -> f64 {
    let host = PinnedAllocation::new(device, chunk).unwrap();
    let device_memory = DeviceAllocation::new(device, chunk).unwrap();
    let stream = Stream::new(device).unwrap();
    let event = Event::new(device, HostWait::Spin).unwrap();
    let calls = settings.volume.div_ceil(chunk);
    let (destination, source) =
        if to_device { (device_memory.address(), host.address()) } else { (host.address(), device_memory.address()) };
    let seconds = measure(settings, || {
        let started = Instant::now();
        for _ in 0..calls {
            unsafe { stream.copy_async(destination, source, chunk).unwrap() };
            if event_per_copy {
                stream.record(&event).unwrap();
            }
        }
        stream.synchronize().unwrap();
        started.elapsed()
    });
    gigabytes_per_second(calls * chunk, seconds)
}

/// `chunk` bytes per work() call through a buffer of 8 chunks: host-to-device (CPU writer
/// thread, GPU reader thread) or device-to-host (GPU writer thread, CPU reader thread).
fn buffered_copy(device: &Device, settings: &Settings, chunk: usize, to_device: bool, host_wait: HostWait) -> f64 {
    let calls = settings.volume.div_ceil(chunk);
    let seconds = measure(settings, || {
        let buffer = Buffer::new(device, 4, 8 * chunk / 4, host_wait).unwrap();
        let transfer = if to_device { TransferType::HostToDevice } else { TransferType::DeviceToHost };
        buffer.set_transfer_type(transfer).unwrap();
        let gpu_stream = Arc::new(Stream::new(device).unwrap());
        let edge = Edge::new(buffer);
        let reader = if to_device {
            edge.add_reader(Some(gpu_stream.clone()))
        } else {
            edge.buffer.set_writer_stream(Some(gpu_stream.clone())).unwrap();
            edge.add_reader(None)
        };
        let items = (chunk / 4) as u64;
        let started = Instant::now();
        let writer = {
            let edge = edge.clone();
            thread::spawn(move || {
                for _ in 0..calls {
                    let (index, n) = edge.wait_space(items);
                    edge.buffer.begin_write(index, n as usize).unwrap();
                    edge.buffer.post_work(index, n as usize).unwrap();
                    edge.publish(n);
                }
                edge.finish();
            })
        };
        // The GPU reader works on one call's worth per work() (a block whose output is the same
        // size); the CPU reader takes every item already copied, so the copies stay queued.
        let want = if to_device { items } else { u64::MAX };
        let reader_handle = edge.buffer.reader(reader).unwrap();
        while let Some((index, available)) = edge.wait_items(reader, want) {
            let n = if to_device { available } else { support::pipeline::published(&edge.buffer, index, available) };
            edge.buffer.consume(&reader_handle, index, n as usize).unwrap();
            edge.release(reader, n);
        }
        writer.join().unwrap();
        edge.buffer.synchronize().unwrap();
        gpu_stream.synchronize().unwrap();
        started.elapsed()
    });
    gigabytes_per_second(calls * chunk, seconds)
}

pub(crate) fn transfer_table(device: &Device, settings: &Settings) {
    for (to_device, title) in [(true, "Host-to-device"), (false, "Device-to-host")] {
        println!("### {title} copies through a buffer vs raw pinned cuMemcpyAsync\n");
        println!("GB/s. \"raw + event\": the raw copies with an event recorded after each, the least any");
        println!("event-based protocol adds. Ratios are the buffer against plain raw copies.\n");
        println!(
            "| bytes per call | raw | raw + event | buffer, spin events | ratio | buffer, blocking-sync events | ratio |"
        );
        println!("|---:|---:|---:|---:|---:|---:|---:|");
        for chunk in [64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 64 << 20] {
            let raw = raw_copy(device, settings, chunk, to_device, false);
            let with_event = raw_copy(device, settings, chunk, to_device, true);
            let spin = buffered_copy(device, settings, chunk, to_device, HostWait::Spin);
            let block = buffered_copy(device, settings, chunk, to_device, HostWait::Block);
            println!(
                "| {} | {raw:.1} | {with_event:.1} | {spin:.1} | {:.0}% | {block:.1} | {:.0}% |",
                human_bytes(chunk),
                100.0 * spin / raw,
                100.0 * block / raw
            );
        }
        println!();
    }
}
