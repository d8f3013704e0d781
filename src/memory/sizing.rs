// SPDX-License-Identifier: GPL-3.0-or-later

//! How big a ring is: at least the items asked for, a whole number of granules (what VMM and
//! mmap can map) and a whole number of items (so the alias starts exactly at item N).

use crate::error::{Error, Result};

/// No ring is made larger than this, whatever the item size asks for.
pub(crate) const MAX_RING_BYTES: usize = 1 << 34;

/// The smallest size in bytes that holds `min_items` items of `item_size` bytes and is a
/// multiple of both `granularity` and `item_size`.
pub fn ring_bytes(min_items: usize, item_size: usize, granularity: usize) -> Result<usize> {
    if item_size == 0 {
        return Err(Error::invalid_argument("item size is 0: it must be at least 1 byte"));
    }
    if min_items == 0 {
        return Err(Error::invalid_argument("minimum item count is 0: a buffer must hold at least 1 item"));
    }
    if granularity == 0 {
        return Err(Error::unsupported(
            "this device does not support CUDA virtual memory management, which device rings need",
        ));
    }
    let too_big = || {
        Error::invalid_argument(format!(
            "a ring of {min_items} items of {item_size} bytes exceeds the {} GiB limit once rounded \
             to the {granularity}-byte granularity and to whole items; ask for fewer items",
            MAX_RING_BYTES >> 30
        ))
    };
    let min_bytes = min_items.checked_mul(item_size).ok_or_else(too_big)?;
    let unit = lcm(granularity, item_size).ok_or_else(too_big)?;
    let bytes = min_bytes.div_ceil(unit).checked_mul(unit).ok_or_else(too_big)?;
    if bytes > MAX_RING_BYTES {
        return Err(too_big());
    }
    Ok(bytes)
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: usize, b: usize) -> Option<usize> {
    (a / gcd(a, b)).checked_mul(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_granularity_and_whole_items() {
        assert_eq!(ring_bytes(1, 4, 4096).unwrap(), 4096);
        assert_eq!(ring_bytes(1025, 4, 4096).unwrap(), 8192);
        // 12-byte items: lcm(4096, 12) = 12288
        assert_eq!(ring_bytes(1, 12, 4096).unwrap(), 12288);
        assert_eq!(ring_bytes(1, 12, 4096).unwrap() % 12, 0);
        assert_eq!(ring_bytes(1 << 20, 8, 2 << 20).unwrap(), 8 << 20);
    }

    #[test]
    fn rejects_zero_and_overflow() {
        assert!(ring_bytes(0, 4, 4096).is_err());
        assert!(ring_bytes(4, 0, 4096).is_err());
        assert!(ring_bytes(usize::MAX, 8, 4096).is_err());
        assert!(ring_bytes(1 << 40, 8, 4096).is_err());
        let no_vmm = ring_bytes(16, 4, 0).unwrap_err();
        assert_eq!(no_vmm.kind(), crate::ErrorKind::Unsupported);
        assert!(no_vmm.message().contains("virtual memory management"), "{no_vmm}");
        let message = ring_bytes(usize::MAX / 2, 4, 4096).unwrap_err().to_string();
        assert!(message.contains("exceeds"), "{message}");
    }
}
