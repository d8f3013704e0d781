// SPDX-License-Identifier: GPL-3.0-or-later

//! What making and freeing a buffer costs, by ring size and edge kind.

use super::{Settings, human_bytes, median};
use grcuda::buffer::{Buffer, TransferType};
use grcuda::memory::host_ring_cache;
use grcuda::{Device, HostWait};
use std::time::Instant;

/// Milliseconds to make a buffer of `bytes` with the transfer type `kind` (its rings mapped,
/// a host ring pinned for host edges) and to free it again: the medians of `repeats` runs,
/// with freed host rings kept for reuse (`kept`, after a first buffer has left one) or not.
fn buffer_lifetime_milliseconds(
    device: &Device,
    bytes: usize,
    kind: TransferType,
    repeats: usize,
    kept: bool,
) -> (f64, f64) {
    let limit = host_ring_cache::limit_bytes();
    host_ring_cache::set_limit_bytes(if kept { limit.max(bytes) } else { 0 });
    let lifetime = || {
        let started = Instant::now();
        let buffer = Buffer::new(device, 8, bytes / 8, HostWait::Adaptive).expect("buffer");
        buffer.set_transfer_type(kind).expect("transfer type");
        let made = started.elapsed().as_secs_f64() * 1e3;
        // The worst case for freeing: the whole ring written (a kept ring zeroes what was).
        let items = buffer.ring_items();
        buffer.begin_write(0, items).expect("begin_write");
        buffer.post_work(0, items).expect("post_work");
        buffer.synchronize().expect("synchronize");
        let started = Instant::now();
        drop(buffer);
        (made, started.elapsed().as_secs_f64() * 1e3)
    };
    lifetime();
    let (making, freeing): (Vec<f64>, Vec<f64>) = (0..repeats.max(1)).map(|_| lifetime()).unzip();
    host_ring_cache::set_limit_bytes(limit);
    (median(making), median(freeing))
}

pub(crate) fn buffer_lifetime_table(device: &Device, settings: &Settings) {
    println!("### Making and freeing a buffer, by ring size and edge kind\n");
    println!(
        "Milliseconds, median of {} runs after a warm-up. \"new\": every host ring registered afresh and \
         unregistered when freed; \"kept\": host rings kept for reuse (the host ring cache), so a \
         buffer takes over the ring the previous one left. Each buffer is written whole before it \
         is freed, the worst case for a kept ring, which zeroes what was written.\n",
        settings.repeats
    );
    println!(
        "| ring | device-to-device: make | free | host-to-device, new: make | free | kept: make | free | \
         device-to-host, new: make | free | kept: make | free |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for bytes in [16usize << 20, 64 << 20, 128 << 20, 256 << 20] {
        let mut cells = Vec::new();
        let (make, free) =
            buffer_lifetime_milliseconds(device, bytes, TransferType::DeviceToDevice, settings.repeats, false);
        cells.push(format!("{make:.1} | {free:.1}"));
        for kind in [TransferType::HostToDevice, TransferType::DeviceToHost] {
            for kept in [false, true] {
                let (make, free) = buffer_lifetime_milliseconds(device, bytes, kind, settings.repeats, kept);
                cells.push(format!("{make:.1} | {free:.1}"));
            }
        }
        println!("| {} | {} |", human_bytes(bytes), cells.join(" | "));
    }
    println!();
}
