// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's elementwise kernels (`kernels/elementwise.cu`); multiply is
//! [`combine_arrays`](super::combine_arrays) with the product.

use super::{fast_atan2f, generate, read};
use crate::kernels::element::Complex32;
use crate::kernels::elementwise::ComplexPart;

/// a * conj(b) in the kernel's order (volk_32fc_x2_multiply_conjugate_32fc's).
pub(super) fn multiply_conjugate_of(a: Complex32, b: Complex32) -> Complex32 {
    Complex32::new(a.re * b.re + a.im * b.im, a.im * b.re - a.re * b.im)
}

/// # Safety
/// `count` items valid at every address; output equal to an input or disjoint from both.
pub(crate) unsafe fn multiply_conjugate(first: u64, second: u64, output: u64, count: usize) {
    unsafe { generate(output, count, |i| multiply_conjugate_of(read(first, i), read(second, i))) };
}

/// # Safety
/// `count` items valid at both addresses; output equal to input or disjoint from it.
pub(crate) unsafe fn conjugate(input: u64, output: u64, count: usize) {
    unsafe { generate(output, count, |i| read::<Complex32>(input, i).conj()) };
}

/// # Safety
/// `count` items valid at both addresses, which do not overlap.
pub(crate) unsafe fn complex_part(part: ComplexPart, input: u64, output: u64, count: usize) {
    unsafe {
        generate(output, count, |i| {
            let x = read::<Complex32>(input, i);
            match part {
                ComplexPart::Real => x.re,
                ComplexPart::Imaginary => x.im,
                ComplexPart::Argument => fast_atan2f(x.im, x.re),
            }
        })
    };
}

/// # Safety
/// `count` items valid at the three addresses, which do not overlap.
pub(crate) unsafe fn complex_to_float(input: u64, real: u64, imag: u64, count: usize) {
    unsafe {
        generate(real, count, |i| read::<Complex32>(input, i).re);
        generate(imag, count, |i| read::<Complex32>(input, i).im);
    }
}

/// # Safety
/// `count` items valid at every address; the output overlaps no input.
pub(crate) unsafe fn float_to_complex(real: u64, imag: Option<u64>, output: u64, count: usize) {
    unsafe {
        generate(output, count, |i| Complex32::new(read(real, i), imag.map_or(0.0, |imag| read(imag, i))));
    }
}

/// # Safety
/// The input span ((items - 1) * n + 1 items) and `items` output items valid, not
/// overlapping.
pub(crate) unsafe fn keep_one_in_n(input: u64, output: u64, items: usize, item_size: usize, n: usize) {
    for item in 0..items {
        let source = input as usize + item * n * item_size;
        let destination = output as usize + item * item_size;
        unsafe { std::ptr::copy_nonoverlapping(source as *const u8, destination as *mut u8, item_size) };
    }
}
