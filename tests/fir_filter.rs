// SPDX-License-Identifier: GPL-3.0-or-later

//! FIR filters (direct form and overlap-save) against a reference convolution in f64, on
//! random data: every type, odd tap counts, decimations 1 to 7, rotations, and streams split
//! into calls at random points, which must give the same output bit for bit.
//!
//! A stream s is filtered as GNU Radio's fir_filter_xxx filters it: y[j] = sum_k taps[k] *
//! s[j * decimation - k], with s zero before its start (GNU Radio's history starts zeroed).
//! Errors are measured as ||actual - expected|| / ||expected|| over the whole output.

mod support;

use grcuda::ErrorKind;
use grcuda::filter::{FirFilter, FirMethod, FirTaps};
use grcuda::kernels::{Complex32, FirTypes, Rotation};
use num_complex::Complex;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use support::device_memory::Harness;

const TOLERANCE: f64 = 1e-5;

/// Samples of one test stream, complex or float as the filter's types take.
#[derive(Clone)]
struct Signal {
    values: Vec<Complex32>,
    complex: bool,
}

impl Signal {
    fn random(rng: &mut StdRng, count: usize, complex: bool) -> Signal {
        let values = (0..count)
            .map(|_| {
                Complex32::new(rng.random_range(-1.0..1.0), if complex { rng.random_range(-1.0..1.0) } else { 0.0 })
            })
            .collect();
        Signal { values, complex }
    }
}

enum OwnedTaps {
    Float(Vec<f32>),
    Complex(Vec<Complex32>),
}

impl OwnedTaps {
    fn random(rng: &mut StdRng, count: usize, types: FirTypes) -> OwnedTaps {
        let signal = Signal::random(rng, count, types.complex_taps());
        if types.complex_taps() {
            OwnedTaps::Complex(signal.values)
        } else {
            OwnedTaps::Float(signal.values.iter().map(|v| v.re).collect())
        }
    }

    fn borrow(&self) -> FirTaps<'_> {
        match self {
            OwnedTaps::Float(taps) => FirTaps::Float(taps),
            OwnedTaps::Complex(taps) => FirTaps::Complex(taps),
        }
    }

    fn widened(&self) -> Vec<Complex<f64>> {
        match self {
            OwnedTaps::Float(taps) => taps.iter().map(|&t| Complex::new(f64::from(t), 0.0)).collect(),
            OwnedTaps::Complex(taps) => taps.iter().map(|t| Complex::new(f64::from(t.re), f64::from(t.im))).collect(),
        }
    }
}

fn reference(
    signal: &Signal,
    taps: &OwnedTaps,
    decimation: usize,
    outputs: usize,
    rotation: Option<(f64, f64)>,
) -> Vec<Complex<f64>> {
    let taps = taps.widened();
    (0..outputs)
        .map(|j| {
            let n = j * decimation;
            let sum = taps.iter().enumerate().filter(|(k, _)| *k <= n).fold(Complex::new(0.0, 0.0), |sum, (k, tap)| {
                let x = signal.values[n - k];
                sum + tap * Complex::new(f64::from(x.re), f64::from(x.im))
            });
            match rotation {
                Some((start, increment)) => sum * Complex::from_polar(1.0, start + j as f64 * increment),
                None => sum,
            }
        })
        .collect()
}

