// SPDX-License-Identifier: GPL-3.0-or-later

//! The logpwrfft kernels against a straightforward reference on random data: the frames
//! (gather and window) exactly, the decibels and the average as GNU Radio's blocks compute
//! them, state carried across calls however the frames are split, the shifted order, and the
//! whole chain with an FFT against rustfft in double precision.

mod support;

use grcuda::ErrorKind;
use grcuda::fft::{FftKind, FftPlan};
use grcuda::kernels::{self, Complex32, SpectrumInput};
use num_complex::Complex;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rustfft::FftPlanner;
use support::device_memory::Harness;

/// Decibels agree to this: log10f's rounding on the two backends, far below GNU Radio's
/// own (volk's log2 approximation).
const DECIBEL_TOLERANCE: f32 = 1e-4;

fn random_complex(rng: &mut StdRng, count: usize) -> Vec<Complex32> {
    (0..count).map(|_| Complex32::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))).collect()
}

fn random_real(rng: &mut StdRng, count: usize) -> Vec<f32> {
    (0..count).map(|_| rng.random_range(-1.0..1.0)).collect()
}

/// GNU Radio's chain after the FFT, written out: complex_to_mag_squared, then
/// single_pole_iir_filter_ff (double arithmetic, float state), then nlog10_ff.
fn reference_decibels(spectra: &[Complex32], state: &mut [f32], shift: bool, alpha: f64, offset: f32) -> Vec<f32> {
    let length = state.len();
    let rotation = if shift { length.div_ceil(2) % length } else { 0 };
    let mut output = vec![0.0; spectra.len()];
    for (frame, spectrum) in spectra.chunks(length).enumerate() {
        for position in 0..length {
            let bin = spectrum[(position + rotation) % length];
            let power = bin.re * bin.re + bin.im * bin.im;
            let filtered = (alpha * f64::from(power) + (1.0 - alpha) * f64::from(state[position])) as f32;
            state[position] = filtered;
            output[frame * length + position] = 10.0 * filtered.max(f32::MIN_POSITIVE).log10() + offset;
        }
    }
    output
}

fn assert_decibels_close(what: &str, actual: &[f32], expected: &[f32]) {
    assert_eq!(actual.len(), expected.len(), "{what}: length");
    for (index, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!((a - e).abs() <= DECIBEL_TOLERANCE, "{what}: item {index} is {a} dB, expected {e} dB");
    }
}

fn check_frames<T: SpectrumInput + std::fmt::Debug>(input: &[T], length: usize, decimation: usize) {
    let harness = Harness::new("logpwrfft");
    let mut rng = StdRng::seed_from_u64(length as u64);
    let window = random_real(&mut rng, length);
    let stride = length * decimation;
    // Frames kept start at the last vector of each decimation group, as keep_one_in_n keeps.
    let first = (decimation - 1) * length;
    let frames = (input.len() - first) / stride;
    let device_input = harness.upload(input);
    let device_window = harness.upload(&window);
    let output = harness.allocate::<Complex32>(frames * length);
    unsafe {
        kernels::logpwrfft_frames::<T>(
            &harness.stream,
            device_input.address() + (first * size_of::<T>()) as u64,
            stride,
            device_window.address(),
            output.address(),
            length,
            frames,
        )
        .unwrap()
    };
    let actual = harness.read::<Complex32>(output.address(), frames * length);
    for frame in 0..frames {
        for position in 0..length {
            let expected = input[first + frame * stride + position].windowed(window[position]);
            assert_eq!(actual[frame * length + position], expected, "frame {frame} item {position}");
        }
    }
}

#[test]
fn frames_are_the_kept_vectors_windowed() {
    let mut rng = StdRng::seed_from_u64(1);
    for (length, decimation) in [(1, 1), (7, 3), (1024, 1), (1000, 4)] {
        check_frames(&random_complex(&mut rng, length * decimation * 5 + 3), length, decimation);
        check_frames(&random_real(&mut rng, length * decimation * 5 + 3), length, decimation);
    }
}

