// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's polyphase channelizer kernels: the sums of `kernels/polyphase.cu`,
//! with the same fused multiply-adds in the same order.

use super::read;
use crate::kernels::element::{Complex32, MultiplyAdd};
use crate::kernels::polyphase::{ChannelizerOutputs, ChannelizerShape};

/// # Safety
/// The arrays hold what `polyphase::pfb_channelizer_filter` requires.
pub(crate) unsafe fn pfb_channelizer_filter(
    input: u64,
    taps: u64,
    spectra: u64,
    shape: ChannelizerShape,
    first_rotation: usize,
) {
    let ChannelizerShape { channels, taps_per_branch, step_advance, steps } = shape;
    for step in 0..steps {
        let rotation = (first_rotation + step * step_advance) % channels;
        for branch in 0..channels {
            let newest = taps_per_branch * channels + step * step_advance - 1 - branch;
            let total = (0..taps_per_branch).fold(Complex32::ZERO, |total, k| unsafe {
                let tap: f32 = read(taps, branch + k * channels);
                read::<Complex32>(input, newest - k * channels).multiply_add(tap, total)
            });
            let slot = (branch + channels - rotation) % channels;
            unsafe { (spectra as *mut Complex32).add(step * channels + slot).write(total) };
        }
    }
}

/// # Safety
/// The arrays hold what `polyphase::pfb_channelizer_scatter` requires.
pub(crate) unsafe fn pfb_channelizer_scatter(
    spectra: u64,
    outputs: &ChannelizerOutputs,
    channels: usize,
    steps: usize,
) {
    for port in 0..outputs.outputs {
        let channel: i32 = unsafe { read(outputs.channel_map, port) };
        let offset: u64 = unsafe { read(outputs.output_offsets, port) };
        let output = outputs.output_base.wrapping_add(offset) as *mut Complex32;
        for step in 0..steps {
            unsafe { output.add(step).write(read(spectra, step * channels + channel as usize)) };
        }
    }
}

/// # Safety
/// The arrays hold what `polyphase::pfb_channelizer_gather` requires.
pub(crate) unsafe fn pfb_channelizer_gather(
    spectra: u64,
    channel_map: u64,
    output: u64,
    channels: usize,
    steps: usize,
) {
    for entry in 0..channels {
        let channel: i32 = unsafe { read(channel_map, entry) };
        for step in 0..steps {
            let value: Complex32 = unsafe { read(spectra, step * channels + channel as usize) };
            unsafe { (output as *mut Complex32).add(step * channels + entry).write(value) };
        }
    }
}
