// SPDX-License-Identifier: GPL-3.0-or-later

//! The host ring cache: a freed host ring is kept for the next ring of its device and size,
//! within the limit, oldest released first, and a kept ring is zeroed and works as a new one. One test, as
//! the cache is the process's.

mod support;

use grcuda::Stream;
use grcuda::memory::{DeviceAllocation, HostRing, PinnedAllocation, host_ring_cache};
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
    drop(zeroed);

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
}
