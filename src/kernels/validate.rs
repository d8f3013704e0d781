// SPDX-License-Identifier: GPL-3.0-or-later

//! Argument checks shared by the launchers and the FFT.
//!
//! Every address and size is checked before anything is enqueued, so that a bad argument is
//! an InvalidArgument error that says what to change, rather than a device fault that
//! poisons the context for every block of the flowgraph. Addresses cannot be checked against
//! their allocations (they are plain numbers); what can be checked is NULL, alignment,
//! arithmetic overflow and overlap between the arrays of one call.

use crate::error::{Error, Result};
use crate::fallible;
use std::ops::Range;

/// The byte range of `length` bytes at `address`, rejecting NULL and ranges that run past the
/// end of the address space.
pub(crate) fn bytes(what: &str, address: u64, length: usize) -> Result<Range<u64>> {
    if address == 0 {
        return Err(Error::invalid_argument(format!("the {what} address is NULL")));
    }
    let end = u64::try_from(length).ok().and_then(|length| address.checked_add(length));
    match end {
        Some(end) => Ok(address..end),
        None => Err(Error::invalid_argument(format!(
            "the {what} range ({length} bytes at {address:#x}) runs past the end of the address space"
        ))),
    }
}

/// The byte range of `count` items of type `T` at `address`. The address must be a multiple
/// of the item size, because the kernels load each item with one naturally aligned access
/// (a complex64 is one 8-byte load); every item type here has a power-of-two size.
pub(crate) fn array<T>(what: &str, address: u64, count: usize) -> Result<Range<u64>> {
    let item_bytes = size_of::<T>();
    let length = product(what, &[count, item_bytes])?;
    let range = bytes(what, address, length)?;
    if address % item_bytes as u64 != 0 {
        return Err(Error::invalid_argument(format!(
            "the {what} address {address:#x} is not aligned to its {item_bytes}-byte items: \
             pass an address that is a multiple of {item_bytes}"
        )));
    }
    Ok(range)
}

/// The product of `factors`, or an error naming `what` when it overflows.
pub(crate) fn product(what: &str, factors: &[usize]) -> Result<usize> {
    factors
        .iter()
        .try_fold(1usize, |total, &factor| total.checked_mul(factor))
        .ok_or_else(|| Error::invalid_argument(format!("the {what} size overflows ({factors:?} multiplied)")))
}

/// Fails when the two ranges share a byte.
pub(crate) fn disjoint(first: (&str, &Range<u64>), second: (&str, &Range<u64>)) -> Result<()> {
    let ((first_name, first), (second_name, second)) = (first, second);
    if first.start < second.end && second.start < first.end {
        return Err(Error::invalid_argument(format!(
            "the {first_name} ({first:#x?}) and the {second_name} ({second:#x?}) overlap: \
             they must be separate buffers"
        )));
    }
    Ok(())
}

/// Fails unless the ranges are the same (an in-place operation, where each item is read and
/// written by the same thread) or share no byte.
pub(crate) fn same_or_disjoint(first: (&str, &Range<u64>), second: (&str, &Range<u64>)) -> Result<()> {
    if first.1 == second.1 {
        return Ok(());
    }
    disjoint(first, second).map_err(|_| {
        Error::invalid_argument(format!(
            "the {} ({:#x?}) and the {} ({:#x?}) partly overlap: pass the same address for an \
             in-place operation, or separate buffers",
            first.0, first.1, second.0, second.1
        ))
    })
}

/// Fails when any two of the ranges share a byte.
pub(crate) fn all_disjoint(what: &str, ranges: &[Range<u64>]) -> Result<()> {
    let mut sorted = fallible::collect(ranges.iter().map(Ok), &format!("sorting {} {what}", ranges.len()))?;
    // Unstable: the stable sort would allocate a buffer, infallibly.
    sorted.sort_unstable_by_key(|range| range.start);
    for pair in sorted.windows(2) {
        if pair[1].start < pair[0].end {
            return Err(Error::invalid_argument(format!(
                "two {what} overlap ({:#x?} and {:#x?}): each needs its own buffer",
                pair[0], pair[1]
            )));
        }
    }
    Ok(())
}
