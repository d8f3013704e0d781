// SPDX-License-Identifier: GPL-3.0-or-later

//! Memory comes back: create/free cycles leave the device's free memory where it started.
//! Alone in its own test binary, so no other test allocates while it measures.

mod support;

use grcuda::HostWait;
use grcuda::buffer::{Buffer, TransferType};
use support::test_device;

#[test]
fn ten_thousand_buffer_cycles_leak_nothing() {
    let device = test_device();
    let cycles: usize = std::env::var("GRCUDA_TEST_CYCLES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    // Warm up: the driver keeps some memory after the first stream, event and ring.
    drop(Buffer::new(&device, 8, 4096, HostWait::Spin).unwrap());
    let start = device.free_memory().unwrap();
    let kinds = [TransferType::HostToDevice, TransferType::DeviceToHost, TransferType::DeviceToDevice];
    let started = std::time::Instant::now();
    for cycle in 0..cycles {
        let buffer = Buffer::new(&device, 8, 1000 + cycle % 5000, HostWait::Spin).unwrap();
        buffer.set_transfer_type(kinds[cycle % 3]).unwrap();
        if cycle % 1000 == 0 {
            assert!(device.free_memory().unwrap() < start, "a live buffer must hold device memory");
        }
    }
    device.synchronize().unwrap();
    assert_eq!(device.free_memory().unwrap(), start, "device memory must return to its start value");
    eprintln!("{cycles} buffer create/free cycles in {:.2?}", started.elapsed());
}
