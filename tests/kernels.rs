// SPDX-License-Identifier: GPL-3.0-or-later

//! Every kernel launcher against a straightforward reference on random data.
//!
//! The tests run on the backend `Device::open(0, BackendChoice::Auto)` picks: the simulated one
//! on a machine without a GPU, the GPU with GRCUDA_BACKEND=cuda (which then also exercises
//! NVRTC, the kernel caches and the launches). References are written here independently of
//! the library: integers computed exactly in i64 and truncated (which is what wrapping means),
//! floats in f64. Float results must agree to a relative error of 1e-5, measured against the
//! size of the terms (so that cancellation cannot make a correct sum look wrong).

mod support;

use grcuda::ErrorKind;
use grcuda::Stream;
use grcuda::kernels::{self, Complex32, Element, WindowElement};
use grcuda::memory::DeviceAllocation;
use num_complex::Complex;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fmt::Debug;
use std::ops::{Add, Mul};
use support::device_memory::Harness;

const TOLERANCE: f64 = 1e-5;

/// Counts that are not multiples of the block size, one, a large one, and one that takes the
/// elementwise kernels' threads more than one step on an H200 (its largest grid covers
/// 132 x 32 blocks x 256 threads x 4 items = 4 325 376 items per step).
const COUNTS: &[usize] = &[1, 255, 1000, 1 << 22, 5_000_011];

// ---- device, data movement and random data ----

/// The item types under test, with an exact reference arithmetic for each.
trait Sample: Element + Debug + PartialEq {
    /// i64 for integers (exact for these sizes; truncating to the item type wraps), f64 or
    /// Complex<f64> for floats.
    type Exact: Copy + Debug + Add<Output = Self::Exact> + Mul<Output = Self::Exact>;
    fn random(rng: &mut StdRng) -> Self;
    fn exact(self) -> Self::Exact;
    /// |value|, the scale of float errors (unused for integers).
    fn size(value: Self::Exact) -> f64;
    /// Whether `actual` is `expected`: exactly for integers, within TOLERANCE * scale for floats.
    fn agrees(actual: Self, expected: Self::Exact, scale: f64) -> bool;
}

macro_rules! integer_sample {
    ($type:ty) => {
        impl Sample for $type {
            type Exact = i64;
            fn random(rng: &mut StdRng) -> Self {
                rng.random()
            }
            fn exact(self) -> i64 {
                i64::from(self)
            }
            fn size(_: i64) -> f64 {
                0.0
            }
            fn agrees(actual: Self, expected: i64, _: f64) -> bool {
                actual == expected as $type
            }
        }
    };
}

integer_sample!(i16);
integer_sample!(i32);

impl Sample for f32 {
    type Exact = f64;
    fn random(rng: &mut StdRng) -> Self {
        rng.random_range(-1000.0..1000.0)
    }
    fn exact(self) -> f64 {
        f64::from(self)
    }
    fn size(value: f64) -> f64 {
        value.abs()
    }
    fn agrees(actual: Self, expected: f64, scale: f64) -> bool {
        (f64::from(actual) - expected).abs() <= TOLERANCE * scale
    }
}

impl Sample for Complex32 {
    type Exact = Complex<f64>;
    fn random(rng: &mut StdRng) -> Self {
        Complex32::new(f32::random(rng), f32::random(rng))
    }
    fn exact(self) -> Complex<f64> {
        Complex::new(f64::from(self.re), f64::from(self.im))
    }
    fn size(value: Complex<f64>) -> f64 {
        value.norm()
    }
    fn agrees(actual: Self, expected: Complex<f64>, scale: f64) -> bool {
        (actual.exact() - expected).norm() <= TOLERANCE * scale
    }
}

fn random_values<T: Sample>(rng: &mut StdRng, count: usize) -> Vec<T> {
    (0..count).map(|_| T::random(rng)).collect()
}

fn random_bytes(rng: &mut StdRng, count: usize) -> Vec<u8> {
    (0..count).map(|_| rng.random()).collect()
}

fn assert_relative(what: &str, index: usize, actual: f32, expected: f64, scale: f64) {
    assert!(
        (f64::from(actual) - expected).abs() <= TOLERANCE * scale,
        "{what}[{index}] = {actual}, expected {expected} (scale {scale})"
    );
}

// ---- copy ----

