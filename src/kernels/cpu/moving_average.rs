// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's moving average (`kernels/moving_average.cu`): the same segments
//! and the same running sum per lane, started as the kernel the GPU runs starts it: from the
//! window's items one by one, or (`chunked`) from the sums of its whole chunks of `segment`
//! items and then its remaining items.

use super::read;
use crate::kernels::element::WindowElement;

/// # Safety
/// `segment - 1 + items + length - 1` input items and `items` output items of `vlen` values
/// valid, not overlapping; `phase < segment`.
#[allow(clippy::too_many_arguments)] // the launcher's parameters, the segment, phase and method
pub(crate) unsafe fn moving_average<T: WindowElement + Default>(
    input: u64,
    output: u64,
    items: usize,
    vlen: usize,
    length: usize,
    scale: T,
    segment: usize,
    phase: usize,
    chunked: bool,
) {
    let output = output as *mut T;
    // Item 0 here is `phase` items before the call's first output's window start.
    let window_start = input as usize + (segment - 1 - phase) * vlen * size_of::<T>();
    let whole_chunks = if chunked { (length - 1) / segment } else { 0 };
    let segments = (phase + items).div_ceil(segment);
    for lane in 0..vlen {
        let at = |item: usize| unsafe { read::<T>(window_start as u64, item * vlen + lane) };
        let sum_of = |items: std::ops::Range<usize>, start: T| items.fold(start, |sum, item| sum.add(at(item)));
        // Chunk c is items c * segment .. (c + 1) * segment: the windows of the call's segments
        // cover the first segments + whole_chunks - 1.
        let chunk_sums: Vec<T> = (0..if whole_chunks == 0 { 0 } else { segments + whole_chunks - 1 })
            .map(|c| sum_of(c * segment..(c + 1) * segment, T::default()))
            .collect();
        for first in (0..phase + items).step_by(segment) {
            let end = (first + segment).min(phase + items);
            let chunks = if whole_chunks == 0 { &[][..] } else { &chunk_sums[first / segment..][..whole_chunks] };
            let chunk_total = chunks.iter().fold(T::default(), |sum, &chunk| sum.add(chunk));
            let mut sum = sum_of(first + whole_chunks * segment..first + length - 1, chunk_total);
            for i in first..end {
                sum = sum.add(at(i + length - 1));
                if i >= phase {
                    unsafe { output.add((i - phase) * vlen + lane).write(sum.multiply(scale)) };
                }
                sum = sum.subtract(at(i));
            }
        }
    }
}
