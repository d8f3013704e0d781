// SPDX-License-Identifier: GPL-3.0-or-later

//! The item types the arithmetic kernels are built for, and their arithmetic on the CPU.
//!
//! [`Element`] is implemented for exactly the types that `FOR_EACH_ARITHMETIC_TYPE` in
//! `kernels/grcuda_common.cuh` instantiates: i16, i32, f32 and [`Complex32`]. It is sealed
//! because a launcher for any other type would name a kernel that does not exist. Its CPU
//! operations are the simulated backend's kernels and match the CUDA ones: integers wrap like
//! C, floats round as IEEE single precision.

use num_complex::Complex;

/// A complex float laid out as GNU Radio's gr_complex and numpy's complex64: real, imaginary.
pub type Complex32 = Complex<f32>;

mod sealed {
    pub trait Sealed {}
}

/// An item type of the arithmetic kernels (multiply by a constant, add, multiply, moving average).
pub trait Element: sealed::Sealed + Copy {
    /// The kernel name suffix for this type ("int16", "int32", "float32", "complex64").
    const NAME: &'static str;
    /// `self * other`, wrapping for integers.
    fn multiply(self, other: Self) -> Self;
    /// `self + other`, wrapping for integers.
    fn add(self, other: Self) -> Self;
    /// `self - other`, wrapping for integers.
    fn subtract(self, other: Self) -> Self;
}

/// An item type the window and moving-average kernels are built for (f32 and [`Complex32`]).
pub trait WindowElement: Element {
    /// `self` times a real window value.
    fn scale(self, factor: f32) -> Self;
}

macro_rules! element {
    ($type:ty, $name:literal, $multiply:expr, $add:expr, $subtract:expr) => {
        impl sealed::Sealed for $type {}
        impl Element for $type {
            const NAME: &'static str = $name;
            fn multiply(self, other: Self) -> Self {
                $multiply(self, other)
            }
            fn add(self, other: Self) -> Self {
                $add(self, other)
            }
            fn subtract(self, other: Self) -> Self {
                $subtract(self, other)
            }
        }
    };
}

element!(i16, "int16", i16::wrapping_mul, i16::wrapping_add, i16::wrapping_sub);
element!(i32, "int32", i32::wrapping_mul, i32::wrapping_add, i32::wrapping_sub);
element!(f32, "float32", |a: f32, b: f32| a * b, |a: f32, b: f32| a + b, |a: f32, b: f32| a - b);
element!(
    Complex32,
    "complex64",
    |a: Complex32, b: Complex32| a * b,
    |a: Complex32, b: Complex32| a + b,
    |a: Complex32, b: Complex32| a - b
);

/// The kernel name suffix of every [`Element`]: the types of `FOR_EACH_ARITHMETIC_TYPE`.
pub(crate) const ELEMENT_NAMES: [&str; 4] = [i16::NAME, i32::NAME, f32::NAME, Complex32::NAME];

/// The kernel name suffix of every [`WindowElement`].
pub(crate) const WINDOW_ELEMENT_NAMES: [&str; 2] = [f32::NAME, Complex32::NAME];

impl WindowElement for f32 {
    fn scale(self, factor: f32) -> Self {
        self * factor
    }
}

impl WindowElement for Complex32 {
    fn scale(self, factor: f32) -> Self {
        self * factor
    }
}

/// `sum + self * tap` for the filters' sample and tap types, as the kernels' `grcuda::multiply_add`
/// computes it: explicit fused multiply-adds, a complex product as four, real part first. The
/// filters' CPU versions use it so that both backends round alike.
pub trait MultiplyAdd<Tap>: Copy {
    fn multiply_add(self, tap: Tap, sum: Self) -> Self;
}

impl MultiplyAdd<f32> for f32 {
    fn multiply_add(self, tap: f32, sum: f32) -> f32 {
        self.mul_add(tap, sum)
    }
}

impl MultiplyAdd<f32> for Complex32 {
    fn multiply_add(self, tap: f32, sum: Complex32) -> Complex32 {
        Complex32::new(self.re.mul_add(tap, sum.re), self.im.mul_add(tap, sum.im))
    }
}

impl MultiplyAdd<Complex32> for Complex32 {
    fn multiply_add(self, tap: Complex32, sum: Complex32) -> Complex32 {
        let real = (-self.im).mul_add(tap.im, self.re.mul_add(tap.re, sum.re));
        let imag = self.im.mul_add(tap.re, self.re.mul_add(tap.im, sum.im));
        Complex32::new(real, imag)
    }
}

/// [`MultiplyAdd`] seen from the tap's side, for every pair that has it: a trait on tap types
/// can require it of itself, which its users then need not repeat.
pub trait MultipliesInto<S>: Copy {
    /// `sum + sample * self`.
    fn multiply_add_into(self, sample: S, sum: S) -> S;
}

impl<S: MultiplyAdd<T>, T: Copy> MultipliesInto<S> for T {
    fn multiply_add_into(self, sample: S, sum: S) -> S {
        sample.multiply_add(self, sum)
    }
}
