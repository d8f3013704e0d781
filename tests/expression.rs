// SPDX-License-Identifier: GPL-3.0-or-later

//! Expressions (`grcuda::expression`) against references computed here in f64 on random
//! data: every operator and function, every input/output type combination, several inputs,
//! vectors, in-place launches, parameters changed between launches, expressions over several
//! lines, complex division and scaling against exact values, and the errors of bad
//! expressions, types and arguments.
//!
//! Runs on the backend `Device::open(0, BackendChoice::Auto)` picks (the GPU with
//! GRCUDA_BACKEND=cuda, where every expression is compiled by NVRTC). Results agree to 1e-5
//! relative to the larger of 1 and the value.

mod support;

use grcuda::ErrorKind;
use grcuda::expression::{Expression, ValueType, function_names};
use grcuda::kernels::Complex32;
use num_complex::Complex;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use support::device_memory::Harness;

type Exact = Complex<f64>;

const TOLERANCE: f64 = 1e-5;
/// Not a multiple of the block size or of a vector length.
const COUNT: usize = 10_007;
const K: f32 = 0.75;

struct Case {
    text: &'static str,
    input_type: ValueType,
    output_type: ValueType,
    inputs: usize,
    reference: fn(&[Exact], f64) -> Exact,
}

fn real(x: f64) -> Exact {
    Exact::new(x, 0.0)
}

const F: ValueType = ValueType::Float;
const C: ValueType = ValueType::Complex;

fn cases() -> Vec<Case> {
    let case =
        |text, input_type, output_type, inputs, reference| Case { text, input_type, output_type, inputs, reference };
    vec![
        case("in0 + in1", F, F, 2, |x, _| x[0] + x[1]),
        case("in0 - in1", F, F, 2, |x, _| x[0] - x[1]),
        case("in0 * in1", F, F, 2, |x, _| x[0] * x[1]),
        case("in0 / in1", F, F, 2, |x, _| x[0] / x[1]),
        case("-in0 + +in1", F, F, 2, |x, _| -x[0] + x[1]),
        case("(in0 * in1 + k) * in0 - in1", F, F, 2, |x, k| (x[0] * x[1] + k) * x[0] - x[1]),
        case("in0 * 2.5f + 1e-1 - .5", F, F, 1, |x, _| x[0] * 2.5 + 0.1 - 0.5),
        case("sin(in0)", F, F, 1, |x, _| real(x[0].re.sin())),
        case("cos(in0)", F, F, 1, |x, _| real(x[0].re.cos())),
        case("tan(in0)", F, F, 1, |x, _| real(x[0].re.tan())),
        case("asin(in0 - 1)", F, F, 1, |x, _| real((x[0].re - 1.0).asin())),
        case("acos(in0 - 1)", F, F, 1, |x, _| real((x[0].re - 1.0).acos())),
        case("atan(in0)", F, F, 1, |x, _| real(x[0].re.atan())),
        case("sinh(in0)", F, F, 1, |x, _| real(x[0].re.sinh())),
        case("cosh(in0)", F, F, 1, |x, _| real(x[0].re.cosh())),
        case("tanh(in0)", F, F, 1, |x, _| real(x[0].re.tanh())),
        case("exp(in0)", F, F, 1, |x, _| real(x[0].re.exp())),
        case("log(in0)", F, F, 1, |x, _| real(x[0].re.ln())),
        case("log10(in0)", F, F, 1, |x, _| real(x[0].re.log10())),
        case("sqrt(in0)", F, F, 1, |x, _| real(x[0].re.sqrt())),
        case("floor(in0 * 8)", F, F, 1, |x, _| real((x[0].re * 8.0).floor())),
        case("ceil(in0 * 8)", F, F, 1, |x, _| real((x[0].re * 8.0).ceil())),
        case("trunc(in0 * 8 - 8)", F, F, 1, |x, _| real((x[0].re * 8.0 - 8.0).trunc())),
        case("fabs(in0 - 1)", F, F, 1, |x, _| real((x[0].re - 1.0).abs())),
        case("pow(in0, in1)", F, F, 2, |x, _| real(x[0].re.powf(x[1].re))),
        case("atan2(in0 - 1, in1 - 1)", F, F, 2, |x, _| real((x[0].re - 1.0).atan2(x[1].re - 1.0))),
        case("fmin(in0, in1)", F, F, 2, |x, _| real(x[0].re.min(x[1].re))),
        case("fmax(in0, in1)", F, F, 2, |x, _| real(x[0].re.max(x[1].re))),
        case("fmod(in0 * 8, in1)", F, F, 2, |x, _| real((x[0].re * 8.0) % x[1].re)),
        case("hypot(in0, in1)", F, F, 2, |x, _| real(x[0].re.hypot(x[1].re))),
        case("abs(in0 - 1) + real(in0) + imag(in0)", F, F, 1, |x, _| real((x[0].re - 1.0).abs() + x[0].re)),
        case("norm(in0) + arg(in0 - 1)", F, F, 1, |x, _| real(x[0].re * x[0].re + (0.0f64).atan2(x[0].re - 1.0))),
        case("in0 + in1 - in2 * k", F, F, 3, |x, k| x[0] + x[1] - x[2] * k),
        case("in0 + in1", C, C, 2, |x, _| x[0] + x[1]),
        case("in0 - in1", C, C, 2, |x, _| x[0] - x[1]),
        case("in0 * in1", C, C, 2, |x, _| x[0] * x[1]),
        case("in0 / in1", C, C, 2, |x, _| x[0] / x[1]),
        case("-conj(in0)", C, C, 1, |x, _| -x[0].conj()),
        case("(in0 * in1 + k) * conj(in0)", C, C, 2, |x, k| (x[0] * x[1] + k) * x[0].conj()),
        case("in0 * 2 - 1", C, C, 1, |x, _| x[0] * 2.0 - 1.0),
        case("complex(real(in0), imag(in1))", C, C, 2, |x, _| Exact::new(x[0].re, x[1].im)),
        case("polar(abs(in0), arg(in1))", C, C, 2, |x, _| Exact::from_polar(x[0].norm(), x[1].arg())),
        case("in0 * polar(1, k)", C, C, 1, |x, k| x[0] * Exact::from_polar(1.0, k)),
        case("norm(in0)", C, C, 1, |x, _| real(x[0].norm_sqr())),
        case("abs(in0)", C, F, 1, |x, _| real(x[0].norm())),
        case("arg(in0)", C, F, 1, |x, _| real(x[0].arg())),
        case("real(in0) - imag(in0)", C, F, 1, |x, _| real(x[0].re - x[0].im)),
        case("norm(in0) / k", C, F, 1, |x, k| real(x[0].norm_sqr() / k)),
        case("abs(in0 * in1) + sin(real(in2))", C, F, 3, |x, _| real((x[0] * x[1]).norm() + x[2].re.sin())),
        case("complex(in0, in1)", F, C, 2, |x, _| Exact::new(x[0].re, x[1].re)),
        case("polar(in0, in1)", F, C, 2, |x, _| Exact::from_polar(x[0].re, x[1].re)),
        case("in0 * k", F, C, 1, |x, k| x[0] * k),
        case("conj(in0) / complex(in1, in0)", F, C, 2, |x, _| x[0] / Exact::new(x[1].re, x[0].re)),
    ]
}

