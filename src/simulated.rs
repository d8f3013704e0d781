// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's device facts and memory accounting.
//!
//! On the simulated backend "device memory" is ordinary host memory and kernels run on the CPU
//! (see `kernels::cpu`). This module holds the little state the backend needs: the bytes it
//! has handed out as device memory, so that `Device::free_memory` falls when buffers are
//! created and comes back when they are freed, exactly as leak tests expect of a GPU.

use crate::error::{Error, ErrorKind, Result};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The memory the simulated device pretends to have.
pub(crate) const TOTAL_MEMORY: usize = 16 << 30;

/// The simulated device's name, as `DeviceInfo::name` reports it.
pub(crate) const DEVICE_NAME: &str = "simulated device (CPU)";

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

pub(crate) fn free_memory() -> usize {
    TOTAL_MEMORY.saturating_sub(ALLOCATED.load(Ordering::Relaxed))
}

/// Reserves `bytes` of the simulated device memory, failing as cuMemAlloc would when the
/// device is full.
pub(crate) fn account_allocation(bytes: usize) -> Result<()> {
    ALLOCATED
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |allocated| {
            allocated.checked_add(bytes).filter(|&total| total <= TOTAL_MEMORY)
        })
        .map(|_| ())
        .map_err(|allocated| {
            Error::new(
                ErrorKind::OutOfMemory,
                format!(
                    "out of simulated device memory allocating {bytes} bytes ({} of {} bytes free); \
                     free device memory or ask for smaller buffers",
                    TOTAL_MEMORY.saturating_sub(allocated),
                    TOTAL_MEMORY
                ),
            )
        })
}

pub(crate) fn account_release(bytes: usize) {
    ALLOCATED.fetch_sub(bytes, Ordering::Relaxed);
}
