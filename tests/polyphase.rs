// SPDX-License-Identifier: GPL-3.0-or-later

//! The polyphase launchers against references written from GNU Radio's algorithms, in f64,
//! on random data: the rational resampler as rational_resampler_impl's loop runs it (one
//! fir_filter per phase, the phase counter advancing by the decimation), and the
//! channelizer (filter bank, the library's inverse FFT, scatter) as pfb_channelizer_ccf's
//! general_work runs it behind a stream_to_streams (per-stream history, the index table, a
//! naive inverse DFT). Calls split at different places must give identical output.

mod support;

use grcuda::fft::{FftKind, FftPlan};
use grcuda::kernels::{self, ChannelizerOutputs, ChannelizerShape, Complex32, PolyphaseSample, PolyphaseTap};
use num_complex::Complex;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use support::device_memory::Harness;

const TOLERANCE: f64 = 1e-5;

type Complex64 = Complex<f64>;

trait Value: PolyphaseSample {
    fn random(rng: &mut StdRng) -> Self;
    fn wide(self) -> Complex64;
}

impl Value for f32 {
    fn random(rng: &mut StdRng) -> Self {
        rng.random_range(-1.0..1.0)
    }
    fn wide(self) -> Complex64 {
        Complex64::new(f64::from(self), 0.0)
    }
}

impl Value for Complex32 {
    fn random(rng: &mut StdRng) -> Self {
        Complex32::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0))
    }
    fn wide(self) -> Complex64 {
        Complex64::new(f64::from(self.re), f64::from(self.im))
    }
}

fn random<T: Value>(rng: &mut StdRng, count: usize) -> Vec<T> {
    (0..count).map(|_| T::random(rng)).collect()
}

/// Fails unless `actual` is `expected` within TOLERANCE of the expected values' RMS.
fn assert_close(what: &str, actual: &[Complex64], expected: &[Complex64]) {
    assert_eq!(actual.len(), expected.len(), "{what}: length");
    let rms = (expected.iter().map(|e| e.norm_sqr()).sum::<f64>() / expected.len().max(1) as f64).sqrt();
    for (index, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!((a - e).norm() <= TOLERANCE * rms.max(1e-30), "{what}: item {index} is {a}, expected {e}");
    }
}

/// rational_resampler_impl::general_work over the whole input, in f64.
fn reference_resampler<S: Value, T: Value>(
    input: &[S],
    taps: &[T],
    interpolation: usize,
    decimation: usize,
    outputs: usize,
) -> Vec<Complex64> {
    let taps_per_phase = taps.len() / interpolation;
    let (mut phase, mut offset, mut result) = (0, 0, Vec::new());
    while result.len() < outputs {
        let window = &input[offset..offset + taps_per_phase];
        let filter = (0..taps_per_phase).map(|k| taps[phase + k * interpolation].wide());
        // fir_filter keeps its taps reversed: the newest item meets tap 0.
        result.push(window.iter().rev().zip(filter).map(|(x, h)| x.wide() * h).sum());
        phase += decimation;
        while phase >= interpolation {
            phase -= interpolation;
            offset += 1;
        }
    }
    result
}

/// Runs the launcher over `outputs` outputs in calls of the sizes `splits` cycles through,
/// carrying the phase as a block does.
fn run_resampler<S: Value, T: Value + PolyphaseTap<S>>(
    harness: &Harness,
    input: &[S],
    taps: &[T],
    interpolation: usize,
    decimation: usize,
    outputs: usize,
    splits: &[usize],
) -> Vec<S> {
    let taps_per_phase = taps.len() / interpolation;
    let input_buffer = harness.upload(input);
    let taps_buffer = harness.upload(taps);
    let output_buffer = harness.allocate::<S>(outputs);
    let (mut done, mut position) = (0, 0);
    for &split in splits.iter().cycle() {
        let count = split.min(outputs - done);
        let (phase, offset) = (position % interpolation, position / interpolation);
        unsafe {
            kernels::rational_resampler::<S, T>(
                &harness.stream,
                input_buffer.address() + (offset * size_of::<S>()) as u64,
                taps_buffer.address(),
                output_buffer.address() + (done * size_of::<S>()) as u64,
                count,
                interpolation,
                decimation,
                taps_per_phase,
                phase,
            )
            .unwrap()
        };
        done += count;
        position = phase + count * decimation + offset * interpolation;
        if done == outputs {
            break;
        }
    }
    harness.read::<S>(output_buffer.address(), outputs)
}

