// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's expression kernel: an interpreter over the typed tree.
//!
//! It computes what the generated CUDA code computes, operation for operation in float32:
//! `+ - * /` are single IEEE operations on both sides (the CUDA code uses the `_rn`
//! intrinsics, which the compiler never fuses into multiply-adds), complex products and
//! quotients use the same formulas in the same order, and the math functions are the C
//! library's (`sinf`, `hypotf`, …), which agree with CUDA's to a few units in the last place.
//! Like the CPU versions of the library's kernels it reads every input of item i before it
//! writes output item i, so an output may be one of the inputs.

use crate::expression::parse::BinaryOperator;
use crate::expression::types::{Float1, Float2, Function, Typed, TypedKind, ValueType};
use crate::kernels::Complex32;

/// A value while evaluating: its type is the node's, known from the check.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value {
    Float(f32),
    Complex(Complex32),
}

impl Value {
    fn float(self) -> f32 {
        match self {
            Value::Float(value) => value,
            Value::Complex(_) => unreachable!("the type check gives float operands here"),
        }
    }

    fn complex(self) -> Complex32 {
        match self {
            Value::Complex(value) => value,
            Value::Float(_) => unreachable!("the type check promotes complex operands"),
        }
    }
}

pub(crate) fn complex_multiply(a: Complex32, b: Complex32) -> Complex32 {
    Complex32::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
}

/// Smith's method, step for step as NumPy divides complex numbers: scaling by the ratio of
/// the divisor's parts keeps the divisor's square, which overflows beyond 1.8e19 and
/// underflows below 1e-19, out of the computation.
pub(crate) fn complex_divide(a: Complex32, b: Complex32) -> Complex32 {
    if b.re.abs() >= b.im.abs() {
        if b.re == 0.0 {
            // Both parts are zero: infinities or NaN, as for floats.
            return Complex32::new(a.re / b.re.abs(), a.im / b.re.abs());
        }
        let ratio = b.im / b.re;
        let scale = 1.0 / (b.re + b.im * ratio);
        Complex32::new((a.re + a.im * ratio) * scale, (a.im - a.re * ratio) * scale)
    } else {
        let ratio = b.re / b.im;
        let scale = 1.0 / (b.im + b.re * ratio);
        Complex32::new((a.re * ratio + a.im) * scale, (a.im * ratio - a.re) * scale)
    }
}

fn float1(function: Float1, x: f32) -> f32 {
    match function {
        Float1::Sin => x.sin(),
        Float1::Cos => x.cos(),
        Float1::Tan => x.tan(),
        Float1::Asin => x.asin(),
        Float1::Acos => x.acos(),
        Float1::Atan => x.atan(),
        Float1::Sinh => x.sinh(),
        Float1::Cosh => x.cosh(),
        Float1::Tanh => x.tanh(),
        Float1::Exp => x.exp(),
        Float1::Log => x.ln(),
        Float1::Log10 => x.log10(),
        Float1::Sqrt => x.sqrt(),
        Float1::Floor => x.floor(),
        Float1::Ceil => x.ceil(),
        Float1::Trunc => x.trunc(),
        Float1::Fabs => x.abs(),
    }
}

fn float2(function: Float2, x: f32, y: f32) -> f32 {
    match function {
        Float2::Pow => x.powf(y),
        Float2::Atan2 => x.atan2(y),
        Float2::Fmin => x.min(y),
        Float2::Fmax => x.max(y),
        Float2::Fmod => x % y,
        Float2::Hypot => x.hypot(y),
    }
}

