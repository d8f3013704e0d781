// SPDX-License-Identifier: GPL-3.0-or-later

//! Compiles every kernel source with NVRTC for real GPU architectures, without a GPU.
//!
//! Needs libnvrtc (see `kernels::compile`). Where it cannot be loaded, the tests say so on
//! standard error and pass, unless GRCUDA_REQUIRE_NVRTC=1, where they fail: CI sets it once
//! NVRTC is installed, so a broken install cannot turn the check off unnoticed.

use grcuda::ErrorKind;
use grcuda::kernels::{self, Program};
use std::io::Write;

/// The architectures checked: Hopper (the H200 the project runs on) and Turing (the oldest that
/// CUDA 13 supports).
const ARCHITECTURES: &[&str] = &["sm_90", "sm_75"];

/// Whether to go on: true when NVRTC loads. Otherwise fails or reports the skip.
fn nvrtc_available(test: &str) -> bool {
    match kernels::nvrtc_version() {
        Ok(_) => true,
        Err(error) if error.kind() == ErrorKind::Unsupported => {
            if std::env::var("GRCUDA_REQUIRE_NVRTC").as_deref() == Ok("1") {
                panic!("GRCUDA_REQUIRE_NVRTC=1 but NVRTC cannot be loaded: {error}");
            }
            // Straight to the stream, past the test harness's capture, so the skip is visible.
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {error}");
            false
        }
        Err(error) => panic!("NVRTC loaded but failed: {error}"),
    }
}

