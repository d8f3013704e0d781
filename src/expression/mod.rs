// SPDX-License-Identifier: GPL-3.0-or-later

//! Expressions: one fused elementwise kernel from a C++-style formula over a block's inputs,
//! such as `(in0 * in1 + k) * conj(in0)`.
//!
//! An [`Expression`] is built once, when its block is made: the text is parsed (`parse`),
//! its names resolved and its types checked (`types`), and the typed tree becomes either a
//! CUDA kernel (`cuda_source`), compiled with NVRTC at construction through the library's
//! module and disk caches, or, on the simulated backend, the tree itself, which an
//! interpreter runs (`evaluate`) with the same float32 arithmetic. Every error, from a typo
//! to a complex value for a float output, is found by the constructor and names the column
//! of the expression it concerns.
//!
//! Invariants: the tree's value has the output's type (a float result for a complex output
//! is promoted); parameters are floats, read by every launch from atomics, so
//! [`Expression::set_parameter`] may run on any thread while another launches, and a launch
//! sees each parameter's old or new value, never a torn one.

mod cuda_source;
mod evaluate;
mod parse;
mod types;

pub use types::{ValueType, function_names};

use crate::device::Device;
use crate::error::{Error, ErrorKind, Result};
use crate::kernels::launch::{self, argument};
use crate::kernels::program::{Kernel, Program};
use crate::kernels::{module_cache, validate};
use crate::stream::Stream;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use types::{Scope, Typed, TypedKind};

/// The most inputs an expression reads.
pub(crate) const MAX_INPUTS: usize = 32;
/// The most named parameters an expression has.
pub(crate) const MAX_PARAMETERS: usize = 32;

/// A compiled expression. Launch it on any stream of its device.
pub struct Expression {
    text: String,
    tree: Typed,
    input_type: ValueType,
    output_type: ValueType,
    input_count: usize,
    vector_length: usize,
    parameter_names: Vec<String>,
    parameter_values: Vec<AtomicU32>,
    kernel: Kernel,
    device: Device,
}

/// Whether `value` can be a parameter's: NaN or infinity would only ever make NaN or
/// infinite output (as for the other blocks' constants).
fn check_parameter_value(name: &str, value: f32) -> Result<()> {
    if value.is_finite() {
        return Ok(());
    }
    Err(Error::invalid_argument(format!(
        "parameters: {name:?} must be finite, got {value} (as a float: beyond ±3.4e38 a value is infinite)"
    )))
}

/// Whether `name` can name a parameter: a C identifier that is neither an input nor a function.
fn check_parameter_name(name: &str) -> Result<()> {
    let identifier = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !identifier {
        return Err(Error::invalid_argument(format!(
            "parameters: {name:?} is not a name: use letters, digits and '_', starting with a letter or '_'"
        )));
    }
    if name.strip_prefix("in").is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())) {
        return Err(Error::invalid_argument(format!(
            "parameters: {name:?} is an input's name (in0, in1, …): pick another"
        )));
    }
    if function_names().contains(&name) {
        return Err(Error::invalid_argument(format!("parameters: {name:?} is a function's name: pick another")));
    }
    Ok(())
}

impl Expression {
    /// Builds the expression `text` over `input_count` inputs of `input_type`, writing
    /// `output_type`, for items of `vector_length` values each, with the named float
    /// `parameters` and their first values. On a CUDA device this compiles the kernel (or
    /// reads it from the disk cache) before it returns.
    pub fn new(
        device: &Device,
        text: &str,
        input_type: ValueType,
        output_type: ValueType,
        input_count: usize,
        vector_length: usize,
        parameters: &[(&str, f32)],
    ) -> Result<Expression> {
        if !(1..=MAX_INPUTS).contains(&input_count) {
            return Err(Error::invalid_argument(format!(
                "ninputs must be between 1 and {MAX_INPUTS}, got {input_count}"
            )));
        }
        if vector_length == 0 {
            return Err(Error::invalid_argument("vlen must be at least 1, got 0"));
        }
        if parameters.len() > MAX_PARAMETERS {
            return Err(Error::invalid_argument(format!(
                "parameters: an expression has at most {MAX_PARAMETERS}, got {}",
                parameters.len()
            )));
        }
        let mut parameter_names: Vec<String> = Vec::with_capacity(parameters.len());
        for (name, value) in parameters {
            check_parameter_name(name)?;
            check_parameter_value(name, *value)?;
            if parameter_names.iter().any(|known| known == name) {
                return Err(Error::invalid_argument(format!("parameters: {name:?} is named twice")));
            }
            parameter_names.push(name.to_string());
        }
        let syntax = parse::parse(text)?;
        let scope = Scope { text, input_count, input_type, parameters: &parameter_names };
        let mut tree = types::check(&syntax, &scope)?;
        match (tree.value_type, output_type) {
            (ValueType::Complex, ValueType::Float) => {
                return Err(parse::error_at(
                    text,
                    1,
                    "the expression's value is complex but the output is float: take real(...), imag(...), \
                     abs(...), arg(...) or norm(...) of it",
                ));
            }
            (ValueType::Float, ValueType::Complex) => {
                tree = Typed { kind: TypedKind::ToComplex(Box::new(tree)), value_type: ValueType::Complex };
            }
            _ => {}
        }
        let source = cuda_source::generate(text, &tree, input_type, output_type, input_count, &parameter_names);
        let kernel = cuda_source::kernel(source);
        if !device.is_simulated() {
            module_cache::function(device, kernel).map_err(|error| {
                if error.kind() != ErrorKind::KernelCompile {
                    return error;
                }
                Error::new(
                    ErrorKind::KernelCompile,
                    format!(
                        "NVRTC refused the CUDA code generated for the expression {text:?} (the line after the comment \
                         quoting it in {}): {}\ngenerated code:\n{}",
                        kernel.program.name,
                        error.message(),
                        kernel.program.source
                    ),
                )
            })?;
        }
        Ok(Expression {
            text: text.to_string(),
            tree,
            input_type,
            output_type,
            input_count,
            vector_length,
            parameter_values: parameters.iter().map(|(_, value)| AtomicU32::new(value.to_bits())).collect(),
            parameter_names,
            kernel,
            device: device.clone(),
        })
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn input_type(&self) -> ValueType {
        self.input_type
    }

    pub fn output_type(&self) -> ValueType {
        self.output_type
    }

    pub fn input_count(&self) -> usize {
        self.input_count
    }

    pub fn vector_length(&self) -> usize {
        self.vector_length
    }

    pub fn parameter_names(&self) -> &[String] {
        &self.parameter_names
    }

    /// The generated CUDA program, also on the simulated backend (which does not run it).
    pub fn program(&self) -> &'static Program {
        self.kernel.program
    }

