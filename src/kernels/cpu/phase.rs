// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's phase kernels (`kernels/phase.cu`) and GNU Radio's fast_atan2f,
//! whose table is read from `kernels/fast_atan2.cuh`, the kernels' copy.

use super::elementwise::multiply_conjugate_of;
use super::{generate, read};
use crate::kernels::element::Complex32;
use crate::kernels::phase::wrap_phase;
use crate::kernels::program::FAST_ATAN2_HEADER;
use std::sync::OnceLock;

const TABLE_SIZE: usize = 257;

/// The arctangent table between the braces of `fast_atan_table` in the header.
fn fast_atan_table() -> &'static [f32; TABLE_SIZE] {
    static TABLE: OnceLock<[f32; TABLE_SIZE]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let start = FAST_ATAN2_HEADER.find("fast_atan_table[").expect("the header defines the table");
        let body = &FAST_ATAN2_HEADER[start..];
        let body = &body[body.find('{').expect("the table has a body") + 1..body.find("};").expect("it ends")];
        let mut table = [0.0f32; TABLE_SIZE];
        let mut values = body.split(',').map(|value| value.trim().parse::<f32>().expect("the table holds floats"));
        table.iter_mut().for_each(|entry| *entry = values.next().expect("the table has 257 entries"));
        assert!(values.next().is_none(), "the table has 257 entries");
        table
    })
}

/// GNU Radio's fast_atan2f, operation for operation (see `kernels/fast_atan2.cuh`).
pub(crate) fn fast_atan2f(y: f32, x: f32) -> f32 {
    let (y_abs, x_abs) = (y.abs(), x.abs());
    if !(y_abs > 0.0 || x_abs > 0.0) {
        return 0.0;
    }
    let z = if y_abs < x_abs { y_abs / x_abs } else { x_abs / y_abs };
    let base_angle = if f64::from(z) < 0.003921569 {
        z
    } else {
        let table = fast_atan_table();
        let mut alpha = z * 255.0;
        let index = (alpha as i32 & 0xff) as usize;
        alpha -= index as f32;
        table[index] + (table[index + 1] - table[index]) * alpha
    };
    let (pi, half_pi) = (std::f32::consts::PI, std::f32::consts::FRAC_PI_2);
    if x_abs > y_abs {
        if x >= 0.0 {
            return if y >= 0.0 { base_angle } else { -base_angle };
        }
        return if y >= 0.0 { pi - base_angle } else { base_angle - pi };
    }
    if y >= 0.0 {
        return if x >= 0.0 { half_pi - base_angle } else { half_pi + base_angle };
    }
    if x >= 0.0 { -half_pi + base_angle } else { -half_pi - base_angle }
}

/// # Safety
/// `count + 1` input items and `count` output items valid, not overlapping.
pub(crate) unsafe fn quadrature_demod(input: u64, output: u64, count: usize, gain: f32) {
    unsafe {
        generate(output, count, |i| {
            let product = multiply_conjugate_of(read(input, i + 1), read(input, i));
            gain * fast_atan2f(product.im, product.re)
        })
    };
}

/// # Safety
/// `count` items valid at both addresses; output equal to input or disjoint from it.
pub(crate) unsafe fn rotator(input: u64, output: u64, count: usize, start_phase: f64, increment: f64) {
    unsafe {
        generate(output, count, |i| {
            let angle = wrap_phase((i as f64).mul_add(increment, start_phase));
            let (sine, cosine) = (angle as f32).sin_cos();
            read::<Complex32>(input, i) * Complex32::new(cosine, sine)
        })
    };
}
