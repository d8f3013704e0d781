// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's kernels: the same operations on the CPU, run to completion when
//! they are enqueued, which is a valid schedule of an in-order stream.
//!
//! On that backend device addresses are host pointers. Arrays may alias where the CUDA
//! kernels allow it (an output equal to an input), so these functions work on raw pointers and
//! read every input item i before writing output item i, like one GPU thread does; building
//! overlapping Rust slices would be undefined behaviour. The arithmetic is the one the CUDA
//! kernels do, in the same order, so both backends round alike. Callers (the launchers) have
//! checked addresses, alignment, sizes and overlaps.
//!
//! This file holds the elementary operations and the helpers every CPU version uses; a
//! family of kernels with state or many parameters (filters, resamplers) has its own file
//! beside it.

mod elementwise;
mod logpwrfft;
mod moving_average;
mod phase;

pub(crate) use elementwise::{
    complex_part, complex_to_float, conjugate, float_to_complex, keep_one_in_n, multiply_conjugate,
};
pub(crate) use logpwrfft::{logpwrfft_frames, logpwrfft_power};
pub(crate) use moving_average::moving_average;
pub(crate) use phase::{fast_atan2f, quadrature_demod, rotator};

use crate::kernels::element::{Complex32, Element, WindowElement};

pub(crate) mod fir_filter;
pub(crate) mod load;
pub(crate) mod polyphase;

/// Item `index` of the array of `T` at `address`.
pub(super) unsafe fn read<T: Copy>(address: u64, index: usize) -> T {
    unsafe { (address as *const T).add(index).read() }
}

/// Writes `output[i] = value(i)` for every i in 0..count, in increasing order.
pub(super) unsafe fn generate<T>(output: u64, count: usize, mut value: impl FnMut(usize) -> T) {
    let output = output as *mut T;
    for index in 0..count {
        unsafe { output.add(index).write(value(index)) };
    }
}

/// # Safety
/// Both ranges valid; they may overlap (memmove semantics).
pub(crate) unsafe fn copy(input: u64, output: u64, bytes: usize) {
    unsafe { std::ptr::copy(input as *const u8, output as *mut u8, bytes) };
}

/// # Safety
/// `count` items valid at both addresses; output equal to input or disjoint from it.
pub(crate) unsafe fn multiply_const<T: Element>(input: u64, output: u64, count: usize, constant: T) {
    unsafe { generate(output, count, |i| read::<T>(input, i).multiply(constant)) };
}

/// Combines left to right (add, multiply), as the CUDA kernel and its passes do.
///
/// # Safety
/// `count` items valid at every address; output equal to an input or disjoint from all.
pub(crate) unsafe fn combine_arrays<T: Element>(inputs: &[u64], output: u64, count: usize, combine: fn(T, T) -> T) {
    let (first, rest) = inputs.split_first().expect("the launcher checked that there are inputs");
    unsafe {
        generate(output, count, |i| {
            rest.iter().fold(read::<T>(*first, i), |total, &input| combine(total, read(input, i)))
        })
    };
}

/// # Safety
/// `count` items valid at both addresses, which do not overlap.
pub(crate) unsafe fn magnitude(input: u64, output: u64, count: usize) {
    unsafe { generate(output, count, |i| magnitude_squared_of(read(input, i)).sqrt()) };
}

/// # Safety
/// `count` items valid at both addresses, which do not overlap.
pub(crate) unsafe fn magnitude_squared(input: u64, output: u64, count: usize) {
    unsafe { generate(output, count, |i| magnitude_squared_of(read(input, i))) };
}

fn magnitude_squared_of(x: Complex32) -> f32 {
    x.re * x.re + x.im * x.im
}

/// # Safety
/// `count` items valid at both addresses; output equal to input or disjoint from it.
pub(crate) unsafe fn nlog10(input: u64, output: u64, count: usize, factor: f32, offset: f32) {
    // GNU Radio's clamp to the normal floats (kernels/nlog10.cu); NaN stays NaN.
    let clamped = |x: f32| x.clamp(f32::MIN_POSITIVE, f32::MAX);
    unsafe { generate(output, count, |i| factor * clamped(read::<f32>(input, i)).log10() + offset) };
}

/// # Safety
/// `count` (a multiple of `length`) items valid at both addresses, which do not overlap.
pub(crate) unsafe fn fft_shift(input: u64, output: u64, length: usize, rotation: usize, count: usize) {
    unsafe {
        generate(output, count, |i| {
            let position = i % length;
            let source = (position + rotation) % length;
            read::<Complex32>(input, i - position + source)
        })
    };
}

/// # Safety
/// `count` items valid at input and output (equal or disjoint), `length` at window.
pub(crate) unsafe fn window<T: WindowElement>(input: u64, window: u64, output: u64, length: usize, count: usize) {
    unsafe { generate(output, count, |i| read::<T>(input, i).scale(read(window, i % length))) };
}

/// # Safety
/// `items` items of `item_size` bytes valid at every stream, `items * streams.len()` at
/// `interleaved`, which overlaps no stream.
pub(crate) unsafe fn interleave(streams: &[u64], interleaved: u64, items: usize, item_size: usize) {
    for item in 0..items {
        for (stream, &address) in streams.iter().enumerate() {
            let source = address as usize + item * item_size;
            let destination = interleaved as usize + (item * streams.len() + stream) * item_size;
            unsafe { std::ptr::copy_nonoverlapping(source as *const u8, destination as *mut u8, item_size) };
        }
    }
}

/// # Safety
/// As [`interleave`], and the streams do not overlap each other.
pub(crate) unsafe fn deinterleave(interleaved: u64, streams: &[u64], items: usize, item_size: usize) {
    for item in 0..items {
        for (stream, &address) in streams.iter().enumerate() {
            let source = interleaved as usize + (item * streams.len() + stream) * item_size;
            let destination = address as usize + item * item_size;
            unsafe { std::ptr::copy_nonoverlapping(source as *const u8, destination as *mut u8, item_size) };
        }
    }
}
