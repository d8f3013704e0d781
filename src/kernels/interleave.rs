// SPDX-License-Identifier: GPL-3.0-or-later

//! Interleaving streams into one array and back (`kernels/interleave.cu`), for GNU Radio's
//! streams_to_vector / interleave and vector_to_streams / deinterleave, with items of any
//! size: with S streams, `interleaved[item * S + stream] = streams[stream][item]`.
//!
//! Each launch moves up to [`POINTER_GROUP_SIZE`] streams, whose addresses it takes by value;
//! more streams take more launches on the same stream. Items move in the widest unit that
//! divides the item size and every address (see `move_unit`).

use crate::error::{Error, Result};
use crate::fallible;
use crate::kernels::launch::{self, POINTER_GROUP_SIZE, argument};
use crate::kernels::move_unit::widest_unit;
use crate::kernels::program::{DEINTERLEAVE_KERNELS, INTERLEAVE_KERNELS};
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// `interleaved[item * streams.len() + s] = streams[s][item]` for `items` items of
/// `item_size` bytes. The interleaved array must not overlap any stream.
///
/// # Safety
/// Every stream must address `items * item_size` valid bytes, and `interleaved`
/// `items * item_size * streams.len()`, of device memory of the stream's device (host memory
/// on the simulated backend) until the kernels complete, and nothing else may write them
/// meanwhile.
pub unsafe fn interleave(
    stream: &Stream,
    streams: &[u64],
    interleaved: u64,
    items: usize,
    item_size: usize,
) -> Result<()> {
    unsafe { move_items(stream, Direction::Interleave, streams, interleaved, items, item_size) }
}

/// The inverse of [`interleave`]: `streams[s][item] = interleaved[item * streams.len() + s]`.
/// The streams must not overlap each other or the interleaved array.
///
/// # Safety
/// As for [`interleave`].
pub unsafe fn deinterleave(
    stream: &Stream,
    interleaved: u64,
    streams: &[u64],
    items: usize,
    item_size: usize,
) -> Result<()> {
    unsafe { move_items(stream, Direction::Deinterleave, streams, interleaved, items, item_size) }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Interleave,
    Deinterleave,
}

unsafe fn move_items(
    stream: &Stream,
    direction: Direction,
    streams: &[u64],
    interleaved: u64,
    items: usize,
    item_size: usize,
) -> Result<()> {
    if streams.is_empty() {
        return Err(Error::invalid_argument("interleaving needs at least one stream"));
    }
    if item_size == 0 {
        return Err(Error::invalid_argument("interleaving item size is 0: pass the item size in bytes"));
    }
    if items == 0 {
        return Ok(());
    }
    let stream_bytes = validate::product("stream", &[items, item_size])?;
    let interleaved_bytes = validate::product("interleaved array", &[stream_bytes, streams.len()])?;
    let interleaved_range = validate::bytes("interleaved array", interleaved, interleaved_bytes)?;
    let stream_ranges = fallible::collect(
        streams.iter().map(|&address| {
            let range = validate::bytes("stream", address, stream_bytes)?;
            validate::disjoint(("stream", &range), ("interleaved array", &interleaved_range))?;
            Ok(range)
        }),
        "the streams' address ranges",
    )?;
    if direction == Direction::Deinterleave {
        validate::all_disjoint("output streams", &stream_ranges)?;
    }
    let unit = widest_unit(streams.iter().copied().chain([interleaved, item_size as u64]));
    let kernels = match direction {
        Direction::Interleave => &INTERLEAVE_KERNELS,
        Direction::Deinterleave => &DEINTERLEAVE_KERNELS,
    };
    let on_cpu = || match direction {
        Direction::Interleave => unsafe { cpu::interleave(streams, interleaved, items, item_size) },
        Direction::Deinterleave => unsafe { cpu::deinterleave(interleaved, streams, items, item_size) },
    };
    launch::run(stream, kernels.variant(unit.variant), on_cpu, |kernel| {
        let item_units = (item_size / unit.bytes) as u64;
        let (items_argument, stream_count) = (items as u64, streams.len() as u64);
        for (group_index, group_streams) in streams.chunks(POINTER_GROUP_SIZE).enumerate() {
            let mut group = [0u64; POINTER_GROUP_SIZE];
            group[..group_streams.len()].copy_from_slice(group_streams);
            let group_size = group_streams.len() as u32;
            let first_stream = (group_index * POINTER_GROUP_SIZE) as u64;
            let work_items = items * group_streams.len() * item_units as usize;
            unsafe {
                kernel.launch(
                    work_items,
                    &mut [
                        argument(&group),
                        argument(&group_size),
                        argument(&interleaved),
                        argument(&items_argument),
                        argument(&item_units),
                        argument(&stream_count),
                        argument(&first_stream),
                    ],
                )?
            };
        }
        Ok(())
    })
}