/// The value of `node` for one item: `inputs` holds that item of every input, `parameters`
/// the parameters' values.
pub(crate) fn evaluate(node: &Typed, inputs: &[Value], parameters: &[f32]) -> Value {
    let operand = |node: &Typed| evaluate(node, inputs, parameters);
    match &node.kind {
        TypedKind::Input(index) => inputs[*index],
        TypedKind::Parameter(index) => Value::Float(parameters[*index]),
        TypedKind::Literal(value) => Value::Float(*value),
        TypedKind::Negate(inner) => match operand(inner) {
            Value::Float(value) => Value::Float(-value),
            Value::Complex(value) => Value::Complex(-value),
        },
        TypedKind::ToComplex(inner) => Value::Complex(Complex32::new(operand(inner).float(), 0.0)),
        TypedKind::MultiplyByFloat(left, right) => {
            let (z, x) = (operand(left).complex(), operand(right).float());
            Value::Complex(Complex32::new(z.re * x, z.im * x))
        }
        TypedKind::DivideByFloat(left, right) => {
            let (z, x) = (operand(left).complex(), operand(right).float());
            Value::Complex(Complex32::new(z.re / x, z.im / x))
        }
        TypedKind::Binary(operator, left, right) => match node.value_type {
            ValueType::Float => {
                let (a, b) = (operand(left).float(), operand(right).float());
                Value::Float(match operator {
                    BinaryOperator::Add => a + b,
                    BinaryOperator::Subtract => a - b,
                    BinaryOperator::Multiply => a * b,
                    BinaryOperator::Divide => a / b,
                })
            }
            ValueType::Complex => {
                let (a, b) = (operand(left).complex(), operand(right).complex());
                Value::Complex(match operator {
                    BinaryOperator::Add => Complex32::new(a.re + b.re, a.im + b.im),
                    BinaryOperator::Subtract => Complex32::new(a.re - b.re, a.im - b.im),
                    BinaryOperator::Multiply => complex_multiply(a, b),
                    BinaryOperator::Divide => complex_divide(a, b),
                })
            }
        },
        TypedKind::Call(function, arguments) => {
            let argument = |index: usize| operand(&arguments[index]);
            match function {
                Function::Float1(function) => Value::Float(float1(*function, argument(0).float())),
                Function::Float2(function) => Value::Float(float2(*function, argument(0).float(), argument(1).float())),
                Function::Conjugate => Value::Complex(argument(0).complex().conj()),
                Function::Magnitude => {
                    let z = argument(0).complex();
                    Value::Float(z.re.hypot(z.im))
                }
                Function::Angle => {
                    let z = argument(0).complex();
                    Value::Float(z.im.atan2(z.re))
                }
                Function::Real => Value::Float(argument(0).complex().re),
                Function::Imaginary => Value::Float(argument(0).complex().im),
                Function::Norm => {
                    let z = argument(0).complex();
                    Value::Float(z.re * z.re + z.im * z.im)
                }
                Function::Polar => {
                    let (radius, angle) = (argument(0).float(), argument(1).float());
                    Value::Complex(Complex32::new(radius * angle.cos(), radius * angle.sin()))
                }
                Function::MakeComplex => Value::Complex(Complex32::new(argument(0).float(), argument(1).float())),
            }
        }
    }
}

/// Runs the expression over `count` items.
///
/// # Safety
/// As the launcher's: every input holds `count` items of `input_type` and the output `count`
/// of `output_type` (host memory), checked for NULL, alignment and overlap; `tree` has type
/// `output_type`.
pub(crate) unsafe fn run(
    tree: &Typed,
    input_type: ValueType,
    inputs: &[u64],
    output: u64,
    count: usize,
    parameters: &[f32],
) {
    let mut values = [Value::Float(0.0); super::MAX_INPUTS];
    let values = &mut values[..inputs.len()];
    for index in 0..count {
        for (value, &input) in values.iter_mut().zip(inputs) {
            *value = match input_type {
                ValueType::Float => Value::Float(unsafe { (input as *const f32).add(index).read() }),
                ValueType::Complex => Value::Complex(unsafe { (input as *const Complex32).add(index).read() }),
            };
        }
        match evaluate(tree, values, parameters) {
            Value::Float(result) => unsafe { (output as *mut f32).add(index).write(result) },
            Value::Complex(result) => unsafe { (output as *mut Complex32).add(index).write(result) },
        }
    }
}