#[test]
fn every_kernel_source_compiles_to_cubin() {
    if !nvrtc_available("every_kernel_source_compiles_to_cubin") {
        return;
    }
    let (major, minor) = kernels::nvrtc_version().unwrap();
    for architecture in ARCHITECTURES {
        for program in kernels::programs() {
            let image = kernels::compile(program, architecture)
                .unwrap_or_else(|error| panic!("{} for {architecture}: {error}", program.name));
            assert!(image.starts_with(b"\x7fELF"), "{} for {architecture} is not a CUBIN (ELF) image", program.name);
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "compiled {} kernel sources for {ARCHITECTURES:?} with NVRTC {major}.{minor}",
        kernels::programs().len()
    );
}

#[test]
fn virtual_architecture_gives_ptx_with_every_kernel() {
    if !nvrtc_available("virtual_architecture_gives_ptx_with_every_kernel") {
        return;
    }
    let mut entries = Vec::new();
    for program in kernels::programs() {
        let image = kernels::compile(program, "compute_90").unwrap();
        assert_eq!(image.last(), Some(&0), "PTX for cuModuleLoadData must end in NUL");
        let ptx = String::from_utf8(image).unwrap();
        assert!(ptx.contains(".target sm_90"), "{}: {}", program.name, &ptx[..ptx.len().min(400)]);
        entries.extend(
            ptx.lines()
                .filter_map(|line| line.split(".entry ").nth(1))
                .map(|rest| rest.trim_end_matches(|c: char| c == '(' || c.is_whitespace()).to_string()),
        );
    }
    // The names the launchers ask for: one per item type or move unit.
    let mut expected = Vec::new();
    for unit in ["1", "2", "4", "8", "16"] {
        for base in
            ["grcuda_copy_unit", "grcuda_interleave_unit", "grcuda_deinterleave_unit", "grcuda_keep_one_in_n_unit"]
        {
            expected.push(format!("{base}{unit}"));
        }
    }
    for name in ["int16", "int32", "float32", "complex64"] {
        expected.push(format!("grcuda_multiply_const_{name}"));
        expected.push(format!("grcuda_add_{name}"));
        expected.push(format!("grcuda_multiply_{name}"));
    }
    for name in ["float32", "complex64"] {
        expected.push(format!("grcuda_window_{name}"));
        expected.push(format!("grcuda_moving_average_{name}"));
        expected.push(format!("grcuda_moving_average_tiled_{name}"));
        expected.push(format!("grcuda_moving_average_chunked_{name}"));
        expected.push(format!("grcuda_overlap_save_gather_{name}"));
        expected.push(format!("grcuda_overlap_save_extract_{name}"));
        expected.push(format!("grcuda_logpwrfft_frames_{name}"));
        // The kernels that fuse the shared-memory FFT, one per sequence length.
        for length in [32, 64, 128, 256, 512, 1024, 2048, 4096] {
            expected.push(format!("grcuda_overlap_save_segments_{name}_{length}"));
            expected.push(format!("grcuda_logpwrfft_spectra_{name}_{length}"));
        }
        for length in [64, 128, 256, 512, 1024] {
            expected.push(format!("grcuda_logpwrfft_columns_{name}_{length}"));
        }
    }
    for length in [128, 256, 512, 1024] {
        expected.push(format!("grcuda_logpwrfft_rows_{length}"));
    }
    for channels in ["32", "64", "128", "256", "512", "1024", "1024_four_steps"] {
        expected.push(format!("grcuda_pfb_channelizer_spectra_{channels}"));
    }
    for types in ["ccc", "ccf", "fff"] {
        expected.push(format!("grcuda_fir_filter_{types}"));
        expected.push(format!("grcuda_fir_filter_tiled_{types}"));
        expected.push(format!("grcuda_fir_filter_tiled_undecimated_{types}"));
        expected.push(format!("grcuda_fir_filter_rows_{types}"));
        expected.push(format!("grcuda_fir_filter_rows3_{types}"));
    }
    expected.push("grcuda_fir_filter_rows5_fff".to_string());
    for name in [
        "grcuda_overlap_save_multiply",
        "grcuda_pfb_channelizer_filter_oversample1",
        "grcuda_pfb_channelizer_filter_oversample2",
        "grcuda_pfb_channelizer_filter_oversample4",
        "grcuda_pfb_channelizer_filter_oversample_any",
        "grcuda_pfb_channelizer_scatter",
        "grcuda_pfb_channelizer_gather",
    ] {
        expected.push(name.to_string());
    }
    for name in [
        "grcuda_magnitude",
        "grcuda_magnitude_squared",
        "grcuda_nlog10",
        "grcuda_fft_shift",
        "grcuda_multiply_conjugate",
        "grcuda_conjugate",
        "grcuda_complex_to_real",
        "grcuda_complex_to_imag",
        "grcuda_complex_to_arg",
        "grcuda_complex_to_float",
        "grcuda_float_to_complex",
        "grcuda_float_to_complex_real",
        "grcuda_quadrature_demod",
        "grcuda_rotator",
        "grcuda_load",
        "grcuda_logpwrfft_power",
        "grcuda_logpwrfft_average",
        "grcuda_logpwrfft_average_powers",
    ] {
        expected.push(name.to_string());
    }
    for name in &expected {
        assert!(entries.contains(name), "no kernel {name} in the PTX; found {entries:?}");
    }
    assert_eq!(entries.len(), expected.len(), "unexpected kernels: {entries:?}");
}

#[test]
fn compile_errors_carry_the_nvrtc_log() {
    if !nvrtc_available("compile_errors_carry_the_nvrtc_log") {
        return;
    }
    let broken =
        Program { name: "broken.cu", source: "extern \"C\" __global__ void broken() { undeclared_name = 1; }" };
    let error = kernels::compile(&broken, "sm_90").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::KernelCompile);
    assert!(error.message().contains("broken.cu"), "{error}");
    assert!(error.message().contains("undeclared_name"), "the log should name the culprit: {error}");
}

#[test]
fn unknown_architecture_names_are_rejected() {
    // Checked before NVRTC is needed, so this runs everywhere.
    let error = kernels::compile(&kernels::programs()[0], "hopper").unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
}

