// SPDX-License-Identifier: GPL-3.0-or-later

//! The type check: resolves names (inputs, parameters, functions) and gives every node of the
//! syntax tree its type, float or complex, producing the typed tree that both backends run.
//!
//! Rules: a complex multiplied or divided by a float scales both parts by the float, as
//! C++'s std::complex<float> does (promoting the float would multiply by its zero imaginary
//! part, where inf · 0 is NaN, and divide by its square, which overflows beyond 1.8e19 and
//! underflows below 1e-19); other arithmetic on a float and a complex promotes the float to
//! complex (imaginary part 0), a float divided by a complex too; the float math functions
//! take floats only; the complex helpers take either type (a float is a complex number with
//! no imaginary part). The checked tree is explicit: every promotion is a
//! [`TypedKind::ToComplex`] node, every scaling a [`TypedKind::MultiplyByFloat`] or
//! [`TypedKind::DivideByFloat`] node, and every call names its overload, so the CUDA
//! generator and the interpreter make no decisions of their own and cannot disagree.

use crate::error::Result;
use crate::expression::parse::{BinaryOperator, Node, NodeKind, error_at};

/// The type of a value: GNU Radio's float or gr_complex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueType {
    Float,
    Complex,
}

impl ValueType {
    /// The letter GNU Radio's block names use for it ("f" or "c").
    pub fn letter(self) -> char {
        match self {
            ValueType::Float => 'f',
            ValueType::Complex => 'c',
        }
    }

    pub fn item_bytes(self) -> usize {
        match self {
            ValueType::Float => 4,
            ValueType::Complex => 8,
        }
    }
}

/// A function of the language, one variant per overload where the argument type matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Function {
    /// A float function of one float argument (sin, sqrt, floor, ...).
    Float1(Float1),
    /// A float function of two float arguments (pow, atan2, fmin, ...).
    Float2(Float2),
    Conjugate,
    /// abs of a complex number: its magnitude.
    Magnitude,
    /// arg of a complex number: its angle.
    Angle,
    Real,
    Imaginary,
    /// norm: the squared magnitude.
    Norm,
    /// polar(r, theta): r·e^(i·theta).
    Polar,
    /// complex(re, im).
    MakeComplex,
}

macro_rules! float_functions {
    ($enum:ident, $($variant:ident => $name:literal),* $(,)?) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum $enum { $($variant),* }
        impl $enum {
            const ALL: &[$enum] = &[$($enum::$variant),*];
            /// The name in expressions, which is also the CUDA function with an `f` suffix.
            pub(crate) fn name(self) -> &'static str {
                match self { $($enum::$variant => $name),* }
            }
        }
    };
}

float_functions!(Float1,
    Sin => "sin", Cos => "cos", Tan => "tan", Asin => "asin", Acos => "acos", Atan => "atan",
    Sinh => "sinh", Cosh => "cosh", Tanh => "tanh", Exp => "exp", Log => "log", Log10 => "log10",
    Sqrt => "sqrt", Floor => "floor", Ceil => "ceil", Trunc => "trunc", Fabs => "fabs",
);

float_functions!(Float2, Pow => "pow", Atan2 => "atan2", Fmin => "fmin", Fmax => "fmax", Fmod => "fmod", Hypot => "hypot");

/// The complex helpers' names and the number of arguments each takes.
const COMPLEX_HELPERS: &[(&str, usize)] =
    &[("conj", 1), ("abs", 1), ("arg", 1), ("real", 1), ("imag", 1), ("norm", 1), ("polar", 2), ("complex", 2)];

/// Every function name the language knows, for messages and tests.
pub fn function_names() -> Vec<&'static str> {
    Float1::ALL
        .iter()
        .map(|f| f.name())
        .chain(Float2::ALL.iter().map(|f| f.name()))
        .chain(COMPLEX_HELPERS.iter().map(|(name, _)| *name))
        .collect()
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TypedKind {
    Input(usize),
    Parameter(usize),
    Literal(f32),
    Negate(Box<Typed>),
    /// Both operands have the node's type.
    Binary(BinaryOperator, Box<Typed>, Box<Typed>),
    Call(Function, Vec<Typed>),
    /// A float operand made complex.
    ToComplex(Box<Typed>),
    /// A complex operand times a float one, part by part.
    MultiplyByFloat(Box<Typed>, Box<Typed>),
    /// A complex operand divided by a float one, part by part.
    DivideByFloat(Box<Typed>, Box<Typed>),
}

/// A checked node and the type of its value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Typed {
    pub kind: TypedKind,
    pub value_type: ValueType,
}

/// What names mean in an expression.
pub(crate) struct Scope<'a> {
    pub text: &'a str,
    pub input_count: usize,
    pub input_type: ValueType,
    pub parameters: &'a [String],
}

fn promote(node: Typed, to: ValueType) -> Typed {
    if node.value_type == ValueType::Float && to == ValueType::Complex {
        Typed { kind: TypedKind::ToComplex(Box::new(node)), value_type: ValueType::Complex }
    } else {
        node
    }
}