/// Runs the decibels kernel over `spectra` in calls of `split` frames, with one state.
fn decibels_in_calls(spectra: &[Complex32], length: usize, split: usize, shift: bool, alpha: f64) -> Vec<f32> {
    let harness = Harness::new("logpwrfft");
    let frames = spectra.len() / length;
    let input = harness.upload(spectra);
    let output = harness.allocate::<f32>(spectra.len());
    let state = harness.upload(&vec![0.0f32; length]);
    let mut done = 0;
    while done < frames {
        let count = split.min(frames - done);
        unsafe {
            kernels::logpwrfft_power(
                &harness.stream,
                input.address() + (done * length * size_of::<Complex32>()) as u64,
                output.address() + (done * length * size_of::<f32>()) as u64,
                state.address(),
                length,
                count,
                shift,
                alpha,
                -12.5,
            )
            .unwrap()
        };
        done += count;
    }
    harness.read::<f32>(output.address(), spectra.len())
}

#[test]
fn decibels_and_average_match_gnu_radio_however_the_frames_are_split() {
    let mut rng = StdRng::seed_from_u64(2);
    // Frames beyond two of the averaging kernel's tiles (64 frames), bins beyond a tile's 32.
    for (length, frames) in [(1, 300), (8, 37), (1023, 150), (4096, 37)] {
        let spectra = random_complex(&mut rng, length * frames);
        for shift in [false, true] {
            for alpha in [1.0, 0.1, 0.0] {
                let expected = reference_decibels(&spectra, &mut vec![0.0; length], shift, alpha, -12.5);
                let whole = decibels_in_calls(&spectra, length, frames, shift, alpha);
                assert_decibels_close(&format!("length {length}, shift {shift}, alpha {alpha}"), &whole, &expected);
                for split in [1, 5, 16, 70] {
                    let split_output = decibels_in_calls(&spectra, length, split, shift, alpha);
                    assert_eq!(split_output, whole, "length {length}, alpha {alpha}: calls of {split} frames");
                }
            }
        }
    }
}

#[test]
fn silence_gives_the_floor_of_nlog10() {
    let harness = Harness::new("logpwrfft");
    let spectra = harness.upload(&[Complex32::new(0.0, 0.0); 4]);
    let output = harness.allocate::<f32>(4);
    let state = harness.upload(&[0.0f32; 4]);
    unsafe {
        kernels::logpwrfft_power(
            &harness.stream,
            spectra.address(),
            output.address(),
            state.address(),
            4,
            1,
            false,
            0.5,
            0.0,
        )
        .unwrap()
    };
    let floor = 10.0 * f32::MIN_POSITIVE.log10();
    assert_decibels_close("silence", &harness.read::<f32>(output.address(), 4), &[floor; 4]);
}

#[test]
fn the_chain_with_an_fft_matches_rustfft_in_double_precision() {
    let harness = Harness::new("logpwrfft");
    let mut rng = StdRng::seed_from_u64(3);
    let (length, frames, decimation) = (1024, 6, 2);
    let input = random_complex(&mut rng, length * decimation * frames);
    let window = random_real(&mut rng, length);
    let device_input = harness.upload(&input);
    let device_window = harness.upload(&window);
    let state = harness.upload(&vec![0.0f32; length]);
    let actual = three_steps::<Complex32>(
        &harness,
        device_input.address() + (length * size_of::<Complex32>()) as u64,
        length * decimation,
        device_window.address(),
        state.address(),
        length,
        frames,
        true,
        1.0,
        0.0,
    );
    let fft = FftPlanner::<f64>::new().plan_fft_forward(length);
    for frame in 0..frames {
        let start = (frame * decimation + 1) * length;
        let mut buffer: Vec<Complex<f64>> = (0..length)
            .map(|j| {
                Complex::new(f64::from(input[start + j].re), f64::from(input[start + j].im)) * f64::from(window[j])
            })
            .collect();
        fft.process(&mut buffer);
        let mean_power = buffer.iter().map(|x| x.norm_sqr()).sum::<f64>() / length as f64;
        for position in 0..length {
            let expected = buffer[(position + length / 2) % length].norm_sqr();
            let power = 10f64.powf(f64::from(actual[frame * length + position]) / 10.0);
            assert!(
                (power - expected).abs() <= 1e-5 * mean_power,
                "frame {frame} bin {position}: power {power}, expected {expected}"
            );
        }
    }
}

