// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's moving average (`kernels/moving_average.cu`): the same segments
//! and the same running sum per lane.

use super::read;
use crate::kernels::element::WindowElement;

/// # Safety
/// `segment - 1 + items + length - 1` input items and `items` output items of `vlen` values
/// valid, not overlapping; `phase < segment`.
#[allow(clippy::too_many_arguments)] // the launcher's parameters, the segment and the phase
pub(crate) unsafe fn moving_average<T: WindowElement + Default>(
    input: u64,
    output: u64,
    items: usize,
    vlen: usize,
    length: usize,
    scale: T,
    segment: usize,
    phase: usize,
) {
    let output = output as *mut T;
    // Item 0 here is `phase` items before the call's first output's window start.
    let window_start = input as usize + (segment - 1 - phase) * vlen * size_of::<T>();
    for first in (0..phase + items).step_by(segment) {
        let end = (first + segment).min(phase + items);
        for lane in 0..vlen {
            let at = |item: usize| unsafe { read::<T>(window_start as u64, item * vlen + lane) };
            let mut sum = (first..first + length - 1).fold(T::default(), |sum, item| sum.add(at(item)));
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