#[test]
fn copy_moves_every_byte_at_any_alignment() {
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(1);
    // (input offset, output offset): both aligned (16-byte units), 8-, 2- and 1-byte units.
    let offsets = [(0, 0), (8, 24), (2, 6), (1, 3)];
    for &bytes in &[1, 3, 255, 256 * 4 + 7, 1 << 22] {
        for &(input_offset, output_offset) in &offsets {
            let data = random_bytes(&mut rng, bytes);
            let input = harness.allocate::<u8>(bytes + 32);
            let output = harness.allocate::<u8>(bytes + 32);
            harness.write(input.address() + input_offset, &data);
            let (from, to) = (input.address() + input_offset, output.address() + output_offset);
            unsafe { kernels::copy(&harness.stream, from, to, bytes).unwrap() };
            assert!(
                harness.read::<u8>(to, bytes) == data,
                "copy of {bytes} bytes at offsets {input_offset}/{output_offset}"
            );
        }
    }
}

#[test]
fn copy_to_itself_is_a_no_op_and_overlap_is_rejected() {
    let harness = Harness::new("kernel tests");
    let data = random_bytes(&mut StdRng::seed_from_u64(2), 64);
    let buffer = harness.upload(&data);
    unsafe { kernels::copy(&harness.stream, buffer.address(), buffer.address(), 64).unwrap() };
    assert_eq!(harness.read::<u8>(buffer.address(), 64), data);
    let error = unsafe { kernels::copy(&harness.stream, buffer.address(), buffer.address() + 1, 32) }.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
}

// ---- multiply by a constant ----

fn check_multiply_const<T: Sample>(seed: u64) {
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(seed);
    for &count in COUNTS {
        for in_place in [false, true] {
            let input = random_values::<T>(&mut rng, count);
            let constant = T::random(&mut rng);
            let input_buffer = harness.upload(&input);
            let output_buffer = harness.allocate::<T>(count);
            let output = if in_place { input_buffer.address() } else { output_buffer.address() };
            unsafe {
                kernels::multiply_const(&harness.stream, input_buffer.address(), output, count, constant).unwrap()
            };
            let actual = harness.read::<T>(output, count);
            for (index, (&x, &y)) in input.iter().zip(&actual).enumerate() {
                let expected = x.exact() * constant.exact();
                let scale = T::size(x.exact()) * T::size(constant.exact());
                assert!(
                    T::agrees(y, expected, scale),
                    "{} multiply_const[{index}] of {count} (in place: {in_place}): {x:?} * {constant:?} gave {y:?}, expected {expected:?}",
                    T::NAME
                );
            }
        }
    }
}

#[test]
fn multiply_const_int16_wraps() {
    check_multiply_const::<i16>(10);
}

#[test]
fn multiply_const_int32_wraps() {
    check_multiply_const::<i32>(11);
}

#[test]
fn multiply_const_float32() {
    check_multiply_const::<f32>(12);
}

#[test]
fn multiply_const_complex64() {
    check_multiply_const::<Complex32>(13);
}

/// Launches of one kernel in a row, without waiting between them, each with its own count,
/// constant and grid, on two streams at once: every launch takes its own arguments and runs in
/// its stream's order.
#[test]
fn launches_in_a_row_take_their_own_arguments_in_stream_order() {
    let harness = Harness::new("kernel tests");
    let other = Stream::new(&harness.device).unwrap();
    let count = 5000;
    let first = harness.upload(&vec![1.0f32; count]);
    let second = harness.upload(&vec![1.0f32; count]);
    // (items, constant): in place, so each launch multiplies what the ones before it left.
    let launches = [(count, 2.0f32), (3, 3.0), (4097, 5.0), (1, 7.0), (count, 0.5)];
    for &(items, constant) in &launches {
        unsafe {
            kernels::multiply_const(&harness.stream, first.address(), first.address(), items, constant).unwrap();
            kernels::multiply_const(&other, second.address(), second.address(), items, -constant).unwrap();
        }
    }
    other.synchronize().unwrap();
    let expected = |index: usize, sign: f32| -> f32 {
        launches.iter().filter(|(items, _)| index < *items).map(|(_, constant)| sign * constant).product()
    };
    for (array, sign) in [(&first, 1.0), (&second, -1.0)] {
        let actual = harness.read::<f32>(array.address(), count);
        for (index, &value) in actual.iter().enumerate() {
            assert_eq!(value, expected(index, sign), "item {index} after the launches (constant sign {sign})");
        }
    }
}

