// SPDX-License-Identifier: GPL-3.0-or-later

//! The CPU cost of one work() round of the buffer protocol.

use super::Settings;
use grcuda::buffer::{Buffer, TransferType};
use grcuda::{Device, HostWait, Stream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// CPU time of the calls one work() round makes on a device-to-device edge (begin_write,
/// post_work, and the reader's consume), with no kernels so the GPU is never the limit.
pub(crate) fn protocol_cost_table(device: &Device, settings: &Settings) {
    let buffer = Buffer::new(device, 4, 1 << 20, HostWait::Spin).unwrap();
    buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
    let writer = Arc::new(Stream::new(device).unwrap());
    let reader_stream = Arc::new(Stream::new(device).unwrap());
    buffer.set_writer_stream(Some(writer.clone())).unwrap();
    let reader = buffer.add_reader(Some(reader_stream.clone())).unwrap();
    let ring = buffer.ring_items();
    let mut timings = [Duration::ZERO; 3];
    for round in 0..settings.rounds {
        let index = (round * 4096) % ring;
        let started = Instant::now();
        buffer.begin_write(index, 4096).unwrap();
        let begun = Instant::now();
        buffer.post_work(index, 4096).unwrap();
        let posted = Instant::now();
        buffer.consume(&reader, index, 4096).unwrap();
        let consumed = Instant::now();
        timings[0] += begun - started;
        timings[1] += posted - begun;
        timings[2] += consumed - posted;
    }
    buffer.synchronize().unwrap();
    let per_round = |d: Duration| d.as_secs_f64() * 1e6 / settings.rounds as f64;
    println!("### CPU cost of the protocol per work() round (device-to-device edge, one GPU reader)\n");
    println!("| call | microseconds per call |");
    println!("|---|---:|");
    println!("| begin_write (writer stream waits for the reader's overlapping read) | {:.2} |", per_round(timings[0]));
    println!("| post_work (post event + reader stream waits for it) | {:.2} |", per_round(timings[1]));
    println!("| consume (read event on the reader's stream) | {:.2} |", per_round(timings[2]));
    println!("| whole round | {:.2} |", per_round(timings.iter().sum()));
    println!("\n({} rounds)\n", settings.rounds);
}