fn check_resampler<S: Value + PartialEq + std::fmt::Debug, T: Value + PolyphaseTap<S>>(name: &str) {
    let harness = Harness::new("polyphase tests");
    let mut rng = StdRng::seed_from_u64(11);
    for (interpolation, decimation, taps_per_phase) in
        // The tiled kernel with taps in shared memory, one group per tile (I >= 128), taps in
        // device memory (too many for shared memory as complex), the kernel without tiles
        // (a tile's input too long), and the rows kernel for several slots (decimation 4 and
        // more, up to 8 slots; at 5/4 the last slot's input starts a whole row after the first's
        // where the first phase is 4).
        [
            (1, 1, 1),
            (1, 1, 17),
            (3, 2, 7),
            (2, 5, 9),
            (3, 8, 30),
            (4, 5, 41),
            (5, 4, 7),
            (8, 9, 5),
            (7, 1, 3),
            (1, 6, 5),
            (160, 3, 4),
            (200, 7, 40),
            (1, 100, 3),
        ]
    {
        let outputs = 10_007;
        let taps = random::<T>(&mut rng, interpolation * taps_per_phase);
        let input_items = outputs * decimation / interpolation + taps_per_phase + 1;
        let input = random::<S>(&mut rng, input_items);
        let expected = reference_resampler(&input, &taps, interpolation, decimation, outputs);
        let whole = run_resampler(&harness, &input, &taps, interpolation, decimation, outputs, &[outputs]);
        let what = format!("{name} interpolation {interpolation} decimation {decimation} taps {taps_per_phase}");
        assert_close(&what, &whole.iter().map(|v| v.wide()).collect::<Vec<_>>(), &expected);
        let split = run_resampler(&harness, &input, &taps, interpolation, decimation, outputs, &[1, 333, 4096, 17]);
        assert!(split == whole, "{what}: output depends on the call split");
    }
}

#[test]
fn rational_resampler_ccc_matches_gnu_radio() {
    check_resampler::<Complex32, Complex32>("ccc");
}

#[test]
fn rational_resampler_ccf_matches_gnu_radio() {
    check_resampler::<Complex32, f32>("ccf");
}

#[test]
fn rational_resampler_fff_matches_gnu_radio() {
    check_resampler::<f32, f32>("fff");
}

#[test]
fn rational_resampler_refuses_bad_arguments() {
    let harness = Harness::new("polyphase tests");
    let buffer = harness.allocate::<f32>(64);
    let call = |interpolation, decimation, taps_per_phase, first_phase, output: u64| unsafe {
        kernels::rational_resampler::<f32, f32>(
            &harness.stream,
            buffer.address(),
            buffer.address(),
            output,
            4,
            interpolation,
            decimation,
            taps_per_phase,
            first_phase,
        )
    };
    let elsewhere = harness.allocate::<f32>(4);
    for (arguments, expected) in [
        ((0, 1, 1, 0), "interpolation (0)"),
        ((1, 0, 1, 0), "decimation (0)"),
        ((1, 1, 0, 0), "taps per phase (0)"),
        ((3, 1, 1, 3), "first phase (3)"),
    ] {
        let (i, d, n, p) = arguments;
        let error = call(i, d, n, p, elsewhere.address()).unwrap_err().to_string();
        assert!(error.contains(expected), "{arguments:?}: {error}");
    }
    let error = call(1, 1, 2, 0, buffer.address()).unwrap_err().to_string();
    assert!(error.contains("overlap"), "{error}");
}