/// The programs generated for expressions: one per input/output type combination, each
/// calling every function of the language, compiled for every checked architecture.
#[test]
fn generated_expression_programs_compile_for_every_type_combination() {
    use grcuda::expression::{Expression, ValueType, function_names};
    use grcuda::{BackendChoice, Device};
    if !nvrtc_available("generated_expression_programs_compile_for_every_type_combination") {
        return;
    }
    // Built on the simulated device, which generates the program without compiling it.
    let device = Device::open(0, BackendChoice::Simulated).unwrap();
    let float_terms = "sin(X) + cos(X) + tan(X) + asin(X) + acos(X) + atan(X) + sinh(X) + cosh(X) + tanh(X) \
                       + exp(X) + log(X) + log10(X) + sqrt(X) + floor(X) + ceil(X) + trunc(X) + fabs(X) \
                       + pow(X, Y) + atan2(X, Y) + fmin(X, Y) + fmax(X, Y) + fmod(X, Y) + hypot(X, Y) \
                       + abs(polar(X, Y)) + arg(complex(X, Y)) - 1.5e-3f * k / 2";
    let complex_terms = "abs(in0) + arg(in1) + real(in0) + imag(in1) + norm(in0 / in1) + abs(conj(in0) * in1 - -in0)";
    let combinations = [
        (
            ValueType::Float,
            ValueType::Float,
            format!("{} + {complex_terms}", float_terms.replace('X', "in0").replace('Y', "in1")),
        ),
        (
            ValueType::Float,
            ValueType::Complex,
            format!("in0 * conj(in1) + {complex_terms} + {}", float_terms.replace('X', "in0").replace('Y', "in1")),
        ),
        (
            ValueType::Complex,
            ValueType::Float,
            format!("{} + {complex_terms}", float_terms.replace('X', "real(in0)").replace('Y', "imag(in1)")),
        ),
        (
            ValueType::Complex,
            ValueType::Complex,
            format!(
                "(in0 * in1 + k) * conj(in0) / in1 + {complex_terms} - {}",
                float_terms.replace('X', "real(in0)").replace('Y', "imag(in1)")
            ),
        ),
    ];
    for (input_type, output_type, text) in &combinations {
        for name in function_names() {
            assert!(text.contains(&format!("{name}(")), "{text} does not call {name}");
        }
        let expression = Expression::new(&device, text, *input_type, *output_type, 2, 1, &[("k", 1.0)])
            .unwrap_or_else(|error| panic!("{text}: {error}"));
        let program = expression.program();
        for architecture in ARCHITECTURES {
            let image = kernels::compile(program, architecture)
                .unwrap_or_else(|error| panic!("{text} for {architecture}: {error}\n{}", program.source));
            assert!(image.starts_with(b"\x7fELF"), "{} for {architecture} is not a CUBIN", program.name);
        }
        let ptx = String::from_utf8(kernels::compile(program, "compute_90").unwrap()).unwrap();
        assert!(ptx.contains(".entry grcuda_expression("), "{}", program.name);
    }
    // The _rn intrinsics keep every product and sum separately rounded, as on the CPU (the
    // math library's functions use fused multiply-adds inside, hence arithmetic alone here).
    let arithmetic = Expression::new(
        &device,
        "in0 * in1 + in0 / in1 - k * in0",
        ValueType::Complex,
        ValueType::Complex,
        2,
        1,
        &[("k", 1.0)],
    )
    .unwrap();
    let ptx = String::from_utf8(kernels::compile(arithmetic.program(), "compute_90").unwrap()).unwrap();
    assert!(!ptx.contains("fma.rn.f32"), "a fused multiply-add would round unlike the CPU:\n{ptx}");
}

/// Expressions over several lines (a triple-quoted Python string, Windows line ends) compile:
/// the comment quoting the expression in the generated program ends on its own line.
#[test]
fn generated_programs_of_expressions_over_several_lines_compile() {
    use grcuda::expression::{Expression, ValueType};
    use grcuda::{BackendChoice, Device};
    if !nvrtc_available("generated_programs_of_expressions_over_several_lines_compile") {
        return;
    }
    let device = Device::open(0, BackendChoice::Simulated).unwrap();
    for text in ["in0 *\n k", "\n  in0\r\n  * k\r\n", "in0\r*\tk\u{2028}+ 1\u{b}\u{c}\u{85}", "(in0 +\n\n1) / k\n"] {
        let expression = Expression::new(&device, text, ValueType::Complex, ValueType::Complex, 1, 1, &[("k", 2.0)])
            .unwrap_or_else(|error| panic!("{text:?}: {error}"));
        let program = expression.program();
        for architecture in ARCHITECTURES {
            kernels::compile(program, architecture)
                .unwrap_or_else(|error| panic!("{text:?} for {architecture}: {error}\n{}", program.source));
        }
    }
}