fn exact(x: Complex32) -> Exact {
    Exact::new(f64::from(x.re), f64::from(x.im))
}

/// Random inputs: floats in [0.1, 1.9] (inside every function's domain, away from 0),
/// complex numbers with parts in [-2, 2].
fn random_inputs(rng: &mut StdRng, input_type: ValueType, count: usize) -> Vec<Complex32> {
    (0..count)
        .map(|_| match input_type {
            ValueType::Float => Complex32::new(rng.random_range(0.1f32..1.9), 0.0),
            ValueType::Complex => Complex32::new(rng.random_range(-2.0f32..2.0), rng.random_range(-2.0f32..2.0)),
        })
        .collect()
}

/// Uploads values of `value_type` (floats as their real parts).
fn upload(harness: &Harness, value_type: ValueType, values: &[Complex32]) -> grcuda::memory::DeviceAllocation {
    match value_type {
        ValueType::Float => harness.upload(&values.iter().map(|x| x.re).collect::<Vec<f32>>()),
        ValueType::Complex => harness.upload(values),
    }
}

fn download(harness: &Harness, value_type: ValueType, address: u64, count: usize) -> Vec<Complex32> {
    match value_type {
        ValueType::Float => harness.read::<f32>(address, count).into_iter().map(|x| Complex32::new(x, 0.0)).collect(),
        ValueType::Complex => harness.read(address, count),
    }
}