/// Filters `signal` in calls of the sizes `chunks` gives (output counts; the last call takes
/// the rest), each from its stream position, as a GNU Radio block would, and returns every
/// output. The device input is the signal after `history - 1` zeros.
fn filter_in_calls(
    harness: &Harness,
    filter: &mut FirFilter,
    signal: &Signal,
    outputs: usize,
    rotation: Option<(f64, f64)>,
    mut chunk: impl FnMut() -> usize,
) -> Vec<Complex32> {
    let history = filter.history();
    let decimation = filter.decimation();
    let complex = signal.complex;
    let padded: Vec<Complex32> =
        std::iter::repeat_n(Complex32::ZERO, history - 1).chain(signal.values.iter().copied()).collect();
    let input = if complex {
        harness.upload(&padded)
    } else {
        harness.upload(&padded.iter().map(|v| v.re).collect::<Vec<f32>>())
    };
    let sample_bytes = if complex { 8 } else { 4 };
    let output = harness.allocate::<Complex32>(outputs);
    let mut done = 0;
    let mut forced_rest = false;
    while done < outputs {
        let wanted = if std::mem::take(&mut forced_rest) { outputs - done } else { chunk().clamp(1, outputs - done) };
        let call_rotation = match rotation {
            Some((start, increment)) => Rotation::new(start + done as f64 * increment, increment),
            None => Rotation::NONE,
        };
        let produced = unsafe {
            filter
                .execute(
                    input.address() + (done * decimation * sample_bytes) as u64,
                    output.address() + (done * sample_bytes) as u64,
                    wanted,
                    done as u64,
                    call_rotation,
                )
                .unwrap()
        };
        assert!(produced <= wanted, "produced {produced} of {wanted}");
        if produced == 0 {
            // A whole-segments filter waits for a complete segment: ask for everything left.
            assert_eq!(filter.method(), FirMethod::FftWholeSegments, "only whole-segment filters produce nothing");
            assert!(wanted < outputs - done, "the stream's last call completes its segment");
            forced_rest = true;
        }
        done += produced;
    }
    if complex {
        harness.read::<Complex32>(output.address(), outputs)
    } else {
        harness.read::<f32>(output.address(), outputs).into_iter().map(|v| Complex32::new(v, 0.0)).collect()
    }
}

fn relative_error(actual: &[Complex32], expected: &[Complex<f64>]) -> f64 {
    let error: f64 = actual
        .iter()
        .zip(expected)
        .map(|(a, e)| (Complex::new(f64::from(a.re), f64::from(a.im)) - e).norm_sqr())
        .sum::<f64>()
        .sqrt();
    let norm: f64 = expected.iter().map(|e| e.norm_sqr()).sum::<f64>().sqrt();
    error / norm
}

const ALL_TYPES: [FirTypes; 3] = [FirTypes::Ccc, FirTypes::Ccf, FirTypes::Fff];

fn check_method(method: FirMethod, tap_counts: &[usize], decimations: &[usize]) {
    let harness = Harness::new("fir_filter");
    let mut rng = StdRng::seed_from_u64(11);
    for types in ALL_TYPES {
        for &tap_count in tap_counts {
            for &decimation in decimations {
                let taps = OwnedTaps::random(&mut rng, tap_count, types);
                let mut filter = FirFilter::new(&harness.stream, types, decimation, method, taps.borrow()).unwrap();
                assert_eq!(filter.method(), method);
                // Whole segments write only complete segments: give them whole ones.
                let outputs = if method == FirMethod::FftWholeSegments {
                    3001usize.next_multiple_of(filter.output_multiple())
                } else {
                    3001
                };
                let signal = Signal::random(&mut rng, outputs * decimation, types.complex_samples());
                let actual = filter_in_calls(&harness, &mut filter, &signal, outputs, None, || usize::MAX);
                let error = relative_error(&actual, &reference(&signal, &taps, decimation, outputs, None));
                assert!(
                    error < TOLERANCE,
                    "{method:?} {} with {tap_count} taps, decimation {decimation}: error {error:e}",
                    types.name()
                );
            }
        }
    }
}

#[test]
fn direct_form_matches_the_reference() {
    // On the GPU a tile sums phase by phase, each phase's taps in blocks of 16: decimations
    // beyond the tap count, phases of one tap, of whole blocks and of a partial last block.
    // The rows kernel sums 3 or 5 outputs per thread at decimations 4 to 32 (rows_tile), one
    // from 17 (complex) or 33 (float).
    check_method(FirMethod::Direct, &[1, 2, 7, 16, 33, 48, 101, 300], &[1, 2, 3, 4, 5, 7, 8, 16, 20, 33]);
    // Phases of 300 taps at decimation 16: float samples take 3 outputs per thread there,
    // since 5 do not fit one block's shared memory.
    check_method(FirMethod::Direct, &[4800], &[16]);
    // Taps whose phase does not fit a tile in shared memory: the kernel that reads device
    // memory.
    check_method(FirMethod::Direct, &[7000], &[1, 2]);
}

#[test]
fn overlap_save_matches_the_reference() {
    // Up to 2049 taps the segments take one kernel with shared-memory FFTs (float samples two
    // segments per transform), beyond it cuFFT.
    check_method(FirMethod::Fft, &[1, 7, 300, 1025, 2049, 2500], &[1, 3, 7]);
}

