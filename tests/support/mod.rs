// SPDX-License-Identifier: GPL-3.0-or-later

//! Test support: a miniature GNU Radio scheduler around `Buffer`, so tests drive the buffer
//! protocol the way GNU Radio does (it owns the indices; the buffer only receives them), with
//! one thread per block.

#![allow(dead_code)]

pub mod device_memory;
pub mod pipeline;

use grcuda::buffer::{Buffer, ReaderId};
use grcuda::{Backend, BackendChoice, Device, Stream};
use std::sync::{Arc, Condvar, Mutex};

/// The device the tests run on: GRCUDA_BACKEND decides (cuda on the GPU machine); prints it.
pub fn test_device() -> Device {
    let device = Device::open(0, BackendChoice::Auto).expect("opening device 0");
    eprintln!("backend: {:?} ({})", device.backend(), device.info().name);
    device
}

/// Up to `wanted` devices of test_device()'s backend, test_device() first: as many as there
/// are (one on a machine with one GPU, two on the simulated backend).
pub fn test_devices(wanted: usize) -> Vec<Device> {
    let first = test_device();
    let choice = match first.backend() {
        Backend::Cuda => BackendChoice::Cuda,
        Backend::Simulated => BackendChoice::Simulated,
    };
    let count = Device::count(choice).expect("counting the devices").min(wanted);
    let mut devices = vec![first];
    devices.extend((1..count).map(|ordinal| Device::open(ordinal, choice).expect("opening a device")));
    devices
}

/// One edge of a flowgraph: a buffer plus the indices GNU Radio would keep for it.
pub struct Edge {
    pub buffer: Arc<Buffer>,
    state: Mutex<EdgeState>,
    changed: Condvar,
}

struct EdgeState {
    written: u64,
    read: Vec<u64>,
    finished: bool,
}

impl Edge {
    pub fn new(buffer: Buffer) -> Arc<Edge> {
        Arc::new(Edge {
            buffer: Arc::new(buffer),
            state: Mutex::new(EdgeState { written: 0, read: Vec::new(), finished: false }),
            changed: Condvar::new(),
        })
    }

    pub fn ring_items(&self) -> u64 {
        self.buffer.ring_items() as u64
    }

    /// Registers a reader in the buffer and in the scheduler's bookkeeping.
    pub fn add_reader(&self, stream: Option<Arc<Stream>>) -> ReaderId {
        let id = self.buffer.add_reader(stream).expect("add_reader").id();
        let mut state = self.state.lock().unwrap();
        assert_eq!(id, state.read.len());
        state.read.push(0);
        id
    }

    /// Writer: waits for free space; returns the write index and how many items (at most
    /// `want`) may be written there. Spans may cross the wrap point (the rings are
    /// double-mapped).
    pub fn wait_space(&self, want: u64) -> (usize, u64) {
        self.wait_space_in_multiples(want, 1)
    }

    /// As `wait_space`, for a writer that writes whole multiples of `multiple` items (GNU
    /// Radio's output_multiple).
    pub fn wait_space_in_multiples(&self, want: u64, multiple: u64) -> (usize, u64) {
        let mut state = self.state.lock().unwrap();
        loop {
            let slowest = state.read.iter().copied().min().unwrap_or(state.written);
            let free = self.ring_items() - (state.written - slowest);
            let usable = free.min(want) / multiple * multiple;
            if usable > 0 {
                return ((state.written % self.ring_items()) as usize, usable);
            }
            state = self.changed.wait(state).unwrap();
        }
    }

    /// Writer: publishes `n` items (after post_work, as GNU Radio does).
    pub fn publish(&self, n: u64) {
        self.state.lock().unwrap().written += n;
        self.changed.notify_all();
    }

    pub fn finish(&self) {
        self.state.lock().unwrap().finished = true;
        self.changed.notify_all();
    }

    /// Reader: waits for items; returns the read index and the count (at most `want`), or
    /// `None` once the writer finished and everything was read.
    pub fn wait_items(&self, reader: ReaderId, want: u64) -> Option<(usize, u64)> {
        self.wait_items_in_multiples(reader, want, 1)
    }

    /// As `wait_items`, for a reader that consumes whole multiples of `multiple` items.
    pub fn wait_items_in_multiples(&self, reader: ReaderId, want: u64, multiple: u64) -> Option<(usize, u64)> {
        let mut state = self.state.lock().unwrap();
        loop {
            let available = state.written - state.read[reader];
            let usable = available.min(want) / multiple * multiple;
            if usable > 0 {
                return Some(((state.read[reader] % self.ring_items()) as usize, usable));
            }
            if state.finished {
                return None;
            }
            state = self.changed.wait(state).unwrap();
        }
    }

    /// Reader: frees `n` items for the writer (after consume, as GNU Radio does).
    pub fn release(&self, reader: ReaderId, n: u64) {
        self.state.lock().unwrap().read[reader] += n;
        self.changed.notify_all();
    }
}