#[test]
fn bad_arguments_are_refused() {
    let harness = Harness::new("logpwrfft");
    let spectra = harness.allocate::<Complex32>(16);
    let output = harness.allocate::<f32>(16);
    let state = harness.allocate::<f32>(16);
    let power = |alpha: f64, state: u64| unsafe {
        kernels::logpwrfft_power(&harness.stream, spectra.address(), output.address(), state, 16, 1, false, alpha, 0.0)
    };
    for alpha in [-0.1, 1.5, f64::NAN] {
        let error = power(alpha, state.address()).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert!(error.to_string().contains("alpha"), "{error}");
    }
    let error = power(0.5, output.address()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.to_string().contains("overlap"), "{error}");
    let error = unsafe {
        kernels::logpwrfft_frames::<f32>(
            &harness.stream,
            output.address(),
            8,
            state.address(),
            spectra.address(),
            16,
            1,
        )
    }
    .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.to_string().contains("stride"), "{error}");
}

/// Decibels of `frames` frames through the three steps (frames, FFT plan, power kernel).
#[allow(clippy::too_many_arguments)] // one spectrum chain's settings
fn three_steps<T: SpectrumInput>(
    harness: &Harness,
    input: u64,
    stride: usize,
    window: u64,
    state: u64,
    length: usize,
    frames: usize,
    shift: bool,
    alpha: f64,
    offset: f32,
) -> Vec<f32> {
    let spectra = harness.allocate::<Complex32>(length * frames);
    let output = harness.allocate::<f32>(length * frames);
    let mut plan = FftPlan::new(&harness.stream, FftKind::Forward, length).unwrap();
    unsafe {
        kernels::logpwrfft_frames::<T>(&harness.stream, input, stride, window, spectra.address(), length, frames)
            .unwrap();
        plan.execute(frames, spectra.address(), spectra.address()).unwrap();
        kernels::logpwrfft_power(
            &harness.stream,
            spectra.address(),
            output.address(),
            state,
            length,
            frames,
            shift,
            alpha,
            offset,
        )
        .unwrap();
    }
    harness.read::<f32>(output.address(), length * frames)
}

/// The one-kernel spectra against the three steps on the same input, in calls of `split`
/// frames (the state carried between them), compared as powers: within 1e-5 of the frame's mean
/// power plus the bin's own (two float FFTs' roundings grow with both).
fn check_spectra<T: SpectrumInput>(
    input: &[T],
    length: usize,
    decimation: usize,
    shift: bool,
    alpha: f64,
    split: usize,
) {
    let harness = Harness::new("logpwrfft spectra");
    let mut rng = StdRng::seed_from_u64(length as u64 + decimation as u64);
    let window = random_real(&mut rng, length);
    let stride = length * decimation;
    let first = (decimation - 1) * length;
    let frames = (input.len() - first) / stride;
    let device_input = harness.upload(input);
    let device_window = harness.upload(&window);
    let twiddles = harness.upload(&kernels::logpwrfft_spectra_twiddles(length).unwrap());
    let start = device_input.address() + (first * size_of::<T>()) as u64;
    let reference_state = harness.upload(&vec![0.0f32; length]);
    let expected = three_steps::<T>(
        &harness,
        start,
        stride,
        device_window.address(),
        reference_state.address(),
        length,
        frames,
        shift,
        alpha,
        -7.0,
    );
    let state = harness.upload(&vec![0.0f32; length]);
    let output = harness.allocate::<f32>(length * frames);
    let scratch = harness.allocate::<Complex32>(kernels::logpwrfft_spectra_scratch(length, split).unwrap().max(1));
    let mut done = 0;
    while done < frames {
        let call = split.min(frames - done);
        unsafe {
            kernels::logpwrfft_spectra::<T>(
                &harness.stream,
                start + (done * stride * size_of::<T>()) as u64,
                stride,
                device_window.address(),
                twiddles.address(),
                scratch.address(),
                output.address() + (done * length * size_of::<f32>()) as u64,
                state.address(),
                length,
                call,
                shift,
                alpha,
                -7.0,
            )
            .unwrap()
        };
        done += call;
    }
    let actual = harness.read::<f32>(output.address(), length * frames);
    let to_power = |decibels: f32| 10f64.powf((f64::from(decibels) + 7.0) / 10.0);
    for frame in 0..frames {
        let range = frame * length..(frame + 1) * length;
        let mean = expected[range.clone()].iter().map(|&d| to_power(d)).sum::<f64>() / length as f64;
        for index in range {
            let (a, e) = (to_power(actual[index]), to_power(expected[index]));
            assert!(
                (a - e).abs() <= 1e-5 * (mean + e),
                "length {length}, decimation {decimation}, shift {shift}, alpha {alpha}, frame {frame}, bin {}: \
                 power {a}, expected {e} (frame mean {mean})",
                index - frame * length
            );
        }
    }
    let (actual_state, expected_state) =
        (harness.read::<f32>(state.address(), length), harness.read::<f32>(reference_state.address(), length));
    let mean = expected_state.iter().map(|&p| f64::from(p)).sum::<f64>() / length as f64;
    for (bin, (a, e)) in actual_state.iter().zip(&expected_state).enumerate() {
        let (a, e) = (f64::from(*a), f64::from(*e));
        assert!((a - e).abs() <= 1e-5 * (mean + e), "state of bin {bin}: {a}, expected {e}");
    }
}