#[test]
fn overlap_save_on_whole_segments_matches_the_reference() {
    check_method(FirMethod::FftWholeSegments, &[5, 513, 3000], &[1, 2]);
}

/// The same stream, filtered in one call and in calls of random sizes, gives the same output:
/// bit for bit with the direct form and with whole segments (overlap-save aligns its segments
/// to stream positions), and to within rounding when overlap-save writes every output.
#[test]
fn output_does_not_depend_on_the_calls() {
    let harness = Harness::new("fir_filter");
    let mut rng = StdRng::seed_from_u64(12);
    for method in [FirMethod::Direct, FirMethod::FftWholeSegments, FirMethod::Fft] {
        for (types, tap_count, decimation) in [
            (FirTypes::Ccc, 63, 1),
            (FirTypes::Ccf, 301, 3),
            (FirTypes::Fff, 1000, 4),
            (FirTypes::Fff, 2200, 1),
            (FirTypes::Ccc, 96, 16),
        ] {
            let taps = OwnedTaps::random(&mut rng, tap_count, types);
            let probe = FirFilter::new(&harness.stream, types, decimation, method, taps.borrow()).unwrap();
            // Whole segments, so that a whole-segments filter writes every output.
            let outputs = 40_000usize.next_multiple_of(probe.output_multiple());
            let signal = Signal::random(&mut rng, outputs * decimation, types.complex_samples());
            let mut whole = FirFilter::new(&harness.stream, types, decimation, method, taps.borrow()).unwrap();
            let expected = filter_in_calls(&harness, &mut whole, &signal, outputs, None, || usize::MAX);
            let mut split = FirFilter::new(&harness.stream, types, decimation, method, taps.borrow()).unwrap();
            let mut chunk_rng = StdRng::seed_from_u64(13);
            let actual =
                filter_in_calls(&harness, &mut split, &signal, outputs, None, || chunk_rng.random_range(1..5000));
            if method == FirMethod::Fft {
                let widened: Vec<Complex<f64>> =
                    expected.iter().map(|v| Complex::new(f64::from(v.re), f64::from(v.im))).collect();
                let error = relative_error(&actual, &widened);
                assert!(error < 1e-6, "{method:?} {}: split calls differ from one call by {error:e}", types.name());
            } else {
                assert!(actual == expected, "{method:?} {}: split calls differ from one call", types.name());
            }
        }
    }
}

#[test]
fn complex_outputs_rotate() {
    let harness = Harness::new("fir_filter");
    let mut rng = StdRng::seed_from_u64(14);
    for method in [FirMethod::Direct, FirMethod::Fft] {
        for types in [FirTypes::Ccc, FirTypes::Ccf] {
            let (tap_count, decimation, outputs) = (45, 3, 20_000);
            let taps = OwnedTaps::random(&mut rng, tap_count, types);
            let signal = Signal::random(&mut rng, outputs * decimation, true);
            let rotation = Some((0.3, -2.0 * std::f64::consts::PI * 0.123));
            let mut filter = FirFilter::new(&harness.stream, types, decimation, method, taps.borrow()).unwrap();
            let mut chunk_rng = StdRng::seed_from_u64(15);
            let actual =
                filter_in_calls(&harness, &mut filter, &signal, outputs, rotation, || chunk_rng.random_range(1..3000));
            let error = relative_error(&actual, &reference(&signal, &taps, decimation, outputs, rotation));
            assert!(error < TOLERANCE, "{method:?} {} rotated: error {error:e}", types.name());
        }
    }
}

#[test]
fn automatic_method_and_history_follow_the_tap_count() {
    let harness = Harness::new("fir_filter");
    let mut rng = StdRng::seed_from_u64(16);
    for types in ALL_TYPES {
        for decimation in 1..=20 {
            let limit = FirFilter::direct_tap_limit(types, decimation);
            let long = OwnedTaps::random(&mut rng, limit + 1, types);
            let mut filter =
                FirFilter::new(&harness.stream, types, decimation, FirMethod::Automatic, long.borrow()).unwrap();
            assert_eq!(filter.method(), FirMethod::Fft, "{} decimation {decimation}", types.name());
            assert!(filter.history() > limit + 1, "overlap-save needs more history than the taps");
            if limit > 0 {
                let short = OwnedTaps::random(&mut rng, limit, types);
                filter.set_taps(short.borrow()).unwrap();
                assert_eq!((filter.method(), filter.history()), (FirMethod::Direct, limit));
                assert_eq!(filter.tap_count(), limit);
            }
        }
    }
    // Where the direct form is fastest: float samples, few taps, no decimation.
    assert!(FirFilter::direct_tap_limit(FirTypes::Fff, 1) >= 32);
}

