// SPDX-License-Identifier: GPL-3.0-or-later

//! Memory: double-mapped rings and plain allocations, on the device and pinned on the host.
//!
//! Rings are the storage of GNU Radio buffers. Each is one physical allocation of N bytes
//! mapped twice, back to back, in a 2N address range, so that any span of up to N bytes that
//! starts in [0, N) is contiguous: no block ever splits its work at the wrap point. Every type
//! here owns its memory and releases it exactly once in `Drop`, also when construction failed
//! half-way (each step's resource is owned by a guard before the next step runs), except that
//! a freed host ring may be kept for reuse (`host_ring_cache`).

pub mod allocation;
pub mod device_ring;
pub mod host_mapping;
pub mod host_ring;
pub mod host_ring_cache;
pub mod sizing;

pub use allocation::{DeviceAllocation, PinnedAllocation};
pub use device_ring::DeviceRing;
pub use host_ring::HostRing;
