// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's device facts and memory accounting.
//!
//! On the simulated backend "device memory" is ordinary host memory and kernels run on the CPU
//! (see `kernels::cpu`). This module holds the little state the backend needs: how many
//! devices it pretends to have, and per device the bytes it has handed out as device memory,
//! so that `Device::free_memory` falls when buffers are created and comes back when they are
//! freed, exactly as leak tests expect of a GPU. Several devices let CI test what spans
//! devices (blocks on one device refusing buffers of another) on a machine without GPUs.

use crate::error::{Error, ErrorKind, Result};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The memory each simulated device pretends to have.
pub(crate) const TOTAL_MEMORY: usize = 16 << 30;

/// The simulated device's name, as `DeviceInfo::name` reports it.
pub(crate) const DEVICE_NAME: &str = "simulated device (CPU)";

/// The environment variable that sets how many devices the simulated backend has.
pub(crate) const DEVICES_ENV: &str = "GRCUDA_SIMULATED_DEVICES";

/// The devices the simulated backend has unless `DEVICES_ENV` says otherwise: two, so that
/// what spans devices is tested wherever the tests run.
const DEFAULT_DEVICES: usize = 2;

/// The most devices `DEVICES_ENV` may ask for.
pub(crate) const MAX_DEVICES: usize = 16;

static ALLOCATED: [AtomicUsize; MAX_DEVICES] = [const { AtomicUsize::new(0) }; MAX_DEVICES];

/// How many devices the simulated backend has: `DEVICES_ENV`, a whole number from 1 to
/// `MAX_DEVICES`, or `DEFAULT_DEVICES` where it is unset or empty.
pub(crate) fn device_count() -> Result<usize> {
    parse_device_count(std::env::var(DEVICES_ENV).ok().as_deref())
}

fn parse_device_count(setting: Option<&str>) -> Result<usize> {
    let Some(text) = setting.filter(|text| !text.is_empty()) else {
        return Ok(DEFAULT_DEVICES);
    };
    match text.parse::<usize>() {
        Ok(count) if (1..=MAX_DEVICES).contains(&count) && text.bytes().all(|b| b.is_ascii_digit()) => Ok(count),
        _ => Err(Error::invalid_argument(format!(
            "{DEVICES_ENV}=\"{text}\" is refused: use a whole number of simulated devices from 1 to \
             {MAX_DEVICES} (the default is {DEFAULT_DEVICES}), or unset it"
        ))),
    }
}

pub(crate) fn free_memory(ordinal: usize) -> usize {
    TOTAL_MEMORY.saturating_sub(ALLOCATED[ordinal].load(Ordering::Relaxed))
}

/// Reserves `bytes` of simulated device `ordinal`'s memory, failing as cuMemAlloc would when
/// the device is full.
pub(crate) fn account_allocation(ordinal: usize, bytes: usize) -> Result<()> {
    ALLOCATED[ordinal]
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |allocated| {
            allocated.checked_add(bytes).filter(|&total| total <= TOTAL_MEMORY)
        })
        .map(|_| ())
        .map_err(|allocated| {
            Error::new(
                ErrorKind::OutOfMemory,
                format!(
                    "out of simulated device memory allocating {bytes} bytes on device {ordinal} ({} of {} bytes \
                     free); free device memory or ask for smaller buffers",
                    TOTAL_MEMORY.saturating_sub(allocated),
                    TOTAL_MEMORY
                ),
            )
        })
}

pub(crate) fn account_release(ordinal: usize, bytes: usize) {
    ALLOCATED[ordinal].fetch_sub(bytes, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_device_count_is_a_whole_number_from_one_to_the_most() {
        assert_eq!(parse_device_count(None).unwrap(), DEFAULT_DEVICES);
        assert_eq!(parse_device_count(Some("")).unwrap(), DEFAULT_DEVICES);
        assert_eq!(parse_device_count(Some("1")).unwrap(), 1);
        assert_eq!(parse_device_count(Some("16")).unwrap(), MAX_DEVICES);
        for refused in ["0", "17", "-1", "+2", "2.0", " 2", "two", "99999999999999999999999"] {
            let error = parse_device_count(Some(refused)).unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{refused}");
            assert!(
                error.to_string().contains(&format!("GRCUDA_SIMULATED_DEVICES=\"{refused}\" is refused")),
                "{error}"
            );
        }
    }
}
