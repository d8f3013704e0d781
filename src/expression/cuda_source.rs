// SPDX-License-Identifier: GPL-3.0-or-later

//! The CUDA program of an expression: source generated from the typed tree, and its place
//! among the library's kernels.
//!
//! The generated program is one elementwise kernel (`write_each_item` in
//! `kernels/grcuda_common.cuh`), `grcuda_expression`, with one parameter
//! per input array, the output, the item count and one float per expression parameter (by
//! value, so changing a parameter costs nothing but the next launch's argument). Arithmetic
//! goes through the `_rn` intrinsics, which the compiler never contracts into fused
//! multiply-adds: the GPU then rounds every `+ - * /` exactly as the interpreter does
//! (`evaluate`).
//!
//! A generated program is registered once per distinct source and lives for the rest of the
//! process, like the library's own programs: it is then an ordinary [`Program`] with its own
//! kernel [`Handles`], so the NVRTC compile, the disk cache and the module cache serve it
//! unchanged. The registry grows only with the number of distinct expressions a process
//! builds.

use crate::expression::parse::BinaryOperator;
use crate::expression::types::{Function, Typed, TypedKind, ValueType};
use crate::kernels::disk_cache::fingerprint;
use crate::kernels::module_cache::Handles;
use crate::kernels::program::{Kernel, Program};
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::{LazyLock, Mutex};

/// The kernel's name in every generated program.
pub(crate) const KERNEL_NAME: &str = "grcuda_expression";

/// Complex arithmetic for the generated code, rounding as `evaluate` does.
const PRELUDE: &str = r#"#include "grcuda_common.cuh"

namespace expression {
__device__ inline complex64 make(float real, float imag) { return complex64{real, imag}; }
__device__ inline complex64 negate(complex64 a) { return complex64{-a.real, -a.imag}; }
__device__ inline complex64 add(complex64 a, complex64 b) {
    return complex64{__fadd_rn(a.real, b.real), __fadd_rn(a.imag, b.imag)};
}
__device__ inline complex64 subtract(complex64 a, complex64 b) {
    return complex64{__fsub_rn(a.real, b.real), __fsub_rn(a.imag, b.imag)};
}
__device__ inline complex64 multiply(complex64 a, complex64 b) {
    return complex64{__fsub_rn(__fmul_rn(a.real, b.real), __fmul_rn(a.imag, b.imag)),
                     __fadd_rn(__fmul_rn(a.real, b.imag), __fmul_rn(a.imag, b.real))};
}
// Smith's method, as NumPy's (evaluate::complex_divide says why).
__device__ inline complex64 divide(complex64 a, complex64 b) {
    if (fabsf(b.real) >= fabsf(b.imag)) {
        if (b.real == 0.0f) {
            return complex64{__fdiv_rn(a.real, fabsf(b.real)), __fdiv_rn(a.imag, fabsf(b.real))};
        }
        const float ratio = __fdiv_rn(b.imag, b.real);
        const float scale = __fdiv_rn(1.0f, __fadd_rn(b.real, __fmul_rn(b.imag, ratio)));
        return complex64{__fmul_rn(__fadd_rn(a.real, __fmul_rn(a.imag, ratio)), scale),
                         __fmul_rn(__fsub_rn(a.imag, __fmul_rn(a.real, ratio)), scale)};
    }
    const float ratio = __fdiv_rn(b.real, b.imag);
    const float scale = __fdiv_rn(1.0f, __fadd_rn(b.imag, __fmul_rn(b.real, ratio)));
    return complex64{__fmul_rn(__fadd_rn(__fmul_rn(a.real, ratio), a.imag), scale),
                     __fmul_rn(__fsub_rn(__fmul_rn(a.imag, ratio), a.real), scale)};
}
__device__ inline complex64 multiply_by_float(complex64 a, float b) {
    return complex64{__fmul_rn(a.real, b), __fmul_rn(a.imag, b)};
}
__device__ inline complex64 divide_by_float(complex64 a, float b) {
    return complex64{__fdiv_rn(a.real, b), __fdiv_rn(a.imag, b)};
}
__device__ inline complex64 conjugate(complex64 a) { return complex64{a.real, -a.imag}; }
__device__ inline float magnitude(complex64 a) { return hypotf(a.real, a.imag); }
__device__ inline float angle(complex64 a) { return atan2f(a.imag, a.real); }
__device__ inline float norm(complex64 a) {
    return __fadd_rn(__fmul_rn(a.real, a.real), __fmul_rn(a.imag, a.imag));
}
__device__ inline complex64 polar(float radius, float theta) {
    return complex64{__fmul_rn(radius, cosf(theta)), __fmul_rn(radius, sinf(theta))};
}
}  // namespace expression
"#;