    fn parameter_index(&self, name: &str) -> Result<usize> {
        self.parameter_names.iter().position(|known| known == name).ok_or_else(|| {
            let known = if self.parameter_names.is_empty() {
                "it has none".to_string()
            } else {
                self.parameter_names.join(", ")
            };
            Error::invalid_argument(format!("name {name:?} is not a parameter of the expression ({known})"))
        })
    }

    /// Sets a parameter for the launches that follow. Any thread may call it.
    pub fn set_parameter(&self, name: &str, value: f32) -> Result<()> {
        self.set_parameters(&[(name, value)])
    }

    /// Sets several parameters for the launches that follow, all or none: an unknown name or
    /// a value that is not finite refuses the call and changes nothing. Any thread may call
    /// it; a launch meanwhile may see some of the new values and the old others.
    pub fn set_parameters(&self, values: &[(&str, f32)]) -> Result<()> {
        let mut indices = Vec::with_capacity(values.len());
        for &(name, value) in values {
            indices.push(self.parameter_index(name)?);
            check_parameter_value(name, value)?;
        }
        for (index, (_, value)) in indices.into_iter().zip(values) {
            self.parameter_values[index].store(value.to_bits(), Ordering::Relaxed);
        }
        Ok(())
    }

    pub fn parameter(&self, name: &str) -> Result<f32> {
        Ok(f32::from_bits(self.parameter_values[self.parameter_index(name)?].load(Ordering::Relaxed)))
    }

    /// Enqueues the expression on `stream` over `items` items (of the vector length each):
    /// `inputs` holds one device address per input, `output` the output's. The output may be
    /// one of the inputs when both have the same type; otherwise no arrays may overlap.
    ///
    /// # Safety
    /// Every address must hold `items` items of device memory of the stream's device (host
    /// memory on the simulated backend) until the kernel completes, and nothing else may
    /// write them meanwhile.
    pub unsafe fn launch(&self, stream: &Stream, inputs: &[u64], output: u64, items: usize) -> Result<()> {
        if inputs.len() != self.input_count {
            return Err(Error::invalid_argument(format!(
                "the expression reads {} inputs but the launch passes {}",
                self.input_count,
                inputs.len()
            )));
        }
        if !stream.device().is_same_device(&self.device) {
            return Err(Error::invalid_argument(
                "the stream is on another device than the expression: launch it on a stream of the device it was built for",
            ));
        }
        let count = validate::product("expression item", &[items, self.vector_length])?;
        if count == 0 {
            return Ok(());
        }
        let output_range = range(self.output_type, "output", output, count)?;
        for (index, &input) in inputs.iter().enumerate() {
            let input_range = range(self.input_type, "input", input, count)
                .map_err(|e| Error::invalid_argument(format!("expression input {index}: {}", e.message())))?;
            validate::same_or_disjoint(("input", &input_range), ("output", &output_range))
                .map_err(|e| Error::invalid_argument(format!("expression input {index}: {}", e.message())))?;
        }
        let mut parameters = [0f32; MAX_PARAMETERS];
        for (parameter, value) in parameters.iter_mut().zip(&self.parameter_values) {
            *parameter = f32::from_bits(value.load(Ordering::Relaxed));
        }
        let parameters = &parameters[..self.parameter_values.len()];
        let on_cpu = || unsafe { evaluate::run(&self.tree, self.input_type, inputs, output, count, parameters) };
        launch::run(stream, self.kernel, on_cpu, |kernel| {
            let count_argument = count as u64;
            let mut arguments = [std::ptr::null_mut::<c_void>(); MAX_INPUTS + 2 + MAX_PARAMETERS];
            let mut length = 0;
            let all =
                inputs.iter().chain([&output, &count_argument]).map(argument).chain(parameters.iter().map(argument));
            for pointer in all {
                arguments[length] = pointer;
                length += 1;
            }
            unsafe { kernel.launch_each_item(count, &mut arguments[..length]) }
        })
    }
}

fn range(value_type: ValueType, what: &str, address: u64, count: usize) -> Result<std::ops::Range<u64>> {
    match value_type {
        ValueType::Float => validate::array::<f32>(what, address, count),
        ValueType::Complex => validate::array::<crate::kernels::Complex32>(what, address, count),
    }
}