/// pfb_channelizer_ccf's general_work behind stream_to_streams, over `steps` steps in f64:
/// output o of step s is channel channel_map[o].
fn reference_channelizer(
    input: &[Complex32],
    taps: &[f32],
    channels: usize,
    step_advance: usize,
    steps: usize,
    channel_map: &[usize],
) -> Vec<Vec<Complex64>> {
    let taps_per_branch = taps.len() / channels;
    // Each stream with its history of taps_per_branch zeros (history taps_per_branch + 1).
    let streams: Vec<Vec<Complex64>> = (0..channels)
        .map(|j| {
            let mut stream = vec![Complex64::new(0.0, 0.0); taps_per_branch];
            stream.extend(input.iter().skip(j).step_by(channels).map(|x| x.wide()));
            stream
        })
        .collect();
    let filter = |branch: usize, stream: &[Complex64], start: usize| -> Complex64 {
        (0..taps_per_branch)
            .map(|k| stream[start + k] * f64::from(taps[branch + (taps_per_branch - 1 - k) * channels]))
            .sum()
    };
    let index_table: Vec<usize> = (0..channels).map(|i| channels - ((i + step_advance) % channels) - 1).collect();
    let mut outputs = vec![Vec::new(); channel_map.len()];
    let (mut n, mut i) = (1usize, -1i64);
    let m = channels as i64;
    for _ in 0..steps {
        let mut spectrum = vec![Complex64::new(0.0, 0.0); channels];
        let mut j = 0;
        i = (i + step_advance as i64) % m;
        let last = i;
        while i >= 0 {
            spectrum[index_table[j]] = filter(i as usize, &streams[j], n);
            j += 1;
            i -= 1;
        }
        i = m - 1;
        while i > last {
            spectrum[index_table[j]] = filter(i as usize, &streams[j], n - 1);
            j += 1;
            i -= 1;
        }
        if i + step_advance as i64 >= m {
            n += 1;
        }
        for (output, &channel) in outputs.iter_mut().zip(channel_map) {
            let turn = |p: usize| 2.0 * std::f64::consts::PI * (p * channel) as f64 / channels as f64;
            output.push(spectrum.iter().enumerate().map(|(p, v)| v * Complex64::from_polar(1.0, turn(p))).sum());
        }
    }
    outputs
}

#[test]
fn pfb_channelizer_matches_gnu_radio() {
    let harness = Harness::new("polyphase tests");
    let mut rng = StdRng::seed_from_u64(12);
    // (channels, taps per branch, step advance): oversample rates 1, 2, 4 and 4/3. From 32
    // channels the filter bank and transform also run in one kernel: its register windows
    // without oversampling and at 2, each step's own items at 4, and at 1024 channels groups
    // of 8 steps (where the device gives a block 68 KiB of shared memory, 4 elsewhere).
    for (channels, taps_per_branch, step_advance) in [
        (8, 3, 8),
        (8, 5, 4),
        (16, 4, 12),
        (5, 2, 5),
        (32, 3, 32),
        (64, 17, 32),
        (256, 16, 128),
        (256, 7, 64),
        (1024, 16, 1024),
        (1024, 9, 512),
    ] {
        let output_multiple = (1..).find(|k| (k * step_advance) % channels == 0).unwrap();
        let steps = output_multiple * 61;
        let taps = random::<f32>(&mut rng, channels * taps_per_branch);
        let input = random::<Complex32>(&mut rng, steps * step_advance);
        let channel_map: Vec<usize> = (0..channels).rev().step_by(2).collect();
        let expected = reference_channelizer(&input, &taps, channels, step_advance, steps, &channel_map);
        // The vector output's map: an entry per channel, repeats allowed.
        let vector_map: Vec<usize> = (0..channels).map(|o| (o * 3 + 1) % channels).collect();
        let expected_vectors = reference_channelizer(&input, &taps, channels, step_advance, steps, &vector_map);
        let one_kernel = kernels::pfb_channelizer_spectra_supported(channels);
        let every_channel: Vec<usize> = (0..channels).collect();
        let expected_channels = reference_channelizer(&input, &taps, channels, step_advance, steps, &every_channel);

        let history = taps_per_branch * channels - step_advance;
        let mut padded = vec![Complex32::new(0.0, 0.0); history];
        padded.extend(&input);
        let input_buffer = harness.upload(&padded);
        let taps_buffer = harness.upload(&taps);
        let spectra = harness.allocate::<Complex32>(steps * channels);
        let output_stride = steps + 3;
        let output_buffer = harness.allocate::<Complex32>(output_stride * channel_map.len());
        let map_buffer = harness.upload(&channel_map.iter().map(|&c| c as i32).collect::<Vec<_>>());
        let offsets: Vec<u64> = (0..channel_map.len()).map(|o| (o * output_stride * 8) as u64).collect();
        let offsets_buffer = harness.upload(&offsets);
        let vector_map_buffer = harness.upload(&vector_map.iter().map(|&c| c as i32).collect::<Vec<_>>());
        let vectors = harness.allocate::<Complex32>(steps * channels);
        let fused = harness.allocate::<Complex32>(steps * channels);
        let twiddles =
            one_kernel.then(|| harness.upload(&kernels::pfb_channelizer_spectra_twiddles(channels).unwrap()));
        let mut plan = FftPlan::new(&harness.stream, FftKind::Inverse, channels).unwrap();
        let mut first_step = 0;
        for call_steps in [output_multiple, output_multiple * 7, output_multiple * 53] {
            let shape = ChannelizerShape { channels, taps_per_branch, step_advance, steps: call_steps };
            let targets = ChannelizerOutputs {
                channel_map: map_buffer.address(),
                output_offsets: offsets_buffer.address(),
                output_base: output_buffer.address() + (first_step * 8) as u64,
                outputs: channel_map.len(),
            };
            unsafe {
                let input_address = input_buffer.address() + (first_step * step_advance * 8) as u64;
                let rotation = ((first_step + 2) * step_advance) % channels;
                kernels::pfb_channelizer_filter(
                    &harness.stream,
                    input_address,
                    taps_buffer.address(),
                    spectra.address(),
                    shape,
                    rotation,
                )
                .unwrap();
                plan.execute(call_steps, spectra.address(), spectra.address()).unwrap();
                kernels::pfb_channelizer_scatter(&harness.stream, spectra.address(), &targets, channels, call_steps)
                    .unwrap();
                let vector_address = vectors.address() + (first_step * channels * 8) as u64;
                kernels::pfb_channelizer_gather(
                    &harness.stream,
                    spectra.address(),
                    vector_map_buffer.address(),
                    vector_address,
                    channels,
                    call_steps,
                )
                .unwrap();
                if let Some(twiddles) = &twiddles {
                    kernels::pfb_channelizer_spectra(
                        &harness.stream,
                        input_address,
                        taps_buffer.address(),
                        twiddles.address(),
                        fused.address() + (first_step * channels * 8) as u64,
                        shape,
                        rotation,
                    )
                    .unwrap();
                }
            }
            first_step += call_steps;
        }
        assert_eq!(first_step, steps);
        if one_kernel {
            let actual = harness.read::<Complex32>(fused.address(), steps * channels);
            for (channel, expected) in expected_channels.iter().enumerate() {
                let output: Vec<Complex64> = (0..steps).map(|s| actual[s * channels + channel].wide()).collect();
                let what = format!(
                    "one kernel: {channels} channels, {taps_per_branch} taps, advance {step_advance}, channel {channel}"
                );
                assert_close(&what, &output, expected);
            }
        }
        let actual = harness.read::<Complex32>(output_buffer.address(), output_stride * channel_map.len());
        for (o, expected) in expected.iter().enumerate() {
            let output: Vec<Complex64> =
                actual[o * output_stride..o * output_stride + steps].iter().map(|v| v.wide()).collect();
            let what = format!("{channels} channels, {taps_per_branch} taps, advance {step_advance}, output {o}");
            assert_close(&what, &output, expected);
        }
        let actual_vectors = harness.read::<Complex32>(vectors.address(), steps * channels);
        for (entry, expected) in expected_vectors.iter().enumerate() {
            let output: Vec<Complex64> = (0..steps).map(|s| actual_vectors[s * channels + entry].wide()).collect();
            let what =
                format!("{channels} channels, {taps_per_branch} taps, advance {step_advance}, vector entry {entry}");
            assert_close(&what, &output, expected);
        }
    }
}