// ---- add ----

fn check_add<T: Sample>(seed: u64) {
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(seed);
    for &inputs in &[1, 3, 16, 17, 40] {
        for &count in &[1, 1000] {
            check_add_once::<T>(&harness, &mut rng, inputs, count, false);
        }
    }
    check_add_once::<T>(&harness, &mut rng, 3, 1 << 22, false);
    check_add_once::<T>(&harness, &mut rng, 17, 1000, true);
}

/// Adds `inputs` random arrays; `in_place` writes the sum over the first input.
fn check_add_once<T: Sample>(harness: &Harness, rng: &mut StdRng, inputs: usize, count: usize, in_place: bool) {
    let values: Vec<Vec<T>> = (0..inputs).map(|_| random_values(rng, count)).collect();
    let buffers: Vec<DeviceAllocation> = values.iter().map(|v| harness.upload(v)).collect();
    let addresses: Vec<u64> = buffers.iter().map(|b| b.address()).collect();
    let output_buffer = harness.allocate::<T>(count);
    let output = if in_place { addresses[0] } else { output_buffer.address() };
    unsafe { kernels::add::<T>(&harness.stream, &addresses, output, count).unwrap() };
    let actual = harness.read::<T>(output, count);
    for index in 0..count {
        let mut expected = values[0][index].exact();
        let mut scale = T::size(expected);
        for input in &values[1..] {
            expected = expected + input[index].exact();
            scale += T::size(input[index].exact());
        }
        assert!(
            T::agrees(actual[index], expected, scale),
            "{} add of {inputs} inputs [{index}] of {count} (in place: {in_place}): got {:?}, expected {expected:?}",
            T::NAME,
            actual[index]
        );
    }
}

#[test]
fn add_int16_wraps() {
    check_add::<i16>(20);
}

#[test]
fn add_int32_wraps() {
    check_add::<i32>(21);
}

#[test]
fn add_float32() {
    check_add::<f32>(22);
}

#[test]
fn add_complex64() {
    check_add::<Complex32>(23);
}

#[test]
fn add_rejects_no_inputs_and_late_in_place_outputs() {
    let harness = Harness::new("kernel tests");
    let buffers: Vec<DeviceAllocation> = (0..17).map(|_| harness.allocate::<f32>(8)).collect();
    let addresses: Vec<u64> = buffers.iter().map(|b| b.address()).collect();
    let no_inputs = unsafe { kernels::add::<f32>(&harness.stream, &[], addresses[0], 8) }.unwrap_err();
    assert_eq!(no_inputs.kind(), ErrorKind::InvalidArgument);
    // Input 16 is read in the second pass, after the first pass has overwritten the output.
    let late = unsafe { kernels::add::<f32>(&harness.stream, &addresses, addresses[16], 8) }.unwrap_err();
    assert_eq!(late.kind(), ErrorKind::InvalidArgument, "{late}");
    let partial = unsafe { kernels::add::<f32>(&harness.stream, &addresses[..2], addresses[0] + 4, 8) }.unwrap_err();
    assert_eq!(partial.kind(), ErrorKind::InvalidArgument, "{partial}");
}

// ---- magnitude ----

#[test]
fn magnitude_and_magnitude_squared() {
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(30);
    for &count in COUNTS {
        let input = random_values::<Complex32>(&mut rng, count);
        let input_buffer = harness.upload(&input);
        let output = harness.allocate::<f32>(count);
        unsafe { kernels::magnitude(&harness.stream, input_buffer.address(), output.address(), count).unwrap() };
        let magnitudes = harness.read::<f32>(output.address(), count);
        unsafe {
            kernels::magnitude_squared(&harness.stream, input_buffer.address(), output.address(), count).unwrap()
        };
        let squares = harness.read::<f32>(output.address(), count);
        for (index, x) in input.iter().enumerate() {
            let squared = x.exact().norm_sqr();
            assert_relative("magnitude", index, magnitudes[index], squared.sqrt(), squared.sqrt());
            assert_relative("magnitude_squared", index, squares[index], squared, squared);
        }
    }
}

// ---- nlog10 ----

