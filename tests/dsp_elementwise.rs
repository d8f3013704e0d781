// SPDX-License-Identifier: GPL-3.0-or-later

//! The elementwise, moving-average and phase launchers against references computed here in
//! f64 on random data: multiply (N inputs), multiply_conjugate, conjugate, the complex parts,
//! float_to_complex, keep_one_in_n, moving_average, quadrature_demod and the rotator, whose
//! output must not depend on how a stream is split into calls.
//!
//! Runs on the backend `Device::open(0, BackendChoice::Auto)` picks (the GPU with
//! GRCUDA_BACKEND=cuda). Float results agree to 1e-5 relative to the size of their terms;
//! angles from GNU Radio's fast_atan2f, whose table interpolation is good to about 1e-6 rad,
//! to 1e-5 rad.

mod support;

use grcuda::kernels::{self, Complex32, ComplexPart};
use num_complex::Complex;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use support::device_memory::Harness;

const TOLERANCE: f64 = 1e-5;
const COUNTS: &[usize] = &[1, 255, 1000, 100_003];

fn random_floats(rng: &mut StdRng, count: usize) -> Vec<f32> {
    (0..count).map(|_| rng.random_range(-2.0f32..2.0)).collect()
}

fn random_complex(rng: &mut StdRng, count: usize) -> Vec<Complex32> {
    (0..count).map(|_| Complex32::new(rng.random_range(-2.0f32..2.0), rng.random_range(-2.0f32..2.0))).collect()
}

fn exact(x: Complex32) -> Complex<f64> {
    Complex::new(f64::from(x.re), f64::from(x.im))
}

fn assert_close(what: &str, index: usize, actual: f64, expected: f64, scale: f64) {
    let error = (actual - expected).abs();
    assert!(
        error <= TOLERANCE * scale.max(1e-30),
        "{what}[{index}]: {actual} instead of {expected} (error {error:e}, scale {scale:e})"
    );
}

fn assert_complex_close(what: &str, index: usize, actual: Complex32, expected: Complex<f64>, scale: f64) {
    assert_close(what, index, f64::from(actual.re), expected.re, scale);
    assert_close(what, index, f64::from(actual.im), expected.im, scale);
}

#[test]
fn multiply_any_number_of_inputs_in_place_or_not() {
    let harness = Harness::new("DSP elementwise kernel tests");
    let mut rng = StdRng::seed_from_u64(1);
    for &count in COUNTS {
        for inputs in [1, 2, 3, 17] {
            let data: Vec<Vec<Complex32>> = (0..inputs).map(|_| random_complex(&mut rng, count)).collect();
            let buffers: Vec<_> = data.iter().map(|values| harness.upload(values)).collect();
            let addresses: Vec<u64> = buffers.iter().map(|buffer| buffer.address()).collect();
            let separate = harness.allocate::<Complex32>(count);
            for output in [separate.address(), addresses[0]] {
                unsafe { kernels::multiply::<Complex32>(&harness.stream, &addresses, output, count).unwrap() };
                let product = harness.read::<Complex32>(output, count);
                for (index, &actual) in product.iter().enumerate() {
                    let expected =
                        data.iter().fold(Complex::new(1.0, 0.0), |total, values| total * exact(values[index]));
                    let scale = data.iter().map(|values| exact(values[index]).norm()).product::<f64>();
                    assert_complex_close("multiply_cc", index, actual, expected, scale);
                }
            }
            let reals: Vec<Vec<f32>> = (0..inputs).map(|_| random_floats(&mut rng, count)).collect();
            let buffers: Vec<_> = reals.iter().map(|values| harness.upload(values)).collect();
            let addresses: Vec<u64> = buffers.iter().map(|buffer| buffer.address()).collect();
            unsafe { kernels::multiply::<f32>(&harness.stream, &addresses, separate.address(), count).unwrap() };
            for (index, &actual) in harness.read::<f32>(separate.address(), count).iter().enumerate() {
                let expected: f64 = reals.iter().map(|values| f64::from(values[index])).product();
                assert_close("multiply_ff", index, f64::from(actual), expected, expected.abs());
            }
        }
    }
}

