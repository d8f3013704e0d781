// SPDX-License-Identifier: GPL-3.0-or-later

//! The host ring cache: a freed host ring is kept for the next ring of its device and size,
//! within the limit, oldest released first, and a kept ring is zeroed where it was written and
//! works as a new one. One test, as the cache is the process's.

mod support;

use grcuda::buffer::{Buffer, TransferType};
use grcuda::memory::{DeviceAllocation, HostRing, PinnedAllocation, host_ring_cache};
use grcuda::{HostWait, Stream};
use support::test_device;

#[test]
fn freed_host_rings_are_kept_for_the_next_ring_of_their_size() {
    let device = test_device();
    let page = 4096;
    let (small, large) = (4 * page, 8 * page);
    host_ring_cache::set_limit_bytes(2 * large);

    let first = HostRing::new(&device, small).unwrap();
    let first_address = first.address();
    drop(first);
    assert_eq!(host_ring_cache::cached_bytes(), small, "a freed ring is kept");
    let other_size = HostRing::new(&device, large).unwrap();
    assert_ne!(other_size.address(), first_address, "a ring of another size is not the kept one");
    let again = HostRing::new(&device, small).unwrap();
    assert_eq!(again.address(), first_address, "the next ring of the size takes the kept one over");
    assert_eq!(host_ring_cache::cached_bytes(), 0);

    // A reused ring is still a working double mapping (registered, on a GPU).
    let bytes = unsafe { std::slice::from_raw_parts_mut(again.address() as *mut u8, 2 * small) };
    for (index, byte) in bytes[..small].iter_mut().enumerate() {
        *byte = (index % 251) as u8;
    }
    again.note_written(0, small);
    assert_eq!(bytes[small + 17], 17, "the second mapping aliases the first");
    let stream = Stream::new(&device).unwrap();
    let device_memory = DeviceAllocation::new(&device, small).unwrap();
    let mut back = PinnedAllocation::new(&device, small).unwrap();
    unsafe {
        stream.copy_async(device_memory.address(), again.address(), small).unwrap();
        stream.copy_async(back.address(), device_memory.address(), small).unwrap();
        stream.synchronize().unwrap();
        assert!(back.as_mut_slice() == &bytes[..small]);
    }

    // A kept ring starts zeroed, as a new one does: GNU Radio's readers with history read
    // items from before the first one written, and expect zeros there.
    drop(again);
    let zeroed = HostRing::new(&device, small).unwrap();
    assert_eq!(zeroed.address(), first_address);
    let bytes = unsafe { std::slice::from_raw_parts(zeroed.address() as *const u8, 2 * small) };
    assert!(bytes.iter().all(|&byte| byte == 0), "a ring taken from the cache holds what its last buffer left");

    // A write that wraps, told of as one span from near the end, dirties the whole ring.
    let bytes = unsafe { std::slice::from_raw_parts_mut(zeroed.address() as *mut u8, 2 * small) };
    bytes[small - 8..small + 8].fill(0xa5);
    zeroed.note_written(small - 8, 16);
    drop(zeroed);
    let wrapped = HostRing::new(&device, small).unwrap();
    assert_eq!(wrapped.address(), first_address);
    let bytes = unsafe { std::slice::from_raw_parts(wrapped.address() as *const u8, 2 * small) };
    assert!(bytes.iter().all(|&byte| byte == 0), "a wrapping write was left in the kept ring");
    drop(wrapped);

    // Over the limit, the oldest go first.
    drop(other_size);
    let (third, fourth) = (HostRing::new(&device, large).unwrap(), HostRing::new(&device, large).unwrap());
    drop(third);
    drop(fourth);
    assert_eq!(host_ring_cache::cached_bytes(), 2 * large, "the oldest (small) ring was released");
    host_ring_cache::set_limit_bytes(large);
    assert_eq!(host_ring_cache::cached_bytes(), large, "lowering the limit releases rings at once");
    host_ring_cache::set_limit_bytes(0);
    assert_eq!(host_ring_cache::cached_bytes(), 0);
    drop(HostRing::new(&device, small).unwrap());
    assert_eq!(host_ring_cache::cached_bytes(), 0, "a limit of 0 keeps none");
    assert_eq!(host_ring_cache::limit_bytes(), 0);

    host_ring_cache::set_limit_bytes(64 << 20);
    host_rings_of_buffers_are_zeroed_where_they_were_written(&device);
    host_ring_cache::set_limit_bytes(0);
}

/// Through the buffer protocol: the CPU writer of a host-to-device edge writes its last items
/// and wraps, a device-to-host edge's copy writes a few items; the next buffer of each size
/// finds its host ring all zero.
fn host_rings_of_buffers_are_zeroed_where_they_were_written(device: &grcuda::Device) {
    let item_size = 8;
    for (kind, first_item) in [(TransferType::HostToDevice, None), (TransferType::DeviceToHost, Some(0))] {
        let host_ring_start = |buffer: &Buffer| match kind {
            TransferType::HostToDevice => buffer.writer_pointer(0).unwrap(),
            _ => buffer.reader_pointer(0).unwrap(),
        };
        let buffer = Buffer::new(device, item_size, 4096, HostWait::Spin).unwrap();
        buffer.set_transfer_type(kind).unwrap();
        let ring_items = buffer.ring_items();
        let (start, nitems) = match first_item {
            Some(start) => (start, 3),
            None => (ring_items - 2, 5),
        };
        if kind == TransferType::HostToDevice {
            buffer.begin_write(start, nitems).unwrap();
            let host = buffer.writer_pointer(start).unwrap() as *mut u8;
            unsafe { std::ptr::write_bytes(host, 0x5a, nitems * item_size) };
        } else {
            let stream = Stream::new(device).unwrap();
            buffer.set_writer_stream(Some(std::sync::Arc::new(stream))).unwrap();
            buffer.begin_write(start, nitems).unwrap();
            let pattern = PinnedAllocation::new(device, nitems * item_size).unwrap();
            unsafe { std::ptr::write_bytes(pattern.address() as *mut u8, 0x5a, nitems * item_size) };
            let copier = Stream::new(device).unwrap();
            unsafe {
                copier
                    .copy_async(buffer.writer_pointer(start).unwrap(), pattern.address(), nitems * item_size)
                    .unwrap();
            }
            copier.synchronize().unwrap();
        }
        buffer.post_work(start, nitems).unwrap();
        buffer.synchronize().unwrap();
        let host = host_ring_start(&buffer);
        let written = unsafe { std::slice::from_raw_parts(host as *const u8, ring_items * item_size) };
        assert_eq!(
            written.iter().filter(|&&byte| byte == 0x5a).count(),
            nitems * item_size,
            "{kind:?}: the write arrived"
        );
        drop(buffer);

        let next = Buffer::new(device, item_size, 4096, HostWait::Spin).unwrap();
        next.set_transfer_type(kind).unwrap();
        assert_eq!(host_ring_start(&next), host, "{kind:?}: the next buffer takes the kept ring over");
        let bytes = unsafe { std::slice::from_raw_parts(host as *const u8, 2 * ring_items * item_size) };
        assert!(bytes.iter().all(|&byte| byte == 0), "{kind:?}: the kept host ring holds the last buffer's items");
    }
}