fn assert_matches(what: &str, actual: &[Complex32], expected: &[Exact]) {
    assert_eq!(actual.len(), expected.len());
    for (index, (&actual, &expected)) in actual.iter().zip(expected).enumerate() {
        let actual = exact(actual);
        let scale = expected.norm().max(1.0);
        let error = (actual - expected).norm();
        assert!(error <= TOLERANCE * scale, "{what}[{index}]: {actual} instead of {expected} (error {error:e})");
    }
}

/// Runs `case` over `count` items of `vector_length` values, with the parameter k.
fn run_case(harness: &Harness, rng: &mut StdRng, case: &Case, count: usize, vector_length: usize) {
    let values = count * vector_length;
    let expression = Expression::new(
        &harness.device,
        case.text,
        case.input_type,
        case.output_type,
        case.inputs,
        vector_length,
        &[("k", K)],
    )
    .unwrap_or_else(|error| panic!("{}: {error}", case.text));
    let data: Vec<Vec<Complex32>> = (0..case.inputs).map(|_| random_inputs(rng, case.input_type, values)).collect();
    let buffers: Vec<_> = data.iter().map(|values| upload(harness, case.input_type, values)).collect();
    let addresses: Vec<u64> = buffers.iter().map(|buffer| buffer.address()).collect();
    let output = harness.allocate::<Complex32>(values);
    unsafe { expression.launch(&harness.stream, &addresses, output.address(), count).unwrap() };
    let expected: Vec<Exact> = (0..values)
        .map(|index| {
            let inputs: Vec<Exact> = data.iter().map(|input| exact(input[index])).collect();
            let value = (case.reference)(&inputs, f64::from(K));
            if case.output_type == ValueType::Float { real(value.re) } else { value }
        })
        .collect();
    let what =
        format!("{} ({}{}, vlen {vector_length})", case.text, case.input_type.letter(), case.output_type.letter());
    assert_matches(&what, &download(harness, case.output_type, output.address(), values), &expected);
}

#[test]
fn every_operator_function_and_type_combination_matches_f64() {
    let harness = Harness::new("expression tests");
    let mut rng = StdRng::seed_from_u64(7);
    let cases = cases();
    for case in &cases {
        run_case(&harness, &mut rng, case, COUNT, 1);
    }
    // Every function of the language is exercised above.
    for name in function_names() {
        assert!(cases.iter().any(|case| case.text.contains(&format!("{name}("))), "no case calls {name}");
    }
}

#[test]
fn vectors_are_items_of_several_values() {
    let harness = Harness::new("expression tests");
    let mut rng = StdRng::seed_from_u64(8);
    for case in cases().iter().filter(|case| case.text.contains('k') || case.inputs == 3) {
        run_case(&harness, &mut rng, case, 333, 7);
    }
}

#[test]
fn output_may_be_an_input_of_the_same_type() {
    let harness = Harness::new("expression tests");
    let mut rng = StdRng::seed_from_u64(9);
    let expression = Expression::new(&harness.device, "in0 * conj(in1) - in0", C, C, 2, 1, &[]).unwrap();
    let first = random_inputs(&mut rng, C, COUNT);
    let second = random_inputs(&mut rng, C, COUNT);
    let (a, b) = (harness.upload(&first), harness.upload(&second));
    unsafe { expression.launch(&harness.stream, &[a.address(), b.address()], a.address(), COUNT).unwrap() };
    let expected: Vec<Exact> =
        first.iter().zip(&second).map(|(&x, &y)| exact(x) * exact(y).conj() - exact(x)).collect();
    assert_matches("in place", &harness.read(a.address(), COUNT), &expected);
}

