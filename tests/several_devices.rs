// SPDX-License-Identifier: GPL-3.0-or-later

//! Several devices on the simulated backend (two unless GRCUDA_SIMULATED_DEVICES says
//! otherwise): each has its own memory accounting; a buffer's writer must be on its device,
//! and what else spans devices is refused with a message that names both, while readers on
//! another device that can access the buffer's memory (all simulated devices can, as GPUs
//! with peer access can) read it in place. CI tests this on a machine without GPUs.

use grcuda::block::Block;
use grcuda::buffer::{Buffer, TransferType};
use grcuda::memory::DeviceAllocation;
use grcuda::{BackendChoice, Device, ErrorKind, HostWait, Stream};
use std::sync::Arc;

fn simulated(ordinal: usize) -> Device {
    Device::open(ordinal, BackendChoice::Simulated).expect("opening a simulated device")
}

#[test]
fn the_simulated_backend_has_two_devices_by_default() {
    assert_eq!(Device::count(BackendChoice::Simulated).unwrap(), 2);
    let (first, second) = (simulated(0), simulated(1));
    assert_eq!((first.info().ordinal, second.info().ordinal), (0, 1));
    assert!(first.is_same_device(&simulated(0)));
    assert!(!first.is_same_device(&second));
    let error = Device::open(2, BackendChoice::Simulated).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::NoDevice);
    assert!(
        error.to_string().contains("device ordinal 2 does not exist: the simulated backend has 2 device(s)"),
        "{error}"
    );
}

#[test]
fn each_device_accounts_for_its_own_memory() {
    // The only test of this binary that allocates on device 1, so its figure is exact.
    let second = simulated(1);
    let before = second.free_memory().unwrap();
    let allocation = DeviceAllocation::new(&second, 64 << 20).unwrap();
    let ring = Buffer::new(&second, 8, 1 << 20, HostWait::Spin).unwrap();
    assert_eq!(second.free_memory().unwrap(), before - (64 << 20) - ring.ring_items() * 8);
    drop((allocation, ring));
    assert_eq!(second.free_memory().unwrap(), before);
}

#[test]
fn a_block_writes_only_buffers_of_its_own_device_and_reads_those_of_peers() {
    // Buffers on device 0 and blocks on device 1: device 1's memory is the other test's.
    let (first, second) = (simulated(0), simulated(1));
    let buffer = Arc::new(Buffer::new(&first, 4, 4096, HostWait::Spin).unwrap());
    let mut block = Block::new(&second, HostWait::Spin).unwrap();
    let error = block.attach_ports(&[], &[Some(buffer.clone())]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.to_string().contains("(ordinal 1) but the buffer to"), "{error}");
    assert!(error.to_string().contains("(ordinal 0)"), "{error}");
    // Nothing changed: a block of the buffer's own device still writes it.
    let mut own = Block::new(&first, HostWait::Spin).unwrap();
    own.attach_ports(&[], &[Some(buffer.clone())]).unwrap();
    // The buffer itself refuses a writer stream of another device.
    let error = buffer.set_writer_stream(Some(Arc::new(Stream::new(&second).unwrap()))).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    // Simulated devices share host memory, as GPUs with peer access share theirs: the block
    // on device 1 reads the buffer.
    block.attach_ports(&[Some(buffer.clone())], &[]).unwrap();
}

/// A reader on device 1 of a device-to-device buffer on device 0, beside a reader on device 0
/// (fan-out across devices), through several laps of the ring: the first reader's records are
/// device 1's events (a stream records only events of its own device), the writer's stream
/// waits for both readers' and the readers' for the posts across the two devices; moving the
/// first reader to a stream of device 0 moves its records there.
#[test]
fn a_reader_on_another_device_reads_the_ring_in_place() {
    let (first, second) = (simulated(0), simulated(1));
    let buffer = Buffer::new(&first, 4, 4096, HostWait::Spin).unwrap();
    buffer.set_transfer_type(TransferType::DeviceToDevice).unwrap();
    buffer.set_writer_stream(Some(Arc::new(Stream::new(&first).unwrap()))).unwrap();
    let reader = buffer.add_reader(Some(Arc::new(Stream::new(&second).unwrap()))).unwrap();
    let local_reader = buffer.add_reader(Some(Arc::new(Stream::new(&first).unwrap()))).unwrap();
    let ring = buffer.ring_items();
    let call = ring / 4 + 3; // calls that wrap at different places each lap
    let mut written = 0usize;
    for round in 0..12 {
        if round == 6 {
            buffer.set_reader_stream(&reader, Some(Arc::new(Stream::new(&first).unwrap()))).unwrap();
        }
        let index = written % ring;
        buffer.begin_write(index, call).unwrap();
        let items = buffer.writer_pointer(index).unwrap() as *mut u32;
        for item in 0..call {
            // The simulated device's memory is host memory; the ring is mapped twice, so a
            // call's items are contiguous across the wrap.
            unsafe { items.add(item).write((written + item) as u32) };
        }
        buffer.post_work(index, call).unwrap();
        let read = buffer.reader_pointer(index).unwrap() as *const u32;
        let values: Vec<u32> = (0..call).map(|item| unsafe { read.add(item).read() }).collect();
        assert_eq!(values, (written..written + call).map(|item| item as u32).collect::<Vec<_>>(), "round {round}");
        buffer.consume(&reader, index, call).unwrap();
        buffer.consume(&local_reader, index, call).unwrap();
        written += call;
    }
    buffer.synchronize().unwrap();
}