#[test]
fn spectra_kernels_match_the_three_steps() {
    let mut rng = StdRng::seed_from_u64(11);
    // One kernel up to 4096, two (N1 x N2) above.
    for length in [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 1 << 15, 1 << 16, 1 << 17] {
        let complex = random_complex(&mut rng, length * 21 + 5);
        let real = random_real(&mut rng, length * 21 + 5);
        check_spectra(&complex, length, 1, true, 1.0, 7);
        check_spectra(&real, length, 1, false, 1.0, 21);
        check_spectra(&complex, length, 3, false, 0.25, 2);
        check_spectra(&real, length, 2, true, 0.5, 3);
    }
    for length in [1 << 18, 1 << 20] {
        check_spectra(&random_complex(&mut rng, length * 3 + 1), length, 1, true, 1.0, 2);
        check_spectra(&random_real(&mut rng, length * 4), length, 2, false, 0.5, 1);
    }
    // Averages over more frames than two of the averaging kernel's tiles (64 frames).
    let long = random_complex(&mut rng, 1024 * 150);
    check_spectra(&long, 1024, 1, true, 0.25, 150);
    check_spectra(&long, 1024, 1, false, 0.1, 70);
    let long = random_real(&mut rng, 32 * 300);
    check_spectra(&long, 32, 1, true, 0.5, 300);
}

#[test]
fn spectra_kernels_refuse_lengths_they_do_not_handle() {
    let harness = Harness::new("logpwrfft spectra");
    let buffer = harness.allocate::<Complex32>(1 << 14);
    let output = harness.allocate::<f32>(1 << 14);
    let state = harness.allocate::<f32>(8192);
    for length in [0, 1, 16, 31, 48, 1000, 3 << 12, 1 << 21] {
        assert!(!kernels::logpwrfft_spectra_supported(length));
        let error = kernels::logpwrfft_spectra_twiddles(length).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        let error = unsafe {
            kernels::logpwrfft_spectra::<Complex32>(
                &harness.stream,
                buffer.address(),
                length,
                output.address(),
                buffer.address(),
                0,
                output.address(),
                state.address(),
                length,
                1,
                false,
                1.0,
                0.0,
            )
        }
        .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument);
        assert!(error.to_string().contains("power-of-two length"), "{error}");
    }
    for length in [32, 1024, 4096, 8192, 1 << 20] {
        assert!(kernels::logpwrfft_spectra_supported(length));
    }
    assert_eq!(kernels::logpwrfft_spectra_scratch(4096, 10).unwrap(), 0);
    assert_eq!(kernels::logpwrfft_spectra_scratch(8192, 10).unwrap(), 81920);
    // Output over the state, alpha outside [0, 1], and above 4096 bins no scratch or scratch
    // over the output.
    let call = |length: usize, scratch: u64, state: u64, alpha: f64| {
        let twiddles = harness.upload(&kernels::logpwrfft_spectra_twiddles(length).unwrap());
        unsafe {
            kernels::logpwrfft_spectra::<f32>(
                &harness.stream,
                buffer.address(),
                length,
                buffer.address(),
                twiddles.address(),
                scratch,
                output.address(),
                state,
                length,
                1,
                false,
                alpha,
                0.0,
            )
        }
    };
    let error = call(64, 0, output.address(), 1.0).unwrap_err();
    assert!(error.to_string().contains("overlap"), "{error}");
    let error = call(64, 0, state.address(), 2.0).unwrap_err();
    assert!(error.to_string().contains("alpha"), "{error}");
    let error = call(8192, 0, state.address(), 1.0).unwrap_err();
    assert!(error.to_string().contains("scratch"), "{error}");
    let error = call(8192, output.address(), state.address(), 1.0).unwrap_err();
    assert!(error.to_string().contains("overlap"), "{error}");
}
