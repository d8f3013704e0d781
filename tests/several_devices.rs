// SPDX-License-Identifier: GPL-3.0-or-later

//! Several devices on the simulated backend (two unless GRCUDA_SIMULATED_DEVICES says
//! otherwise): each has its own memory, and what spans devices is refused with a message
//! that names both, so CI tests it on a machine without GPUs.

use grcuda::block::Block;
use grcuda::buffer::Buffer;
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
fn a_block_refuses_a_buffer_of_another_device() {
    // Buffers on device 0 and blocks on device 1: device 1's memory is the other test's.
    let (first, second) = (simulated(0), simulated(1));
    let buffer = Arc::new(Buffer::new(&first, 4, 4096, HostWait::Spin).unwrap());
    let mut block = Block::new(&second, HostWait::Spin).unwrap();
    for (inputs, outputs) in [(vec![Some(buffer.clone())], vec![]), (vec![], vec![Some(buffer.clone())])] {
        let error = block.attach_ports(&inputs, &outputs).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert!(error.to_string().contains("(ordinal 1) but the buffer to"), "{error}");
        assert!(error.to_string().contains("(ordinal 0)"), "{error}");
    }
    // Nothing changed: a block of the buffer's own device still takes it.
    let mut own = Block::new(&first, HostWait::Spin).unwrap();
    own.attach_ports(&[], &[Some(buffer.clone())]).unwrap();
    // A reader stream of another device is refused by the buffer itself.
    let stream = Arc::new(Stream::new(&second).unwrap());
    let error = buffer.add_reader(Some(stream)).err().expect("a stream of another device");
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
}