#[test]
fn conjugates_and_complex_parts() {
    let harness = Harness::new("DSP elementwise kernel tests");
    let mut rng = StdRng::seed_from_u64(2);
    for &count in COUNTS {
        let (first, second) = (random_complex(&mut rng, count), random_complex(&mut rng, count));
        let (first_buffer, second_buffer) = (harness.upload(&first), harness.upload(&second));
        let complex_output = harness.allocate::<Complex32>(count);
        let stream = &harness.stream;
        unsafe {
            kernels::multiply_conjugate(
                stream,
                first_buffer.address(),
                second_buffer.address(),
                complex_output.address(),
                count,
            )
            .unwrap()
        };
        for (index, &actual) in harness.read::<Complex32>(complex_output.address(), count).iter().enumerate() {
            let expected = exact(first[index]) * exact(second[index]).conj();
            let scale = exact(first[index]).norm() * exact(second[index]).norm();
            assert_complex_close("multiply_conjugate", index, actual, expected, scale);
        }
        unsafe { kernels::conjugate(stream, first_buffer.address(), complex_output.address(), count).unwrap() };
        let conjugated = harness.read::<Complex32>(complex_output.address(), count);
        assert!(conjugated.iter().zip(&first).all(|(actual, x)| *actual == x.conj()));

        let (real, imag) = (harness.allocate::<f32>(count), harness.allocate::<f32>(count));
        unsafe {
            kernels::complex_to_float(stream, first_buffer.address(), real.address(), imag.address(), count).unwrap()
        };
        assert_eq!(harness.read::<f32>(real.address(), count), first.iter().map(|x| x.re).collect::<Vec<_>>());
        assert_eq!(harness.read::<f32>(imag.address(), count), first.iter().map(|x| x.im).collect::<Vec<_>>());
        for (part, expected) in [
            (ComplexPart::Real, first.iter().map(|x| f64::from(x.re)).collect::<Vec<_>>()),
            (ComplexPart::Imaginary, first.iter().map(|x| f64::from(x.im)).collect()),
            (ComplexPart::Argument, first.iter().map(|x| exact(*x).arg()).collect()),
        ] {
            unsafe { kernels::complex_part(stream, part, first_buffer.address(), real.address(), count).unwrap() };
            for (index, &actual) in harness.read::<f32>(real.address(), count).iter().enumerate() {
                assert_close(&format!("{part:?}"), index, f64::from(actual), expected[index], 1.0);
            }
        }

        let (real_values, imag_values) = (random_floats(&mut rng, count), random_floats(&mut rng, count));
        let (real_buffer, imag_buffer) = (harness.upload(&real_values), harness.upload(&imag_values));
        for imag in [Some(imag_buffer.address()), None] {
            unsafe {
                kernels::float_to_complex(stream, real_buffer.address(), imag, complex_output.address(), count).unwrap()
            };
            let built = harness.read::<Complex32>(complex_output.address(), count);
            for (index, actual) in built.iter().enumerate() {
                let expected_imag = if imag.is_some() { imag_values[index] } else { 0.0 };
                assert_eq!(*actual, Complex32::new(real_values[index], expected_imag), "float_to_complex[{index}]");
            }
        }
    }
}