#[test]
fn nlog10_matches_log10_and_keeps_its_edge_values() {
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(40);
    for &count in COUNTS {
        for in_place in [false, true] {
            // Log-uniform over twelve decades, as powers are.
            let input: Vec<f32> = (0..count).map(|_| 10f32.powf(rng.random_range(-6.0..6.0))).collect();
            let (factor, offset) = (rng.random_range(-20.0f32..20.0), rng.random_range(-100.0f32..100.0));
            let input_buffer = harness.upload(&input);
            let output_buffer = harness.allocate::<f32>(count);
            let output = if in_place { input_buffer.address() } else { output_buffer.address() };
            unsafe { kernels::nlog10(&harness.stream, input_buffer.address(), output, count, factor, offset).unwrap() };
            let actual = harness.read::<f32>(output, count);
            for (index, &x) in input.iter().enumerate() {
                let term = f64::from(factor) * f64::from(x).log10();
                let expected = term + f64::from(offset);
                assert_relative("nlog10", index, actual[index], expected, term.abs() + f64::from(offset).abs());
            }
        }
    }
    // GNU Radio's clamp to the normal floats: silence is a finite level, NaN stays NaN.
    let edges = [0.0f32, -0.0, -1.0, 1e-45, 1.0, f32::INFINITY, f32::NAN];
    let edges_buffer = harness.upload(&edges);
    let output = harness.allocate::<f32>(edges.len());
    unsafe {
        kernels::nlog10(&harness.stream, edges_buffer.address(), output.address(), edges.len(), 10.0, 0.0).unwrap()
    };
    let actual = harness.read::<f32>(output.address(), edges.len());
    let floor = 10.0 * f32::MIN_POSITIVE.log10();
    for (index, expected) in [floor, floor, floor, floor, 0.0, 10.0 * f32::MAX.log10()].into_iter().enumerate() {
        assert!(
            (actual[index] - expected).abs() <= 1e-4,
            "nlog10({}): {} against {expected}",
            edges[index],
            actual[index]
        );
    }
    assert!(actual[6].is_nan(), "nlog10(NaN): {}", actual[6]);
}

// ---- load ----

#[test]
fn load_copies_its_input_whatever_the_iterations() {
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(41);
    // Odd sizes and offsets: the kernel works byte by byte.
    for &(bytes, iterations) in &[(1usize, 1u64), (255, 3), (4099, 1), (100_003, 2)] {
        for in_place in [false, true] {
            let input: Vec<u8> = (0..bytes).map(|_| rng.random()).collect();
            let input_buffer = harness.upload(&input);
            let output_buffer = harness.allocate::<u8>(bytes);
            let output = if in_place { input_buffer.address() } else { output_buffer.address() };
            unsafe { kernels::load(&harness.stream, input_buffer.address(), output, bytes, iterations).unwrap() };
            assert_eq!(harness.read::<u8>(output, bytes), input, "{bytes} bytes, {iterations} iterations");
        }
    }
    let buffer = harness.allocate::<u8>(16);
    let error = unsafe { kernels::load(&harness.stream, buffer.address(), buffer.address(), 16, 0) }.unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidArgument);
    assert!(error.message().contains("iterations must be at least 1"), "{}", error.message());
}

// ---- FFT shift ----

#[test]
fn fft_shift_matches_numpy_for_even_and_odd_lengths() {
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(50);
    for &length in &[1, 2, 3, 5, 8, 1023, 1024] {
        for &vectors in &[1, 3, 7] {
            let input = random_values::<Complex32>(&mut rng, length * vectors);
            let input_buffer = harness.upload(&input);
            let output = harness.allocate::<Complex32>(length * vectors);
            unsafe {
                kernels::fft_shift(&harness.stream, input_buffer.address(), output.address(), length, vectors).unwrap()
            };
            let actual = harness.read::<Complex32>(output.address(), length * vectors);
            // numpy.fft.fftshift is numpy.roll by length // 2: item i moves to (i + length/2) mod length.
            let mut expected = vec![Complex32::default(); length * vectors];
            for vector in 0..vectors {
                for i in 0..length {
                    expected[vector * length + (i + length / 2) % length] = input[vector * length + i];
                }
            }
            assert_eq!(actual, expected, "fft_shift of {vectors} vectors of {length}");
            unsafe {
                kernels::ifft_shift(&harness.stream, output.address(), input_buffer.address(), length, vectors).unwrap()
            };
            let restored = harness.read::<Complex32>(input_buffer.address(), length * vectors);
            assert_eq!(restored, input, "ifft_shift undoes fft_shift for {vectors} vectors of {length}");
        }
    }
    // numpy.fft.fftshift([0, 1, 2, 3, 4]) == [3, 4, 0, 1, 2]
    let ramp: Vec<Complex32> = (0..5).map(|i| Complex32::new(i as f32, 0.0)).collect();
    let ramp_buffer = harness.upload(&ramp);
    let output = harness.allocate::<Complex32>(5);
    unsafe { kernels::fft_shift(&harness.stream, ramp_buffer.address(), output.address(), 5, 1).unwrap() };
    let shifted: Vec<f32> = harness.read::<Complex32>(output.address(), 5).iter().map(|x| x.re).collect();
    assert_eq!(shifted, [3.0, 4.0, 0.0, 1.0, 2.0]);
    // numpy.fft.ifftshift([0, 1, 2, 3, 4]) == [2, 3, 4, 0, 1]
    unsafe { kernels::ifft_shift(&harness.stream, ramp_buffer.address(), output.address(), 5, 1).unwrap() };
    let unshifted: Vec<f32> = harness.read::<Complex32>(output.address(), 5).iter().map(|x| x.re).collect();
    assert_eq!(unshifted, [2.0, 3.0, 4.0, 0.0, 1.0]);
}

