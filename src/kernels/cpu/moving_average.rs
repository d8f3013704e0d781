// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's moving average (`kernels/moving_average.cu`): the same segments
//! and the same running sum per lane.

use super::read;
use crate::kernels::element::WindowElement;

/// # Safety
/// `items + length - 1` input items and `items` output items of `vlen` values valid, not
/// overlapping.
#[allow(clippy::too_many_arguments)] // the launcher's parameters and the segment
pub(crate) unsafe fn moving_average<T: WindowElement + Default>(
    input: u64,
    output: u64,
    items: usize,
    vlen: usize,
    length: usize,
    scale: T,
    segment: usize,
) {
    let output = output as *mut T;
    for first in (0..items).step_by(segment) {
        let end = (first + segment).min(items);
        for lane in 0..vlen {
            let at = |item: usize| unsafe { read::<T>(input, item * vlen + lane) };
            let mut sum = (first..first + length - 1).fold(T::default(), |sum, item| sum.add(at(item)));
            for i in first..end {
                sum = sum.add(at(i + length - 1));
                unsafe { output.add(i * vlen + lane).write(sum.multiply(scale)) };
                sum = sum.subtract(at(i));
            }
        }
    }
}