#[test]
fn keep_one_in_n_copies_every_nth_item_of_any_size() {
    let harness = Harness::new("DSP elementwise kernel tests");
    let mut rng = StdRng::seed_from_u64(3);
    for item_size in [1, 3, 4, 8, 12, 16, 40] {
        for n in [1, 2, 7, 64] {
            let items = 1001;
            let span = (items - 1) * n + 1;
            let input: Vec<u8> = (0..span * item_size).map(|_| rng.random()).collect();
            let input_buffer = harness.upload(&input);
            let output = harness.allocate::<u8>(items * item_size);
            unsafe {
                kernels::keep_one_in_n(&harness.stream, input_buffer.address(), output.address(), items, item_size, n)
                    .unwrap()
            };
            let kept = harness.read::<u8>(output.address(), items * item_size);
            for item in 0..items {
                let source = item * n * item_size;
                assert_eq!(
                    kept[item * item_size..(item + 1) * item_size],
                    input[source..source + item_size],
                    "item {item} of size {item_size}, n {n}"
                );
            }
        }
    }
}

#[test]
fn moving_average_of_floats_and_complex_vectors() {
    let harness = Harness::new("DSP elementwise kernel tests");
    let mut rng = StdRng::seed_from_u64(4);
    // (length, vlen, max_iter, stream position of the first output): vlen 1 takes the tiled
    // kernel where its tiles fit shared memory, and from 1024 items the chunked kernel (with
    // max_iter of at least a chunk); a position not on a segment boundary recomputes the
    // segment the call starts inside.
    for (length, vlen, max_iter, position) in [
        (1, 1, 4096, 0),
        (2, 1, 4096, 0),
        (17, 3, 4096, 0),
        (100, 1, 7, 0),
        (5, 2, 1, 0),
        (64, 1, 4096, 13),
        (1023, 1, 4096, 70),
        (1024, 1, 4096, 0),
        (3000, 1, 4096, 70),
        (3000, 2, 4096, 70),
        (3000, 1, 32, 5),
        (100_000, 1, 4096, 1_000_037),
    ] {
        let items = 10_007;
        // The history: zeros before the stream, as GNU Radio's buffers start.
        let history = kernels::moving_average_history(length);
        let stream_values = random_complex(&mut rng, (items + length - 1) * vlen);
        let values: Vec<Complex32> = std::iter::repeat_n(Complex32::new(0.0, 0.0), (history - length) * vlen)
            .chain(stream_values.iter().copied())
            .collect();
        let input = harness.upload(&values);
        let output = harness.allocate::<Complex32>(items * vlen);
        let scale = Complex32::new(0.5, -0.25);
        unsafe {
            kernels::moving_average(
                &harness.stream,
                input.address(),
                output.address(),
                items,
                vlen,
                length,
                scale,
                max_iter,
                position,
            )
            .unwrap()
        };
        let averaged = harness.read::<Complex32>(output.address(), items * vlen);
        let reals: Vec<f32> = values.iter().map(|x| x.re).collect();
        let real_input = harness.upload(&reals);
        let real_output = harness.allocate::<f32>(items * vlen);
        unsafe {
            kernels::moving_average(
                &harness.stream,
                real_input.address(),
                real_output.address(),
                items,
                vlen,
                length,
                2.0f32,
                max_iter,
                position,
            )
            .unwrap()
        };
        let real_averaged = harness.read::<f32>(real_output.address(), items * vlen);
        for lane in 0..vlen {
            // Window sums as differences of prefix sums in f64 (exact to far below the tolerance).
            let prefix = |term: &dyn Fn(Complex<f64>) -> Complex<f64>| {
                let mut sums = vec![Complex::new(0.0, 0.0)];
                for k in 0..items + length - 1 {
                    sums.push(sums[k] + term(exact(stream_values[k * vlen + lane])));
                }
                sums
            };
            let sums = prefix(&|x| x);
            let norms = prefix(&|x| Complex::new(x.norm(), 0.0));
            let real_norms = prefix(&|x| Complex::new(x.re.abs(), 0.0));
            for item in 0..items {
                let window = |sums: &[Complex<f64>]| sums[item + length] - sums[item];
                let index = item * vlen + lane;
                let size = window(&norms).re * exact(scale).norm();
                assert_complex_close("moving_average_cc", index, averaged[index], window(&sums) * exact(scale), size);
                let (real_expected, real_size) = (2.0 * window(&sums).re, 2.0 * window(&real_norms).re);
                assert_close("moving_average_ff", index, f64::from(real_averaged[index]), real_expected, real_size);
            }
        }
    }
}