/// Overlap-save transforms in shared memory (up to 4096 points) while at least half of each
/// transform is output, with cuFFT (8192 points and more) beyond; the direct form has none.
#[test]
fn overlap_save_transform_size_follows_the_tap_count() {
    let harness = Harness::new("fir_filter");
    let mut rng = StdRng::seed_from_u64(17);
    for (tap_count, decimation, fft_size) in
        [(1, 1, 256), (7, 3, 256), (100, 1, 512), (1024, 1, 4096), (2049, 1, 4096), (2050, 1, 8192), (5000, 2, 16384)]
    {
        for types in ALL_TYPES {
            let taps = OwnedTaps::random(&mut rng, tap_count, types);
            let filter = FirFilter::new(&harness.stream, types, decimation, FirMethod::Fft, taps.borrow()).unwrap();
            assert_eq!(filter.fft_size(), fft_size, "{} with {tap_count} taps", types.name());
            // One transform's outputs: a segment's, two segments' for float samples in shared memory.
            let segments = if fft_size <= 4096 && !types.complex_samples() { 2 } else { 1 };
            let step = (fft_size - tap_count + 1) / decimation * decimation;
            assert_eq!(
                filter.output_multiple(),
                segments * step / decimation,
                "{} with {tap_count} taps",
                types.name()
            );
        }
    }
    let taps = OwnedTaps::random(&mut rng, 8, FirTypes::Ccf);
    let direct = FirFilter::new(&harness.stream, FirTypes::Ccf, 1, FirMethod::Direct, taps.borrow()).unwrap();
    assert_eq!(direct.fft_size(), 0);
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    let harness = Harness::new("fir_filter");
    let stream = &harness.stream;
    let refused = |result: grcuda::Result<FirFilter>, words: &str| {
        let error = result.err().expect("refused");
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert!(error.message().contains(words), "{words:?} not in {:?}", error.message());
    };
    refused(FirFilter::new(stream, FirTypes::Fff, 1, FirMethod::Direct, FirTaps::Float(&[])), "no taps");
    refused(FirFilter::new(stream, FirTypes::Fff, 0, FirMethod::Direct, FirTaps::Float(&[1.0])), "decimation is 0");
    refused(FirFilter::new(stream, FirTypes::Ccc, 1, FirMethod::Direct, FirTaps::Float(&[1.0])), "complex taps");
    refused(FirFilter::new(stream, FirTypes::Ccf, 1, FirMethod::Fft, FirTaps::Float(&[1.0, f32::NAN])), "tap 1");
    // A decimation so large that overlap-save's segments would need FFTs of billions of
    // points: refused for the FFT method, and the automatic choice takes the direct form.
    let huge = i32::MAX as usize;
    let taps = [Complex32::new(0.0, 1.0); 3];
    refused(
        FirFilter::new(stream, FirTypes::Ccc, huge, FirMethod::Fft, FirTaps::Complex(&taps)),
        "use the direct method",
    );
    let automatic = FirFilter::new(stream, FirTypes::Ccc, huge, FirMethod::Automatic, FirTaps::Complex(&taps)).unwrap();
    assert_eq!(automatic.method(), FirMethod::Direct);

    let mut filter = FirFilter::new(stream, FirTypes::Fff, 1, FirMethod::Direct, FirTaps::Float(&[1.0, 2.0])).unwrap();
    let buffer = harness.allocate::<f32>(16);
    let error = unsafe { filter.execute(buffer.address(), buffer.address() + 32, 4, 0, Rotation::new(0.0, 0.1)) }
        .expect_err("float filters cannot rotate");
    assert!(error.message().contains("complex outputs"), "{}", error.message());
    let error = unsafe { filter.execute(buffer.address(), buffer.address(), 4, 0, Rotation::NONE) }
        .expect_err("output over its input");
    assert!(error.message().contains("overlap"), "{}", error.message());
    let error = filter.set_taps(FirTaps::Float(&[])).expect_err("no taps");
    assert!(error.message().contains("no taps"));
    assert_eq!(filter.tap_count(), 2, "a refused set_taps keeps the old taps");
}