#[test]
fn parameters_change_between_launches() {
    let harness = Harness::new("expression tests");
    let mut rng = StdRng::seed_from_u64(10);
    let expression =
        Expression::new(&harness.device, "in0 * gain + offset", F, F, 1, 1, &[("gain", 2.0), ("offset", -1.0)])
            .unwrap();
    assert_eq!(expression.parameter_names(), ["gain", "offset"]);
    let data = random_inputs(&mut rng, F, COUNT);
    let input = upload(&harness, F, &data);
    let output = harness.allocate::<f32>(COUNT);
    for (gain, offset) in [(2.0f32, -1.0f32), (-0.5, 3.25), (1e3, 0.0)] {
        expression.set_parameter("gain", gain).unwrap();
        expression.set_parameter("offset", offset).unwrap();
        assert_eq!(expression.parameter("gain").unwrap(), gain);
        unsafe { expression.launch(&harness.stream, &[input.address()], output.address(), COUNT).unwrap() };
        let expected: Vec<Exact> =
            data.iter().map(|x| real(f64::from(x.re) * f64::from(gain) + f64::from(offset))).collect();
        assert_matches("parameters", &download(&harness, F, output.address(), COUNT), &expected);
    }
    let missing = expression.set_parameter("k", 1.0).unwrap_err();
    assert!(
        missing.message().contains("name \"k\" is not a parameter") && missing.message().contains("gain, offset"),
        "{missing}"
    );
    assert!(expression.parameter("gainx").is_err());
    for refused in [f32::NAN, f32::NEG_INFINITY] {
        let error = expression.set_parameter("gain", refused).unwrap_err();
        assert!(error.message().contains("\"gain\" must be finite"), "{error}");
    }
    assert_eq!(expression.parameter("gain").unwrap(), 1e3, "a refused value is not kept");

    // Several at once: all or none.
    for refused in [[("gain", 5.0), ("k", 1.0)], [("gain", 5.0), ("offset", f32::NAN)]] {
        assert!(expression.set_parameters(&refused).is_err(), "{refused:?}");
        assert_eq!(
            (expression.parameter("gain").unwrap(), expression.parameter("offset").unwrap()),
            (1e3, 0.0),
            "{refused:?} changed a parameter"
        );
    }
    expression.set_parameters(&[("offset", 2.0), ("gain", -3.0)]).unwrap();
    assert_eq!((expression.parameter("gain").unwrap(), expression.parameter("offset").unwrap()), (-3.0, 2.0));
}

/// The output of `text` over complex `inputs` (each `COUNT` values), into a complex output,
/// with the parameters `parameters`.
fn complex_outputs(
    harness: &Harness,
    text: &str,
    inputs: &[&[Complex32]],
    parameters: &[(&str, f32)],
) -> Vec<Complex32> {
    let expression = Expression::new(&harness.device, text, C, C, inputs.len(), 1, parameters)
        .unwrap_or_else(|error| panic!("{text}: {error}"));
    let buffers: Vec<_> = inputs.iter().map(|values| harness.upload(values)).collect();
    let addresses: Vec<u64> = buffers.iter().map(|buffer| buffer.address()).collect();
    let output = harness.allocate::<Complex32>(inputs[0].len());
    unsafe { expression.launch(&harness.stream, &addresses, output.address(), inputs[0].len()).unwrap() };
    harness.read(output.address(), inputs[0].len())
}

fn bits(values: &[Complex32]) -> Vec<(u32, u32)> {
    values.iter().map(|z| (z.re.to_bits(), z.im.to_bits())).collect()
}

/// A complex multiplied or divided by a float scales both parts, exactly as C++'s
/// std::complex<float> does: each part is one correctly rounded IEEE operation, whatever the
/// float's size (squaring it, as a complex division would, overflows beyond 1.8e19 and
/// underflows below 1e-19), and NumPy (which multiplies by the float's rounded reciprocal)
/// is within one unit in the last place.
#[test]
fn complex_times_or_divided_by_a_float_scales_each_part() {
    let harness = Harness::new("expression tests");
    let mut rng = StdRng::seed_from_u64(11);
    let mut data = random_inputs(&mut rng, C, COUNT);
    data[0] = Complex32::new(1.5, f32::INFINITY);
    for k in [3.0f32, 1e20, 1e-25, -0.7] {
        let divisors: Vec<Complex32> = vec![Complex32::new(k, 5.0); COUNT];
        let quotient: Vec<Complex32> = data.iter().map(|z| Complex32::new(z.re / k, z.im / k)).collect();
        let product: Vec<Complex32> = data.iter().map(|z| Complex32::new(z.re * k, z.im * k)).collect();
        for (text, expected) in [
            ("in0 / k", &quotient),
            ("in0 / real(in1)", &quotient),
            ("in0 * k", &product),
            ("k * in0", &product),
            ("real(in1) * in0", &product),
        ] {
            let actual = complex_outputs(&harness, text, &[&data, &divisors], &[("k", k)]);
            assert_eq!(bits(&actual), bits(expected), "{text} with k = {k:e}");
        }
        let numpy_reciprocal = 1.0 / k;
        let actual = complex_outputs(&harness, "in0 / k", &[&data], &[("k", k)]);
        for (z, value) in data.iter().zip(&actual).skip(1) {
            for (numpy, part) in [(z.re * numpy_reciprocal, value.re), (z.im * numpy_reciprocal, value.im)] {
                assert!(numpy.to_bits().abs_diff(part.to_bits()) <= 1, "{z} / {k:e}: {part:e}, NumPy {numpy:e}");
            }
        }
    }
    let literal = complex_outputs(&harness, "in0 / 3 + 0.5f * in0", &[&data], &[]);
    let expected: Vec<Complex32> =
        data.iter().map(|z| Complex32::new(z.re / 3.0 + 0.5 * z.re, z.im / 3.0 + 0.5 * z.im)).collect();
    assert_eq!(bits(&literal), bits(&expected), "float literals");
}