#[test]
fn quadrature_demod_is_the_angle_between_samples() {
    let harness = Harness::new("DSP elementwise kernel tests");
    let mut rng = StdRng::seed_from_u64(5);
    for &count in COUNTS {
        let input = random_complex(&mut rng, count + 1);
        let input_buffer = harness.upload(&input);
        let output = harness.allocate::<f32>(count);
        let gain = 1.7f32;
        unsafe {
            kernels::quadrature_demod(&harness.stream, input_buffer.address(), output.address(), count, gain).unwrap()
        };
        for (index, &actual) in harness.read::<f32>(output.address(), count).iter().enumerate() {
            let expected = f64::from(gain) * (exact(input[index + 1]) * exact(input[index]).conj()).arg();
            assert_close("quadrature_demod", index, f64::from(actual), expected, f64::from(gain));
        }
    }
}

#[test]
fn rotator_output_does_not_depend_on_the_call_split() {
    let harness = Harness::new("DSP elementwise kernel tests");
    let mut rng = StdRng::seed_from_u64(6);
    let count = 1 << 20;
    let input = random_complex(&mut rng, count);
    let input_buffer = harness.upload(&input);
    let output = harness.allocate::<Complex32>(count);
    let increment = 0.012_345_678_9;
    let mut phase = 0.3;
    let mut start = 0;
    for split in [1, 4095, 100_000, 3].iter().cycle() {
        let length = (*split).min(count - start);
        let at = |index: usize| input_buffer.address() + (index * size_of::<Complex32>()) as u64;
        let out_at = output.address() + (start * size_of::<Complex32>()) as u64;
        unsafe { kernels::rotator(&harness.stream, at(start), out_at, length, phase, increment).unwrap() };
        phase = kernels::advance_phase(phase, increment, length as u64);
        start += length;
        if start == count {
            break;
        }
    }
    let rotated = harness.read::<Complex32>(output.address(), count);
    for (index, &actual) in rotated.iter().enumerate() {
        let expected = exact(input[index]) * Complex::from_polar(1.0, 0.3 + index as f64 * increment);
        assert_complex_close("rotator", index, actual, expected, exact(input[index]).norm());
    }
    // In place, in one call: the same samples.
    unsafe {
        kernels::rotator(&harness.stream, input_buffer.address(), input_buffer.address(), count, 0.3, increment)
            .unwrap()
    };
    let in_place = harness.read::<Complex32>(input_buffer.address(), count);
    let differing = in_place.iter().zip(&rotated).filter(|(a, b)| a != b).count();
    assert!(differing * 1000 < count, "{differing} of {count} samples differ between call splits");
}

#[test]
fn bad_arguments_are_invalid() {
    let harness = Harness::new("DSP elementwise kernel tests");
    let buffer = harness.allocate::<Complex32>(64);
    let address = buffer.address();
    let stream = &harness.stream;
    unsafe {
        assert!(kernels::multiply::<f32>(stream, &[], address, 4).is_err());
        assert!(kernels::complex_part(stream, ComplexPart::Real, address, address, 4).is_err(), "overlap");
        assert!(kernels::keep_one_in_n(stream, address, address + 256, 4, 8, 0).is_err(), "n = 0");
        assert!(kernels::moving_average(stream, address, address + 256, 4, 1, 0, 1.0f32, 16, 0).is_err(), "length 0");
        assert!(kernels::rotator(stream, address, address, 4, f64::NAN, 0.1).is_err());
        assert!(kernels::quadrature_demod(stream, address, address + 8, 4, 1.0).is_err(), "overlap");
    }
}