// ---- window ----

fn check_window<T: Sample + WindowElement>(seed: u64)
where
    T::Exact: Mul<f64, Output = T::Exact>,
{
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(seed);
    for &length in &[1, 7, 1000, 1024] {
        for &vectors in &[1, 5] {
            for in_place in [false, true] {
                let count = length * vectors;
                let input = random_values::<T>(&mut rng, count);
                let window: Vec<f32> = (0..length).map(|_| rng.random_range(0.0..1.0)).collect();
                let input_buffer = harness.upload(&input);
                let window_buffer = harness.upload(&window);
                let output_buffer = harness.allocate::<T>(count);
                let output = if in_place { input_buffer.address() } else { output_buffer.address() };
                unsafe {
                    kernels::window::<T>(
                        &harness.stream,
                        input_buffer.address(),
                        window_buffer.address(),
                        output,
                        length,
                        vectors,
                    )
                    .unwrap()
                };
                let actual = harness.read::<T>(output, count);
                for (index, &x) in input.iter().enumerate() {
                    let expected = x.exact() * f64::from(window[index % length]);
                    assert!(
                        T::agrees(actual[index], expected, T::size(expected)),
                        "{} window[{index}] (length {length}, in place: {in_place}): got {:?}, expected {expected:?}",
                        T::NAME,
                        actual[index]
                    );
                }
            }
        }
    }
}

#[test]
fn window_float32() {
    check_window::<f32>(60);
}

#[test]
fn window_complex64() {
    check_window::<Complex32>(61);
}

// ---- interleave and de-interleave ----

#[test]
fn interleave_and_deinterleave_any_item_size() {
    let harness = Harness::new("kernel tests");
    let mut rng = StdRng::seed_from_u64(70);
    for &item_size in &[1, 2, 3, 4, 8, 12, 16, 24] {
        for &streams in &[1, 3, 17] {
            for &items in &[1, 1000] {
                // Offset 0 lets the widest unit be used; offset 1 forces single bytes.
                for offset in [0u64, 1] {
                    check_interleave(&harness, &mut rng, item_size, streams, items, offset);
                }
            }
        }
    }
}

fn check_interleave(harness: &Harness, rng: &mut StdRng, item_size: usize, streams: usize, items: usize, offset: u64) {
    let context = format!("{streams} streams of {items} items of {item_size} bytes at offset {offset}");
    let stream_bytes = items * item_size;
    let data: Vec<Vec<u8>> = (0..streams).map(|_| random_bytes(rng, stream_bytes)).collect();
    let stream_buffers: Vec<DeviceAllocation> =
        (0..streams).map(|_| harness.allocate::<u8>(stream_bytes + 1)).collect();
    let stream_addresses: Vec<u64> = stream_buffers.iter().map(|b| b.address() + offset).collect();
    for (address, bytes) in stream_addresses.iter().zip(&data) {
        harness.write(*address, bytes);
    }
    let interleaved_buffer = harness.allocate::<u8>(stream_bytes * streams + 1);
    let interleaved = interleaved_buffer.address() + offset;
    unsafe { kernels::interleave(&harness.stream, &stream_addresses, interleaved, items, item_size).unwrap() };

    let mut expected = Vec::with_capacity(stream_bytes * streams);
    for item in 0..items {
        for stream in &data {
            expected.extend_from_slice(&stream[item * item_size..(item + 1) * item_size]);
        }
    }
    assert!(harness.read::<u8>(interleaved, expected.len()) == expected, "interleave: {context}");

    let output_buffers: Vec<DeviceAllocation> =
        (0..streams).map(|_| harness.allocate::<u8>(stream_bytes + 1)).collect();
    let output_addresses: Vec<u64> = output_buffers.iter().map(|b| b.address() + offset).collect();
    unsafe { kernels::deinterleave(&harness.stream, interleaved, &output_addresses, items, item_size).unwrap() };
    for (stream, (address, bytes)) in output_addresses.iter().zip(&data).enumerate() {
        assert!(harness.read::<u8>(*address, stream_bytes) == *bytes, "deinterleave stream {stream}: {context}");
    }
}

