// SPDX-License-Identifier: GPL-3.0-or-later

//! Devices without peer access to each other's memory, made so with GRCUDA_PEER_ACCESS=none
//! (as GPUs whose PCIe topology has no peer-to-peer are): a GPU
//! reader of a device-to-device buffer on such a device reads a mirror of the ring on its own
//! device, filled at every post through pinned host memory, item for item over laps of the
//! ring; readers of other edges are refused with a message naming both devices. One test in
//! its own binary, since it sets the process's environment.

mod support;

use grcuda::block::Block;
use grcuda::buffer::{Buffer, TransferType};
use grcuda::{BackendChoice, Device, ErrorKind, HostWait, Stream};
use std::sync::Arc;
use support::pipeline::{PipelineConfig, run};

fn refused_reader_without_a_device_to_device_edge(first: &Device, second: &Device) {
    let buffer = Arc::new(Buffer::new(first, 4, 4096, HostWait::Spin).unwrap());
    let mut reader = Block::new(second, HostWait::Spin).unwrap();
    let error = reader.attach_ports(&[Some(buffer.clone())], &[]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    let message = error.to_string();
    assert!(message.contains("a reader on the simulated device (ordinal 1) cannot read a buffer on"), "{message}");
    assert!(message.contains("no peer access"), "{message}");
    let mut own = Block::new(first, HostWait::Spin).unwrap();
    own.attach_ports(&[Some(buffer.clone())], &[]).unwrap();
}

/// Writes `laps` laps of odd-sized posts into a device-to-device ring on `first` and reads them
/// on `second` through the reader's mirror, checking every item.
fn mirrored_reads(first: &Device, second: &Device, laps: usize) {
    let buffer = Buffer::new(first, 4, 1 << 12, HostWait::Spin).unwrap();
    buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
    let writer = Arc::new(Stream::new(first).unwrap());
    buffer.set_writer_stream(Some(writer.clone())).unwrap();
    let reader_stream = Arc::new(Stream::new(second).unwrap());
    let reader = buffer.add_reader(Some(reader_stream.clone())).unwrap();
    let mirror = buffer.mirror_address(&reader).unwrap().expect("a reader without peer access reads a mirror");
    assert_ne!(mirror, buffer.reader_pointer(0).unwrap());
    let ring = buffer.ring_items();
    let (mut index, mut next) = (0usize, 0u32);
    let mut chunk = 1usize;
    while (next as usize) < laps * ring {
        let n = chunk.min(ring - 1);
        buffer.begin_write(index, n).unwrap();
        let at = buffer.writer_pointer(index).unwrap() as *mut u32;
        // Safety: the simulated ring is host memory, mapped twice: n < N items from any index.
        let items = unsafe { std::slice::from_raw_parts_mut(at, n) };
        for (k, item) in items.iter_mut().enumerate() {
            *item = next + k as u32;
        }
        buffer.post_work(index, n).unwrap();
        let read = buffer.reader_address(&reader, index).unwrap();
        assert_eq!(read, mirror + (index * 4) as u64);
        let seen = unsafe { std::slice::from_raw_parts(read as *const u32, n) };
        for (k, &item) in seen.iter().enumerate() {
            assert_eq!(item, next + k as u32, "item {} at ring index {}", next as usize + k, (index + k) % ring);
        }
        buffer.consume(&reader, index, n).unwrap();
        next += n as u32;
        index = (index + n) % ring;
        chunk = chunk * 7 % 1531 + 1;
    }
    // A restart on the buffer's own device reads the ring itself again.
    buffer.set_reader_stream(&reader, Some(Arc::new(Stream::new(first).unwrap()))).unwrap();
    assert_eq!(buffer.mirror_address(&reader).unwrap(), None);
}

#[test]
fn readers_without_peer_access_read_a_mirror() {
    // SAFETY: the only test of this binary, run before it starts any thread of its own.
    unsafe { std::env::set_var("GRCUDA_PEER_ACCESS", "none") };
    let first = Device::open(0, BackendChoice::Simulated).unwrap();
    let second = Device::open(1, BackendChoice::Simulated).unwrap();
    assert!(!first.can_be_read_by(&second).unwrap());
    assert!(first.can_be_read_by(&first).unwrap());
    refused_reader_without_a_device_to_device_edge(&first, &second);
    mirrored_reads(&first, &second, 5);

    // The protocol run across two devices (on the simulated backend in CI: every branch's
    // second block reads device 0's buffer through a mirror).
    let checked = run(PipelineConfig {
        item_size: 12,
        min_ring_items: 333,
        total_items: 50_000,
        branches: 3,
        max_chunk: 900,
        host_wait: HostWait::Spin,
        devices: 2,
    });
    assert_eq!(checked, vec![50_000; 3]);

    // SAFETY: as above.
    unsafe { std::env::set_var("GRCUDA_PEER_ACCESS", "some") };
    let error = first.can_be_read_by(&second).unwrap_err();
    assert!(error.to_string().contains("GRCUDA_PEER_ACCESS=\"some\" is refused"), "{error}");
    let error = Device::open(0, BackendChoice::Simulated).unwrap_err();
    assert!(error.to_string().contains("GRCUDA_PEER_ACCESS=\"some\" is refused"), "{error}");
}
