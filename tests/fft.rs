// SPDX-License-Identifier: GPL-3.0-or-later

//! FFT against references computed in f64: a naive DFT for small sizes, rustfft for large ones.
//!
//! Runs on the backend `Device::open(0, BackendChoice::Auto)` picks (cuFFT with
//! GRCUDA_BACKEND=cuda, rustfft on the simulated backend). Errors are measured per vector as
//! ||actual - expected|| / ||expected|| (the natural measure for an FFT, whose rounding error
//! is spread evenly over the bins) and must stay under 1e-5.

mod support;

use grcuda::fft::{FftKind, FftPlan};
use grcuda::kernels::Complex32;
use grcuda::{ErrorKind, Stream};
use num_complex::Complex;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rustfft::{FftDirection, FftPlanner};
use std::f64::consts::PI;
use std::sync::Arc;
use support::device_memory::Harness;

const TOLERANCE: f64 = 1e-5;

fn random_complex(rng: &mut StdRng, count: usize) -> Vec<Complex32> {
    (0..count).map(|_| Complex32::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))).collect()
}

fn random_real(rng: &mut StdRng, count: usize) -> Vec<f32> {
    (0..count).map(|_| rng.random_range(-1.0..1.0)).collect()
}

fn widen(values: &[Complex32]) -> Vec<Complex<f64>> {
    values.iter().map(|x| Complex::new(f64::from(x.re), f64::from(x.im))).collect()
}

/// The DFT by its definition, in f64: X[k] = sum_j x[j] e^(sign 2 pi i j k / n).
fn naive_dft(input: &[Complex<f64>], sign: f64) -> Vec<Complex<f64>> {
    let n = input.len();
    (0..n)
        .map(|k| {
            input.iter().enumerate().fold(Complex::new(0.0, 0.0), |total, (j, &x)| {
                // j * k reduced mod n first keeps the angle exact for large products.
                let angle = sign * 2.0 * PI * ((j * k) % n) as f64 / n as f64;
                total + x * Complex::from_polar(1.0, angle)
            })
        })
        .collect()
}

fn rustfft_f64(input: &[Complex<f64>], direction: FftDirection) -> Vec<Complex<f64>> {
    let mut buffer = input.to_vec();
    FftPlanner::<f64>::new().plan_fft(input.len(), direction).process(&mut buffer);
    buffer
}

fn assert_close(what: &str, actual: &[Complex32], expected: &[Complex<f64>]) {
    assert_eq!(actual.len(), expected.len(), "{what}: length");
    let error: f64 = widen(actual).iter().zip(expected).map(|(a, e)| (a - e).norm_sqr()).sum::<f64>().sqrt();
    let norm: f64 = expected.iter().map(|e| e.norm_sqr()).sum::<f64>().sqrt();
    assert!(error <= TOLERANCE * norm.max(f64::MIN_POSITIVE), "{what}: relative error {:e}", error / norm);
}

/// A reference transform: one input vector, widened to f64, to its full-length spectrum.
type Reference = dyn Fn(&[Complex<f64>]) -> Vec<Complex<f64>>;

/// Runs `plan` (of `kind` and `size`) on `batch` vectors and compares each vector with
/// `reference`; a complex transform runs in place when `in_place`.
#[allow(clippy::too_many_arguments)]
fn check(
    harness: &Harness,
    rng: &mut StdRng,
    plan: &mut FftPlan,
    kind: FftKind,
    size: usize,
    batch: usize,
    in_place: bool,
    reference: &Reference,
) {
    let output_length = kind.output_length(size);
    let (input_buffer, inputs) = if kind == FftKind::RealForward {
        let values = random_real(rng, size * batch);
        (harness.upload(&values), values.iter().map(|&x| Complex::new(f64::from(x), 0.0)).collect())
    } else {
        let values = random_complex(rng, size * batch);
        (harness.upload(&values), widen(&values))
    };
    let separate_output = harness.allocate::<Complex32>(output_length * batch);
    let output = if in_place { &input_buffer } else { &separate_output };
    unsafe { plan.execute(batch, input_buffer.address(), output.address()).unwrap() };
    let actual = harness.read(output.address(), output_length * batch);
    for vector in 0..batch {
        let expected = reference(&inputs[vector * size..(vector + 1) * size]);
        assert_close(
            &format!("{kind:?} size {size} vector {vector} of {batch}, in place {in_place}"),
            &actual[vector * output_length..(vector + 1) * output_length],
            &expected[..output_length],
        );
    }
}

fn new_plan(harness: &Harness, kind: FftKind, size: usize) -> FftPlan {
    FftPlan::new(&harness.stream, kind, size).unwrap()
}

fn reference_for(kind: FftKind, naive: bool) -> impl Fn(&[Complex<f64>]) -> Vec<Complex<f64>> {
    let (sign, direction) = match kind {
        FftKind::Inverse => (1.0, FftDirection::Inverse),
        FftKind::Forward | FftKind::RealForward => (-1.0, FftDirection::Forward),
    };
    move |input: &[Complex<f64>]| if naive { naive_dft(input, sign) } else { rustfft_f64(input, direction) }
}

const KINDS: [FftKind; 3] = [FftKind::Forward, FftKind::Inverse, FftKind::RealForward];

#[test]
fn small_sizes_match_the_naive_dft() {
    let harness = Harness::new("FFT tests");
    let mut rng = StdRng::seed_from_u64(1);
    for kind in KINDS {
        for &size in &[1, 2, 3, 4, 5, 8, 15, 16, 17, 64, 100, 127] {
            let mut plan = new_plan(&harness, kind, size);
            for &batch in &[1, 3] {
                check(&harness, &mut rng, &mut plan, kind, size, batch, false, &reference_for(kind, true));
            }
        }
    }
}