#[test]
fn interleave_rejects_bad_arguments() {
    let harness = Harness::new("kernel tests");
    let buffer = harness.allocate::<u8>(64);
    let other = harness.allocate::<u8>(64);
    let address = buffer.address();
    let invalid = |result: grcuda::Result<()>| assert_eq!(result.unwrap_err().kind(), ErrorKind::InvalidArgument);
    unsafe {
        invalid(kernels::interleave(&harness.stream, &[], address, 4, 4));
        invalid(kernels::interleave(&harness.stream, &[address], other.address(), 4, 0));
        invalid(kernels::interleave(&harness.stream, &[address], address + 8, 4, 4));
        // De-interleaving into overlapping streams would race.
        invalid(kernels::deinterleave(&harness.stream, other.address(), &[address, address + 4], 2, 4));
        kernels::interleave(&harness.stream, &[address], other.address(), 0, 4).unwrap();
    }
}

// ---- argument checks common to all launchers ----

#[test]
fn zero_counts_do_nothing_even_with_null_addresses() {
    let harness = Harness::new("kernel tests");
    let stream = &harness.stream;
    unsafe {
        kernels::copy(stream, 0, 0, 0).unwrap();
        kernels::multiply_const(stream, 0, 0, 0, 2.0f32).unwrap();
        kernels::add::<i16>(stream, &[0, 0], 0, 0).unwrap();
        kernels::magnitude(stream, 0, 0, 0).unwrap();
        kernels::magnitude_squared(stream, 0, 0, 0).unwrap();
        kernels::nlog10(stream, 0, 0, 0, 10.0, 0.0).unwrap();
        kernels::load(stream, 0, 0, 0, 1).unwrap();
        kernels::fft_shift(stream, 0, 0, 16, 0).unwrap();
        kernels::window::<Complex32>(stream, 0, 0, 0, 16, 0).unwrap();
        kernels::deinterleave(stream, 0, &[0, 0], 0, 8).unwrap();
    }
}

#[test]
fn bad_addresses_and_sizes_are_invalid_arguments() {
    let harness = Harness::new("kernel tests");
    let stream = &harness.stream;
    let buffer = harness.allocate::<Complex32>(64);
    let other = harness.allocate::<Complex32>(64);
    let (a, b) = (buffer.address(), other.address());
    let invalid = |result: grcuda::Result<()>| {
        let error = result.unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        assert!(!error.message().is_empty());
    };
    unsafe {
        invalid(kernels::multiply_const(stream, 0, b, 4, 1i32));
        invalid(kernels::multiply_const(stream, a + 2, b, 4, 1i32));
        invalid(kernels::multiply_const(stream, a, b, usize::MAX, 1i32));
        invalid(kernels::multiply_const(stream, a, b, usize::MAX / 2, 1i32));
        invalid(kernels::multiply_const(stream, a, a + 4, 4, 1i32));
        invalid(kernels::magnitude(stream, a, a, 4));
        invalid(kernels::fft_shift(stream, a, b, 0, 4));
        invalid(kernels::fft_shift(stream, a, a, 8, 1));
        invalid(kernels::ifft_shift(stream, a, b, 0, 4));
        invalid(kernels::ifft_shift(stream, a, a, 8, 1));
        invalid(kernels::fft_shift(stream, a, b, usize::MAX, 2));
        invalid(kernels::window::<f32>(stream, a, b, a, 0, 1));
        invalid(kernels::window::<Complex32>(stream, a, a + 8, a, 4, 1));
        invalid(kernels::copy(stream, u64::MAX - 4, b, 8));
    }
}
