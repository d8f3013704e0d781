// SPDX-License-Identifier: GPL-3.0-or-later

//! Rings alias across the wrap point; bad sizes are reported.

mod support;

use grcuda::buffer::Buffer;
use grcuda::memory::{DeviceAllocation, DeviceRing, HostRing, PinnedAllocation, sizing};
use grcuda::{HostWait, Stream};
use support::test_device;

fn fill(bytes: &mut [u8], seed: u8) {
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = (i as u8).wrapping_mul(31).wrapping_add(seed);
    }
}

#[test]
fn device_ring_aliases_across_the_wrap_point() {
    let device = test_device();
    let size = sizing::ring_bytes(1, 1, device.info().ring_granularity).unwrap();
    let ring = DeviceRing::new(&device, size).unwrap();
    let stream = Stream::new(&device).unwrap();
    let span = (64 * 1024).min(size / 2);
    let mut input = PinnedAllocation::new(&device, 2 * span).unwrap();
    let mut output = PinnedAllocation::new(&device, 2 * span).unwrap();
    unsafe {
        fill(input.as_mut_slice(), 5);
        // Write 2*span bytes starting span bytes before the end: the second half lands in the
        // alias of the ring's start.
        stream.copy_async(ring.address() + (size - span) as u64, input.address(), 2 * span).unwrap();
        // Read the start of the ring through the first mapping, and the end through the first.
        stream.copy_async(output.address(), ring.address() + (size - span) as u64, span).unwrap();
        stream.copy_async(output.address() + span as u64, ring.address(), span).unwrap();
        stream.synchronize().unwrap();
        assert!(input.as_mut_slice() == output.as_mut_slice(), "the ring's second mapping must alias the first");
        // And the other way: write through the second mapping at an arbitrary offset.
        fill(input.as_mut_slice(), 77);
        let offset = size / 3;
        stream.copy_async(ring.address() + (size + offset) as u64, input.address(), span).unwrap();
        stream.copy_async(output.address(), ring.address() + offset as u64, span).unwrap();
        stream.synchronize().unwrap();
        assert!(input.as_mut_slice()[..span] == output.as_mut_slice()[..span]);
    }
}

#[test]
fn host_ring_aliases_and_is_usable_for_copies() {
    let device = test_device();
    let page = 4096;
    let ring = HostRing::new(&device, 4 * page).unwrap();
    let bytes = unsafe { std::slice::from_raw_parts_mut(ring.address() as *mut u8, 8 * page) };
    fill(&mut bytes[3 * page..5 * page], 9);
    let mut expected = vec![0u8; 2 * page];
    fill(&mut expected, 9);
    assert_eq!(&bytes[..page], &expected[page..], "host ring's second mapping must alias the first");
    let stream = Stream::new(&device).unwrap();
    let device_memory = DeviceAllocation::new(&device, 4 * page).unwrap();
    let mut back = PinnedAllocation::new(&device, 4 * page).unwrap();
    unsafe {
        stream.copy_async(device_memory.address(), ring.address(), 4 * page).unwrap();
        stream.copy_async(back.address(), device_memory.address(), 4 * page).unwrap();
        stream.synchronize().unwrap();
        assert_eq!(back.as_mut_slice(), &bytes[..4 * page]);
    }
}

#[test]
fn allocation_failures_are_reported_not_fatal() {
    let device = test_device();
    let error = DeviceAllocation::new(&device, 0).err().expect("zero-size allocation must fail");
    assert!(error.message().contains("size is 0"), "{error}");
    let error = Buffer::new(&device, 4, 1 << 40, HostWait::Spin).err().expect("a 4 TiB buffer must fail");
    assert_eq!(error.kind(), grcuda::ErrorKind::InvalidArgument, "{error}");
    let error = DeviceAllocation::new(&device, 1 << 42).err().expect("a 4 TiB allocation must fail");
    assert_eq!(error.kind(), grcuda::ErrorKind::OutOfMemory, "{error}");
    assert!(error.message().contains("free device memory"), "the message must say what to do: {error}");
    // The device still works after the failure.
    drop(DeviceAllocation::new(&device, 4096).unwrap());
}