#[test]
fn large_sizes_match_rustfft_in_double_precision() {
    let harness = Harness::new("FFT tests");
    let mut rng = StdRng::seed_from_u64(2);
    // Powers of two, a prime (Bluestein's algorithm in both libraries), a mixed radix, and one
    // big transform.
    for kind in KINDS {
        for &(size, batch) in &[(4096, 16), (10007, 2), (3 * 5 * 7 * 64, 3), (1 << 20, 1)] {
            let mut plan = new_plan(&harness, kind, size);
            check(&harness, &mut rng, &mut plan, kind, size, batch, false, &reference_for(kind, false));
        }
    }
}

#[test]
fn in_place_forward_then_inverse_multiplies_by_size() {
    let harness = Harness::new("FFT tests");
    let mut rng = StdRng::seed_from_u64(3);
    let (size, batch) = (1000, 4);
    let input = random_complex(&mut rng, size * batch);
    let buffer = harness.upload(&input);
    let (mut forward, mut inverse) =
        (new_plan(&harness, FftKind::Forward, size), new_plan(&harness, FftKind::Inverse, size));
    unsafe {
        forward.execute(batch, buffer.address(), buffer.address()).unwrap();
        inverse.execute(batch, buffer.address(), buffer.address()).unwrap();
    }
    let expected: Vec<Complex<f64>> = widen(&input).iter().map(|x| x * size as f64).collect();
    assert_close("forward then inverse", &harness.read(buffer.address(), size * batch), &expected);
}

#[test]
fn one_plan_serves_any_batch_beside_plans_of_other_kinds_and_sizes() {
    // Plans of every kind and several sizes on one stream, run in turns with batches that
    // come back (a cuFFT handle reused) and new ones (a handle added), in place and not:
    // each plan's handles and scratch space stay its own.
    let harness = Harness::new("FFT tests");
    let mut rng = StdRng::seed_from_u64(5);
    let mut plans: Vec<(FftKind, usize, FftPlan)> = KINDS
        .iter()
        .flat_map(|&kind| [16, 100, 4096].map(|size| (kind, size)))
        .map(|(kind, size)| (kind, size, new_plan(&harness, kind, size)))
        .collect();
    for (round, &batch) in [4, 1, 8, 4, 2, 1, 3, 8].iter().enumerate() {
        for (kind, size, plan) in &mut plans {
            let in_place = *kind != FftKind::RealForward && round % 2 == 1;
            check(&harness, &mut rng, plan, *kind, *size, batch, in_place, &reference_for(*kind, *size <= 100));
        }
    }
}

#[test]
fn plans_on_two_streams_run_independently() {
    // A plan runs on its own stream: two plans of one shape on two streams, in turns, each
    // with its own data. The second is dropped with its work possibly still queued: dropping
    // waits for its stream.
    let harness = Harness::new("FFT tests");
    let other_stream = Arc::new(Stream::new(&harness.device).unwrap());
    let mut rng = StdRng::seed_from_u64(4);
    let (size, batch) = (256, 8);
    let inputs = [random_complex(&mut rng, size * batch), random_complex(&mut rng, size * batch)];
    let buffers = [harness.upload(&inputs[0]), harness.upload(&inputs[1])];
    let outputs = [harness.allocate::<Complex32>(size * batch), harness.allocate::<Complex32>(size * batch)];
    let mut plans = [
        FftPlan::new(&harness.stream, FftKind::Forward, size).unwrap(),
        FftPlan::new(&other_stream, FftKind::Forward, size).unwrap(),
    ];
    for round in 0..20 {
        let index = round % 2;
        unsafe { plans[index].execute(batch, buffers[index].address(), outputs[index].address()).unwrap() };
    }
    drop(plans);
    for index in 0..2 {
        let actual = harness.read(outputs[index].address(), size * batch);
        let widened = widen(&inputs[index]);
        for vector in 0..batch {
            let expected = rustfft_f64(&widened[vector * size..(vector + 1) * size], FftDirection::Forward);
            assert_close(
                &format!("stream {index} vector {vector}"),
                &actual[vector * size..(vector + 1) * size],
                &expected,
            );
        }
    }
}

#[test]
fn bad_arguments_are_rejected_and_empty_batches_do_nothing() {
    let harness = Harness::new("FFT tests");
    let buffer = harness.allocate::<Complex32>(64);
    let other = harness.allocate::<Complex32>(64);
    let (a, b) = (buffer.address(), other.address());
    let invalid = |result: grcuda::Result<()>| {
        let error = result.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
    };
    for kind in KINDS {
        invalid(FftPlan::new(&harness.stream, kind, 0).map(drop));
    }
    let mut forward = new_plan(&harness, FftKind::Forward, 16);
    let mut real = new_plan(&harness, FftKind::RealForward, 16);
    unsafe {
        new_plan(&harness, FftKind::Forward, 64).execute(0, 0, 0).unwrap();
        invalid(real.execute(1, a, a));
        invalid(forward.execute(1, a, a + 8));
        invalid(forward.execute(1, a + 4, b));
        invalid(forward.execute(1, 0, b));
        invalid(forward.execute(usize::MAX / 8, a, b));
    }
    assert_eq!(FftKind::RealForward.output_length(16), 9);
    assert_eq!(FftKind::RealForward.output_length(15), 8);
    assert_eq!(FftKind::Forward.output_length(15), 15);
}