/// A float divided by a complex, and a complex by a complex, divide as NumPy does (Smith's
/// method), which stays finite where the divisor's square would overflow or underflow.
#[test]
fn complex_division_does_not_square_the_divisor() {
    let harness = Harness::new("expression tests");
    let cases = [
        (Complex32::new(2.0, 0.0), Complex32::new(1e20, 1e20), Exact::new(1e-20, -1e-20)),
        (Complex32::new(2.0, 0.0), Complex32::new(1e-25, -1e-25), Exact::new(1e25, 1e25)),
        (Complex32::new(1e20, 1e20), Complex32::new(1e20, 1e20), Exact::new(1.0, 0.0)),
        (Complex32::new(3e-30, 4e-30), Complex32::new(0.0, 1e-30), Exact::new(4.0, -3.0)),
        (Complex32::new(6.0, 8.0), Complex32::new(3e30, 4e30), Exact::new(2e-30, 0.0)),
    ];
    let numerators: Vec<Complex32> = cases.iter().map(|case| case.0).collect();
    let divisors: Vec<Complex32> = cases.iter().map(|case| case.1).collect();
    for text in ["in0 / in1", "real(in0) / in1"] {
        let actual = complex_outputs(&harness, text, &[&numerators, &divisors], &[]);
        for ((numerator, divisor, _), value) in cases.iter().zip(&actual) {
            let expected =
                if text == "in0 / in1" { exact(*numerator) } else { real(f64::from(numerator.re)) } / exact(*divisor);
            let error = (exact(*value) - expected).norm();
            assert!(error <= 1e-6 * expected.norm(), "{text}: {numerator} / {divisor} gave {value}, not {expected}");
        }
    }
    let zero =
        complex_outputs(&harness, "in0 / in1", &[&[Complex32::new(1.0, -1.0)], &[Complex32::new(0.0, 0.0)]], &[]);
    assert_eq!((zero[0].re, zero[0].im), (f32::INFINITY, f32::NEG_INFINITY), "as 1 / 0 and -1 / 0");
}

/// Line breaks are spaces between tokens: an expression over several lines computes what
/// the same expression on one line does, bit for bit (on a GPU, its program compiles).
#[test]
fn expressions_may_span_lines() {
    let harness = Harness::new("expression tests");
    let mut rng = StdRng::seed_from_u64(12);
    let data = random_inputs(&mut rng, C, COUNT);
    let parameters = [("k", 0.25f32)];
    let one_line = complex_outputs(&harness, "in0 * k + conj(in0) / (1 - k)", &[&data], &parameters);
    for text in [
        "in0 * k\n+ conj(in0) / (1 - k)",
        "in0 *\r\n    k + conj(\n in0\n) / (1 - k)\n",
        "\n\tin0 * k\r+ conj(in0)\u{2028}/ (1 - k)\u{b}",
    ] {
        assert_eq!(bits(&complex_outputs(&harness, text, &[&data], &parameters)), bits(&one_line), "{text:?}");
    }
}

/// The error of building `text` (float in and out, one input, parameter k).
fn build_error(text: &str, input_type: ValueType, output_type: ValueType) -> String {
    let harness = Harness::new("expression tests");
    match Expression::new(&harness.device, text, input_type, output_type, 1, 1, &[("k", 1.0)]) {
        Ok(_) => panic!("{text:?} built"),
        Err(error) => {
            assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{text}: {error}");
            error.message().to_string()
        }
    }
}