/// Checks `node` in `scope` and gives the typed tree.
pub(crate) fn check(node: &Node, scope: &Scope) -> Result<Typed> {
    let typed = |kind, value_type| Ok(Typed { kind, value_type });
    match &node.kind {
        NodeKind::Number(value) => typed(TypedKind::Literal(*value), ValueType::Float),
        NodeKind::Name(name) => {
            if let Some(index) = scope.parameters.iter().position(|parameter| parameter == name) {
                return typed(TypedKind::Parameter(index), ValueType::Float);
            }
            if let Some(index) = input_index(name) {
                if index < scope.input_count {
                    return typed(TypedKind::Input(index), scope.input_type);
                }
                return Err(error_at(
                    scope.text,
                    node.column,
                    &format!(
                        "{name} is not an input: the block has {} (in0 to in{})",
                        scope.input_count,
                        scope.input_count - 1
                    ),
                ));
            }
            let known = if scope.parameters.is_empty() {
                "none are defined".to_string()
            } else {
                format!("they are {}", scope.parameters.join(", "))
            };
            Err(error_at(
                scope.text,
                node.column,
                &format!("unknown name {name:?}: names are inputs (in0, in1, …) or parameters ({known})"),
            ))
        }
        NodeKind::Negate(operand) => {
            let operand = check(operand, scope)?;
            let value_type = operand.value_type;
            typed(TypedKind::Negate(Box::new(operand)), value_type)
        }
        NodeKind::Binary(operator, left, right) => {
            let (left, right) = (check(left, scope)?, check(right, scope)?);
            match (operator, left.value_type, right.value_type) {
                (BinaryOperator::Multiply, ValueType::Complex, ValueType::Float) => {
                    return typed(TypedKind::MultiplyByFloat(Box::new(left), Box::new(right)), ValueType::Complex);
                }
                // IEEE products do not depend on the operands' order.
                (BinaryOperator::Multiply, ValueType::Float, ValueType::Complex) => {
                    return typed(TypedKind::MultiplyByFloat(Box::new(right), Box::new(left)), ValueType::Complex);
                }
                (BinaryOperator::Divide, ValueType::Complex, ValueType::Float) => {
                    return typed(TypedKind::DivideByFloat(Box::new(left), Box::new(right)), ValueType::Complex);
                }
                _ => {}
            }
            let value_type = if left.value_type == ValueType::Complex || right.value_type == ValueType::Complex {
                ValueType::Complex
            } else {
                ValueType::Float
            };
            typed(
                TypedKind::Binary(*operator, Box::new(promote(left, value_type)), Box::new(promote(right, value_type))),
                value_type,
            )
        }
        NodeKind::Call(name, arguments) => check_call(node, name, arguments, scope),
    }
}

/// The index of an input name "inN" (N without leading zeros).
fn input_index(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("in")?;
    if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits.parse().ok()
}

fn check_call(node: &Node, name: &str, arguments: &[Node], scope: &Scope) -> Result<Typed> {
    let expected = Float1::ALL
        .iter()
        .any(|f| f.name() == name)
        .then_some(1)
        .or_else(|| Float2::ALL.iter().any(|f| f.name() == name).then_some(2))
        .or_else(|| COMPLEX_HELPERS.iter().find(|(helper, _)| *helper == name).map(|(_, count)| *count));
    let Some(expected) = expected else {
        return Err(error_at(
            scope.text,
            node.column,
            &format!("unknown function {name:?}: the functions are {}", function_names().join(", ")),
        ));
    };
    if arguments.len() != expected {
        let plural = if expected == 1 { "" } else { "s" };
        return Err(error_at(
            scope.text,
            node.column,
            &format!("{name} takes {expected} argument{plural}, not {}", arguments.len()),
        ));
    }
    let mut checked = Vec::with_capacity(arguments.len());
    for argument in arguments {
        checked.push(check(argument, scope)?);
    }
    let argument_type = checked[0].value_type;
    let floats_only = |checked: Vec<Typed>, hint: &str| -> Result<Vec<Typed>> {
        for (argument, typed) in arguments.iter().zip(&checked) {
            if typed.value_type == ValueType::Complex {
                return Err(error_at(
                    scope.text,
                    argument.column,
                    &format!("{name} takes float arguments, and this one is complex: {hint}"),
                ));
            }
        }
        Ok(checked)
    };
    const PARTS: &str = "pass real(...), imag(...), abs(...) or arg(...) of it";
    let (function, arguments, value_type) = match name {
        "conj" => (Function::Conjugate, vec![promote(checked.remove(0), ValueType::Complex)], ValueType::Complex),
        "abs" if argument_type == ValueType::Float => (Function::Float1(Float1::Fabs), checked, ValueType::Float),
        "abs" => (Function::Magnitude, checked, ValueType::Float),
        "arg" => (Function::Angle, vec![promote(checked.remove(0), ValueType::Complex)], ValueType::Float),
        "real" if argument_type == ValueType::Float => return Ok(checked.remove(0)),
        "real" => (Function::Real, checked, ValueType::Float),
        "imag" => (Function::Imaginary, vec![promote(checked.remove(0), ValueType::Complex)], ValueType::Float),
        "norm" => (Function::Norm, vec![promote(checked.remove(0), ValueType::Complex)], ValueType::Float),
        "polar" => (Function::Polar, floats_only(checked, PARTS)?, ValueType::Complex),
        "complex" => (Function::MakeComplex, floats_only(checked, PARTS)?, ValueType::Complex),
        _ => {
            let hint = if name == "exp" {
                "for e^(i·x) write polar(1, x), for e^z write polar(exp(real(z)), imag(z))".to_string()
            } else {
                PARTS.to_string()
            };
            let checked = floats_only(checked, &hint)?;
            let function = match Float1::ALL.iter().find(|f| f.name() == name) {
                Some(function) => Function::Float1(*function),
                None => Function::Float2(*Float2::ALL.iter().find(|f| f.name() == name).expect("known above")),
            };
            (function, checked, ValueType::Float)
        }
    };
    Ok(Typed { kind: TypedKind::Call(function, arguments), value_type })
}