fn type_name(value_type: ValueType) -> &'static str {
    match value_type {
        ValueType::Float => "float",
        ValueType::Complex => "complex64",
    }
}

/// The C++ of one node. Float literals keep their exact value: Rust prints the shortest
/// decimal that reads back as the same float.
fn code(node: &Typed, out: &mut String) {
    let call = |function: &str, arguments: &[&Typed], out: &mut String| {
        out.push_str(function);
        out.push('(');
        for (index, argument) in arguments.iter().enumerate() {
            if index > 0 {
                out.push_str(", ");
            }
            code(argument, out);
        }
        out.push(')');
    };
    match &node.kind {
        TypedKind::Input(index) => {
            let _ = write!(out, "input{index}[index]");
        }
        TypedKind::Parameter(index) => {
            let _ = write!(out, "parameter{index}");
        }
        TypedKind::Literal(value) => {
            let _ = write!(out, "{value:e}f");
        }
        TypedKind::Negate(inner) => match node.value_type {
            ValueType::Float => {
                out.push_str("(-");
                code(inner, out);
                out.push(')');
            }
            ValueType::Complex => call("expression::negate", &[inner], out),
        },
        TypedKind::ToComplex(inner) => {
            out.push_str("expression::make(");
            code(inner, out);
            out.push_str(", 0.0f)");
        }
        TypedKind::MultiplyByFloat(left, right) => call("expression::multiply_by_float", &[left, right], out),
        TypedKind::DivideByFloat(left, right) => call("expression::divide_by_float", &[left, right], out),
        TypedKind::Binary(operator, left, right) => {
            let function = match (node.value_type, operator) {
                (ValueType::Float, BinaryOperator::Add) => "__fadd_rn",
                (ValueType::Float, BinaryOperator::Subtract) => "__fsub_rn",
                (ValueType::Float, BinaryOperator::Multiply) => "__fmul_rn",
                (ValueType::Float, BinaryOperator::Divide) => "__fdiv_rn",
                (ValueType::Complex, BinaryOperator::Add) => "expression::add",
                (ValueType::Complex, BinaryOperator::Subtract) => "expression::subtract",
                (ValueType::Complex, BinaryOperator::Multiply) => "expression::multiply",
                (ValueType::Complex, BinaryOperator::Divide) => "expression::divide",
            };
            call(function, &[left, right], out)
        }
        TypedKind::Call(function, arguments) => {
            let arguments: Vec<&Typed> = arguments.iter().collect();
            match function {
                Function::Float1(function) => call(&format!("{}f", function.name()), &arguments, out),
                Function::Float2(function) => call(&format!("{}f", function.name()), &arguments, out),
                Function::Conjugate => call("expression::conjugate", &arguments, out),
                Function::Magnitude => call("expression::magnitude", &arguments, out),
                Function::Angle => call("expression::angle", &arguments, out),
                Function::Norm => call("expression::norm", &arguments, out),
                Function::Polar => call("expression::polar", &arguments, out),
                Function::MakeComplex => call("expression::make", &arguments, out),
                Function::Real | Function::Imaginary => {
                    out.push('(');
                    code(arguments[0], out);
                    out.push_str(if *function == Function::Real { ").real" } else { ").imag" });
                }
            }
        }
    }
}

