// SPDX-License-Identifier: GPL-3.0-or-later

//! Devices without peer access to each other's memory, simulated with
//! GRCUDA_SIMULATED_PEER_ACCESS=none (GPUs whose PCIe topology has no peer-to-peer): a block
//! reading a buffer of such a device is refused with a message naming both, before anything is
//! registered, and the buffer's own device still reads it. One test in its own binary, since
//! it sets the process's environment.

use grcuda::block::Block;
use grcuda::buffer::Buffer;
use grcuda::{BackendChoice, Device, ErrorKind, HostWait};
use std::sync::Arc;

#[test]
fn a_reader_without_peer_access_is_refused() {
    // SAFETY: the only test of this binary, run before it starts any thread of its own.
    unsafe { std::env::set_var("GRCUDA_SIMULATED_PEER_ACCESS", "none") };
    let first = Device::open(0, BackendChoice::Simulated).unwrap();
    let second = Device::open(1, BackendChoice::Simulated).unwrap();
    assert!(!first.can_be_read_by(&second).unwrap());
    assert!(first.can_be_read_by(&first).unwrap());

    let buffer = Arc::new(Buffer::new(&first, 4, 4096, HostWait::Spin).unwrap());
    let mut reader = Block::new(&second, HostWait::Spin).unwrap();
    let error = reader.attach_ports(&[Some(buffer.clone())], &[]).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    let message = error.to_string();
    assert!(message.contains("a reader on the simulated device (ordinal 1) cannot read a buffer on"), "{message}");
    assert!(message.contains("no peer access"), "{message}");
    let mut own = Block::new(&first, HostWait::Spin).unwrap();
    own.attach_ports(&[Some(buffer.clone())], &[]).unwrap();

    // SAFETY: as above.
    unsafe { std::env::set_var("GRCUDA_SIMULATED_PEER_ACCESS", "some") };
    let error = first.can_be_read_by(&second).unwrap_err();
    assert!(error.to_string().contains("GRCUDA_SIMULATED_PEER_ACCESS=\"some\" is refused"), "{error}");
}
