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
//!
//! Starting a segment costs length - 1 additions, which for long windows (from
//! [`CHUNKED_FROM`] items) would dominate: there segments are of [`CHUNK`] outputs, and the
//! chunked kernel starts each from the sums of whole chunks of the window, computed once per
//! block of segments, so its cost per output hardly grows with the length. Its first sums are
//! rounded differently (chunk by chunk, closer to the exact sum than GNU Radio's
//! item-by-item sum), its running sums as GNU Radio's over runs of [`CHUNK`] outputs.

use crate::error::{Error, Result};
use crate::kernels::element::WindowElement;
use crate::kernels::launch::{self, argument};
use crate::kernels::program::{MOVING_AVERAGE_CHUNKED_KERNELS, MOVING_AVERAGE_KERNELS, MOVING_AVERAGE_TILED_KERNELS};
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// Outputs per thread at most: enough to spread the length - 1 additions that start a
/// segment, few enough that 2^20 items make thousands of threads. The tiled kernel takes only
/// segments of this length (`MOVING_AVERAGE_SEGMENT` in `kernels/moving_average.cu`).
const SEGMENT: usize = 32;

/// The window length from which segments are of [`CHUNK`] outputs, started from chunk sums.
/// Below it, starting a segment of [`SEGMENT`] outputs costs the tiled kernel at most 32
/// additions from shared memory per output.
const CHUNKED_FROM: usize = 1024;

/// The segment and chunk of long windows: `MOVING_AVERAGE_CHUNK` in
/// `kernels/moving_average.cu`.
const CHUNK: usize = 64;

/// `MOVING_AVERAGE_CHUNK_THREADS` in `kernels/moving_average.cu`: segments per block of the
/// chunked kernel.
const CHUNK_THREADS: u32 = 128;

/// The history a moving average block sets (GNU Radio's set_history()): the window's
/// length - 1 items and the longest segment a call may start inside, whatever the length
/// and max_iter, so that a new length moves the stream by the change of length alone, as
/// GNU Radio's history of `length` does.
pub fn moving_average_history(length: usize) -> usize {
    length.saturating_add(CHUNK - 1)
}

/// Outputs per running sum: never more than max_iter, as GNU Radio's.
fn segment_size(length: usize, max_iter: usize) -> usize {
    if length >= CHUNKED_FROM && max_iter >= CHUNK { CHUNK } else { SEGMENT.min(max_iter.max(1)) }
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
        .checked_add(moving_average_history(length) - 1)
        .ok_or_else(|| Error::invalid_argument("the moving_average input size overflows"))?;
    let input_range = validate::array::<T>("input", input, validate::product("input", &[input_items, vlen])?)?;
    let output_range = validate::array::<T>("output", output, validate::product("output", &[items, vlen])?)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    let segment = segment_size(length, max_iter);
    // The kernels read segment - 1 items before the windows: skip the history kept for longer
    // segments.
    let input = input + ((CHUNK - segment) * vlen * size_of::<T>()) as u64;
    let phase = (position % segment as u64) as usize;
    let method = if vlen > 1 {
        Method::Direct
    } else if segment == CHUNK {
        // The simulated backend has no shared memory to fit: it sums chunks at any length.
        let device = stream.device();
        let limit = if device.is_simulated() { usize::MAX } else { device.info().shared_bytes_per_block_optin };
        chunk_shared_bytes(size_of::<T>(), length, limit).map_or(Method::Direct, Method::Chunked)
    } else if segment == SEGMENT {
        tile_shared_bytes(size_of::<T>(), length).map_or(Method::Direct, Method::Tiled)
    } else {
        Method::Direct
    };
    let chunked = matches!(method, Method::Chunked(_));
    let on_cpu = || unsafe { cpu::moving_average(input, output, items, vlen, length, scale, segment, phase, chunked) };
    // The tiled kernel makes the direct kernel's additions in the same order: which of the two
    // runs does not change the output.
    let kernels = match method {
        Method::Direct => &MOVING_AVERAGE_KERNELS,
        Method::Tiled(_) => &MOVING_AVERAGE_TILED_KERNELS,
        Method::Chunked(_) => &MOVING_AVERAGE_CHUNKED_KERNELS,
    };
    launch::run(stream, kernels.variant(T::NAME), on_cpu, |kernel| {
        let (items_argument, vlen_argument, length_argument) = (items as u64, vlen as u64, length as u64);
        let (segment_argument, phase_argument) = (segment as u64, phase as u64);
        let mut tiled_arguments = [
            argument(&input),
            argument(&output),
            argument(&items_argument),
            argument(&length_argument),
            argument(&scale),
            argument(&phase_argument),
        ];
        // A staged block takes one segment per thread.
        let mut launch_tiles = |threads: u32, bytes: u32| unsafe {
            kernel.launch_tiles(
                (phase + items).div_ceil(threads as usize * segment),
                threads,
                bytes,
                &mut tiled_arguments,
            )
        };
        match method {
            Method::Tiled(bytes) => launch_tiles(TILE_THREADS, bytes),
            Method::Chunked(bytes) => launch_tiles(CHUNK_THREADS, bytes),
            Method::Direct => unsafe {
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

/// Which kernel computes a call: the kernel reading device memory, or one of the two staging
/// through shared memory (of that many bytes).
#[derive(Clone, Copy)]
enum Method {
    Direct,
    Tiled(u32),
    Chunked(u32),
}

/// The dynamic shared memory of the chunked kernel (the sums of the chunks a block's segments
/// cover), or None where it exceeds `limit`, and the kernel that reads device memory runs.
fn chunk_shared_bytes(item_bytes: usize, length: usize, limit: usize) -> Option<u32> {
    let chunks = (CHUNK_THREADS as usize).checked_add((length - 1) / CHUNK)? - 1;
    let bytes = chunks.checked_mul(item_bytes)?;
    if bytes <= limit { u32::try_from(bytes).ok() } else { None }
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