#[test]
fn bad_expressions_and_types_are_refused_with_the_place() {
    let message = build_error("in0 * * k", F, F);
    assert!(message.ends_with("    in0 * * k\n          ^"), "{message}");
    let message = build_error("in0 * 2", C, F);
    assert!(message.contains("complex but the output is float") && message.contains("real(...)"), "{message}");
    let message = build_error("sin(in0)", C, C);
    assert!(message.contains("sin takes float arguments") && message.contains("(column 5)"), "{message}");
    let message = build_error("exp(in0)", C, C);
    assert!(message.contains("polar("), "{message}");
    let message = build_error("in0 + in1", F, F);
    assert!(message.contains("in1 is not an input") && message.contains("(column 7)"), "{message}");
    let message = build_error("in0 * gain", F, F);
    assert!(message.contains("unknown name \"gain\"") && message.contains("k"), "{message}");
    let message = build_error("pow(in0)", F, F);
    assert!(message.contains("pow takes 2 arguments, not 1"), "{message}");
    let message = build_error("sine(in0)", F, F);
    assert!(message.contains("unknown function \"sine\"") && message.contains("sin,"), "{message}");
    let message = build_error("in0 * 010", F, F);
    assert!(
        message.contains("integer literal 010 has a leading zero") && message.contains("write 8 or 10"),
        "{message}"
    );
    let message = build_error("in0 *\n  sin(in0, k)", F, F);
    assert!(message.ends_with("(line 2, column 3):\n      sin(in0, k)\n      ^"), "{message}");
    for text in ["", "in0 +", "in0 ^ 2", "(in0", "in00", "1e39", "0x10", "in0 */ 2", "in0 // 2", "in0 \\\n* 2"] {
        build_error(text, F, F);
    }
}

#[test]
fn bad_arguments_are_refused() {
    let harness = Harness::new("expression tests");
    let build = |inputs, vector_length, parameters: &[(&str, f32)]| {
        Expression::new(&harness.device, "in0", F, F, inputs, vector_length, parameters).err().map(|e| e.to_string())
    };
    assert!(build(0, 1, &[]).unwrap().contains("ninputs must be between 1 and 32, got 0"));
    assert!(build(33, 1, &[]).unwrap().contains("got 33"));
    assert!(build(1, 0, &[]).unwrap().contains("vlen"));
    assert!(build(1, 1, &[("k", 1.0), ("k", 2.0)]).unwrap().contains("named twice"));
    assert!(build(1, 1, &[("in3", 1.0)]).unwrap().contains("input's name"));
    assert!(build(1, 1, &[("sin", 1.0)]).unwrap().contains("function's name"));
    assert!(build(1, 1, &[("2k", 1.0)]).unwrap().contains("not a name"));
    assert!(build(1, 1, &[("k", f32::NAN)]).unwrap().contains("\"k\" must be finite, got NaN"));
    assert!(build(1, 1, &[("k", f32::INFINITY)]).unwrap().contains("got inf"));
    let many: Vec<(String, f32)> = (0..33).map(|i| (format!("p{i}"), 0.0)).collect();
    let many: Vec<(&str, f32)> = many.iter().map(|(name, value)| (name.as_str(), *value)).collect();
    assert!(build(1, 1, &many).unwrap().contains("at most 32, got 33"));

    let expression = Expression::new(&harness.device, "in0 + in1", F, C, 2, 1, &[]).unwrap();
    let input = harness.allocate::<f32>(16);
    let output = harness.allocate::<Complex32>(16);
    let launch =
        |inputs: &[u64], output: u64, items| unsafe { expression.launch(&harness.stream, inputs, output, items) };
    assert!(launch(&[input.address()], output.address(), 16).unwrap_err().message().contains("reads 2 inputs"));
    assert!(launch(&[input.address(), 0], output.address(), 16).unwrap_err().message().contains("input 1"));
    assert!(
        launch(&[input.address(), input.address()], 0, 16).unwrap_err().message().contains("output address is NULL")
    );
    assert!(launch(&[input.address(), input.address()], input.address(), 4).unwrap_err().message().contains("overlap"));
    launch(&[0, 0], 0, 0).expect("no items accepts any address");
    assert!(launch(&[input.address(), input.address()], output.address(), usize::MAX).is_err());
}

#[test]
fn generated_programs_are_shared_by_equal_expressions() {
    let harness = Harness::new("expression tests");
    let first = Expression::new(&harness.device, "in0 * k", F, F, 1, 1, &[("k", 1.0)]).unwrap();
    let second = Expression::new(&harness.device, "in0 * k", F, F, 1, 4, &[("k", 2.0)]).unwrap();
    let other = Expression::new(&harness.device, "in0 * k", F, C, 1, 1, &[("k", 1.0)]).unwrap();
    assert!(std::ptr::eq(first.program(), second.program()));
    assert_ne!(first.program().name, other.program().name);
    assert!(first.program().source.contains("// \"in0 * k\""));
}