#[test]
fn channelizer_in_one_kernel_refuses_what_it_cannot_transform() {
    let harness = Harness::new("polyphase tests");
    let buffer = harness.allocate::<Complex32>(4096);
    for channels in [16, 48, 2048, 4096, 8192] {
        assert!(!kernels::pfb_channelizer_spectra_supported(channels));
        let error = kernels::pfb_channelizer_spectra_twiddles(channels).unwrap_err().to_string();
        assert!(error.contains("power-of-two") && error.contains("FFT plan"), "{error}");
        let shape = ChannelizerShape { channels, taps_per_branch: 1, step_advance: channels, steps: 1 };
        let address = buffer.address();
        let error =
            unsafe { kernels::pfb_channelizer_spectra(&harness.stream, address, address, address, address, shape, 0) }
                .unwrap_err()
                .to_string();
        assert!(error.contains(&format!("got {channels}")), "{error}");
    }
    // The twiddles must not overlap the spectra they are written beside.
    let twiddles = harness.upload(&kernels::pfb_channelizer_spectra_twiddles(32).unwrap());
    let input = harness.allocate::<Complex32>(64);
    let taps = harness.allocate::<f32>(32);
    let shape = ChannelizerShape { channels: 32, taps_per_branch: 1, step_advance: 32, steps: 1 };
    let error = unsafe {
        kernels::pfb_channelizer_spectra(
            &harness.stream,
            input.address(),
            taps.address(),
            twiddles.address(),
            twiddles.address(),
            shape,
            0,
        )
    }
    .unwrap_err()
    .to_string();
    assert!(error.contains("overlap"), "{error}");
}
