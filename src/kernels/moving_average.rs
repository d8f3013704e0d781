// SPDX-License-Identifier: GPL-3.0-or-later

//! Moving average (`kernels/moving_average.cu`), GNU Radio's moving_average_ff/cc.
//!
//! GNU Radio keeps a running sum and starts it afresh from the window's items at every
//! work() call, which processes at most max_iter items. The kernel does the same over
//! segments of [`SEGMENT`] outputs (never more than max_iter), one segment and vector lane
//! per thread: the sums are rounded as GNU Radio rounds them over runs no longer than its
//! own. The segments are aligned to stream positions, and a call that starts inside one
//! recomputes it from its start, so the output does not depend on how the stream is split;
//! that takes a history of [`moving_average_history`] items.

use crate::error::{Error, Result};
use crate::kernels::element::WindowElement;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::{MOVING_AVERAGE_KERNELS, MOVING_AVERAGE_TILED_KERNELS};
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// Outputs per thread at most: enough to spread the length - 1 additions that start a
/// segment, few enough that 2^20 items make thousands of threads. The tiled kernel takes only
/// segments of this length (`MOVING_AVERAGE_SEGMENT` in `kernels/moving_average.cu`).
const SEGMENT: usize = 32;

/// The history a moving average block sets (GNU Radio's set_history()): the window's
/// length - 1 items and the segment a call may start inside.
pub fn moving_average_history(length: usize, max_iter: usize) -> usize {
    length.saturating_add(segment_size(max_iter) - 1)
}

fn segment_size(max_iter: usize) -> usize {
    SEGMENT.min(max_iter.max(1))
}

/// `output[i] = scale * (x[i] + … + x[i + length - 1])` per lane, for `items` items of
/// `vlen` values of `T` (f32 or [`Complex32`](crate::kernels::Complex32)), where x is the
/// input after its history: `input` holds [`moving_average_history`]` - 1 + items` items
/// and does not overlap the output. `position` is the stream index of the first output (GNU
/// Radio's nitems_written), to which the running sum's restarts (at least every `max_iter`
/// outputs) are aligned.
///
/// # Safety
/// `input` and `output` must address that many valid items of device memory of the stream's
/// device (host memory on the simulated backend) until the kernel completes.
#[allow(clippy::too_many_arguments)] // the C entry point's parameters, one for one
pub unsafe fn moving_average<T: WindowElement + Default>(
    stream: &Stream,
    input: u64,
    output: u64,
    items: usize,
    vlen: usize,
    length: usize,
    scale: T,
    max_iter: usize,
    position: u64,
) -> Result<()> {
    if vlen == 0 || length == 0 || max_iter == 0 {
        return Err(Error::invalid_argument(format!(
            "moving_average needs vlen, length and max_iter of at least 1, got {vlen}, {length} and {max_iter}"
        )));
    }
    if items == 0 {
        return Ok(());
    }
    let input_items = items
        .checked_add(moving_average_history(length, max_iter) - 1)
        .ok_or_else(|| Error::invalid_argument("the moving_average input size overflows"))?;
    let input_range = validate::array::<T>("input", input, validate::product("input", &[input_items, vlen])?)?;
    let output_range = validate::array::<T>("output", output, validate::product("output", &[items, vlen])?)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    let segment = segment_size(max_iter);
    let phase = (position % segment as u64) as usize;
    let on_cpu = || unsafe { cpu::moving_average(input, output, items, vlen, length, scale, segment, phase) };
    // Both kernels make the same additions in the same order: which one runs does not change
    // the output.
    let tile_bytes = if vlen == 1 && segment == SEGMENT { tile_shared_bytes(size_of::<T>(), length) } else { None };
    let kernels = if tile_bytes.is_some() { &MOVING_AVERAGE_TILED_KERNELS } else { &MOVING_AVERAGE_KERNELS };
    launch::run(stream, kernels.variant(T::NAME), on_cpu, |kernel| {
        let (items_argument, vlen_argument, length_argument) = (items as u64, vlen as u64, length as u64);
        let (segment_argument, phase_argument) = (segment as u64, phase as u64);
        match tile_bytes {
            Some(bytes) => unsafe {
                let tile_positions = TILE_THREADS as usize * SEGMENT;
                kernel.launch_tiles(
                    (phase + items).div_ceil(tile_positions),
                    TILE_THREADS,
                    bytes,
                    &mut [
                        argument(&input),
                        argument(&output),
                        argument(&items_argument),
                        argument(&length_argument),
                        argument(&scale),
                        argument(&phase_argument),
                    ],
                )
            },
            None => unsafe {
                kernel.launch(
                    (phase + items).div_ceil(segment) * vlen,
                    &mut [
                        argument(&input),
                        argument(&output),
                        argument(&items_argument),
                        argument(&vlen_argument),
                        argument(&length_argument),
                        argument(&scale),
                        argument(&segment_argument),
                        argument(&phase_argument),
                    ],
                )
            },
        }
    })
}

/// `MOVING_AVERAGE_TILE_THREADS` in `kernels/moving_average.cu`.
const TILE_THREADS: u32 = 64;

/// The dynamic shared memory of the tiled kernel (the outputs of a block's segments of
/// [`SEGMENT`] and their input, each padded one item in 32), or None where it does not fit,
/// and the kernel that reads device memory runs.
fn tile_shared_bytes(item_bytes: usize, length: usize) -> Option<u32> {
    let padded = |items: usize| items + items / 32;
    let positions = TILE_THREADS as usize * SEGMENT;
    let items = padded(positions) + padded(positions.checked_add(length)? - 1) + 1;
    let bytes = items.checked_mul(item_bytes)?;
    (bytes <= launch::SHARED_BYTES_PER_BLOCK).then_some(bytes as u32)
}