/// The CUDA source of the kernel computing `tree` (of type `output_type`) over `input_count`
/// inputs of `input_type` with `parameter_count` parameters. `text`, the expression, is
/// quoted in a comment just above the line that computes it, which is where NVRTC's messages
/// about that line point.
pub(crate) fn generate(
    text: &str,
    tree: &Typed,
    input_type: ValueType,
    output_type: ValueType,
    input_count: usize,
    parameter_names: &[String],
) -> String {
    let mut source = String::from("// Generated by grcuda for an expression block.\n");
    source.push_str(PRELUDE);
    let input = type_name(input_type);
    let output = type_name(output_type);
    let _ = write!(source, "\nextern \"C\" __global__ void {KERNEL_NAME}(");
    for index in 0..input_count {
        let _ = write!(source, "const {input}* input{index}, ");
    }
    let _ = write!(source, "{output}* output, count_type count");
    for (index, name) in parameter_names.iter().enumerate() {
        let _ = write!(source, ", float parameter{index} /* {name} */");
    }
    source.push_str(") {\n    write_each_item(output, count, [&](count_type index) {\n");
    // Quoted as a Rust string literal, which escapes line breaks and backslashes: whatever
    // the text holds, the comment ends at the end of its line (a "\" there would continue it
    // onto the next).
    let _ = writeln!(source, "        // {text:?}");
    source.push_str("        return ");
    code(tree, &mut source);
    source.push_str(";\n    });\n}\n");
    source
}

/// A registered program and its kernel's handles, alive for the rest of the process.
struct Registered {
    program: Program,
    handles: Handles,
}

/// The kernel of the program with this source, registering the program at its first use.
pub(crate) fn kernel(source: String) -> Kernel {
    static REGISTRY: LazyLock<Mutex<HashMap<String, &'static Registered>>> = LazyLock::new(Default::default);
    let mut registry = REGISTRY.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let registered = match registry.get(&source) {
        Some(registered) => *registered,
        None => {
            let name = format!("expression-{:032x}.cu", fingerprint(&[&source]));
            let registered: &'static Registered = Box::leak(Box::new(Registered {
                program: Program {
                    name: Box::leak(name.into_boxed_str()),
                    source: Box::leak(source.clone().into_boxed_str()),
                },
                handles: Handles::new(),
            }));
            registry.insert(source, registered);
            registered
        }
    };
    Kernel {
        program: &registered.program,
        base: KERNEL_NAME,
        variant: "",
        handles: &registered.handles,
        shared_memory_optin: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expression::{parse, types};
    use crate::kernels::{compile, nvrtc_version};

    /// Whatever the text quoted in the comment holds, the comment ends on its line: the
    /// program compiles, and computes what the tree says. (The parser refuses most of these
    /// texts; the comment does not rely on it.)
    #[test]
    fn no_text_escapes_the_comment_quoting_it() {
        if let Err(error) = nvrtc_version() {
            assert_ne!(std::env::var("GRCUDA_REQUIRE_NVRTC").as_deref(), Ok("1"), "NVRTC cannot be loaded: {error}");
            eprintln!("no_text_escapes_the_comment_quoting_it: skipped, NVRTC cannot be loaded: {error}");
            return;
        }
        let text = "in0 * 2";
        let parameters = ["k".to_string()];
        let scope = types::Scope { text, input_count: 1, input_type: ValueType::Float, parameters: &parameters };
        let tree = types::check(&parse::parse(text).unwrap(), &scope).unwrap();
        for quoted in [
            "in0 *\n 2 + }",
            "in0\r* 2; }",
            "in0\r\n* 2",
            "in0 */ 2 /*",
            "in0 // 2",
            "in0 * 2 \\",
            "in0 * 2 \\\n+ 1",
            "in0 * 2 \\ \n+ 1",
            "in0 * 2 ??/\n+ 1",
            "in0\u{2028}* 2\u{85}\u{b}\u{c}",
            "\"",
        ] {
            let source = generate(quoted, &tree, ValueType::Float, ValueType::Float, 1, &parameters);
            let program = kernel(source).program;
            let comment = program.source.lines().find(|line| line.trim_start().starts_with("// \"")).unwrap();
            let next = program.source.lines().skip_while(|line| *line != comment).nth(1).unwrap();
            assert_eq!(next.trim(), "return __fmul_rn(input0[index], 2e0f);", "{quoted:?}:\n{}", program.source);
            let image = compile(program, "sm_90").unwrap_or_else(|error| panic!("{quoted:?}: {error}"));
            assert!(image.starts_with(b"\x7fELF"), "{quoted:?}");
        }
    }
}
