// SPDX-License-Identifier: GPL-3.0-or-later

//! The demo: a spectrum analyser across CPU and GPU, built from the library's parts.
//!
//! ```text
//! CPU source (tone + noise) -[host-to-device buffer]-> GPU block: Hann window, FFT, |X|^2,
//!     10*log10 -[device-to-host buffer]-> CPU sink: averages the spectra, finds the peak
//! ```
//!
//! One thread per block, as GNU Radio runs them; the GPU block's work() is four kernel
//! launches on its stream, and the buffers do every copy and every wait. Runs on the GPU when
//! there is one, else on the simulated backend, and says which.

#[path = "../tests/support/mod.rs"]
mod support;

use grcuda::buffer::{Buffer, TransferType};
use grcuda::fft::{FftKind, FftPlan};
use grcuda::kernels::{self, Complex32};
use grcuda::memory::{DeviceAllocation, PinnedAllocation};
use grcuda::{Device, HostWait, Stream};
use std::f64::consts::PI;
use std::sync::Arc;
use std::thread;
use std::time::Instant;
use support::Edge;

const FFT_SIZE: usize = 4096;
const SAMPLE_RATE: f64 = 32e6;
const TONE_FREQUENCY: f64 = 5.3e6;
/// Vectors per GPU work() call.
const BATCH: usize = 64;

fn main() {
    let device = support::test_device();
    let info = device.info();
    let total_vectors: usize = if device.is_simulated() { 256 } else { 16384 };
    println!(
        "device: {} ({:?} backend, compute capability {}.{}, {} multiprocessors)",
        info.name, info.backend, info.compute_capability.0, info.compute_capability.1, info.multiprocessor_count
    );
    let complex_edge = buffer_edge(&device, 8, TransferType::HostToDevice);
    let float_edge = buffer_edge(&device, 4, TransferType::DeviceToHost);
    println!(
        "buffers: host-to-device ring of {} complex items, device-to-host ring of {} float items",
        complex_edge.buffer.ring_items(),
        float_edge.buffer.ring_items()
    );
    let gpu_stream = Arc::new(Stream::new(&device).unwrap());
    let gpu_reader = complex_edge.add_reader(Some(gpu_stream.clone()));
    float_edge.buffer.set_writer_stream(Some(gpu_stream.clone())).unwrap();
    let sink_reader = float_edge.add_reader(None);

    let started = Instant::now();
    let source = {
        let edge = complex_edge.clone();
        thread::spawn(move || cpu_source(&edge, total_vectors * FFT_SIZE))
    };
    let gpu = {
        let (input, output, device) = (complex_edge.clone(), float_edge.clone(), device.clone());
        thread::spawn(move || gpu_spectrum_block(&device, &input, gpu_reader, &output, &gpu_stream))
    };
    let average = cpu_sink(&float_edge, sink_reader);
    source.join().unwrap();
    gpu.join().unwrap();
    let elapsed = started.elapsed();

    let (peak_bin, peak_db) =
        average.iter().enumerate().fold((0, f64::MIN), |best, (bin, &db)| if db > best.1 { (bin, db) } else { best });
    let bin_width = SAMPLE_RATE / FFT_SIZE as f64;
    let peak_frequency = peak_bin as f64 * bin_width;
    let samples = total_vectors * FFT_SIZE;
    println!("pushed {samples} complex samples ({total_vectors} FFTs of {FFT_SIZE} points) CPU -> GPU -> CPU");
    println!("GPU work() per call: window, FFT, |X|^2, 10*log10 on {BATCH} vectors, all on one stream");
    println!(
        "peak: bin {peak_bin} = {:.3} MHz at {peak_db:.1} dB (tone at {:.3} MHz, bin width {:.1} kHz)",
        peak_frequency / 1e6,
        TONE_FREQUENCY / 1e6,
        bin_width / 1e3
    );
    println!("throughput: {:.1} Msamples/s end to end ({:.2?})", samples as f64 / elapsed.as_secs_f64() / 1e6, elapsed);
    assert!((peak_frequency - TONE_FREQUENCY).abs() <= bin_width, "the peak is not at the tone");
    println!("ok: the peak is at the tone");
}

fn buffer_edge(device: &Device, item_size: usize, transfer: TransferType) -> Arc<Edge> {
    let buffer = Buffer::new(device, item_size, 4 * BATCH * FFT_SIZE, HostWait::Block).unwrap();
    buffer.set_transfer_type(transfer).unwrap();
    Edge::new(buffer)
}

/// A tone plus uniform noise, written straight into the pinned host ring.
fn cpu_source(output: &Edge, total_samples: usize) {
    let step = 2.0 * PI * TONE_FREQUENCY / SAMPLE_RATE;
    let mut noise_state = 0x2545_F491_4F6C_DD1Du64;
    let mut written = 0usize;
    while written < total_samples {
        let (index, n) = output.wait_space((total_samples - written).min(BATCH * FFT_SIZE) as u64);
        let n = n as usize;
        output.buffer.begin_write(index, n).unwrap();
        let pointer = output.buffer.writer_pointer(index).unwrap() as *mut Complex32;
        let samples = unsafe { std::slice::from_raw_parts_mut(pointer, n) };
        for (k, sample) in samples.iter_mut().enumerate() {
            let phase = step * (written + k) as f64;
            noise_state ^= noise_state << 13;
            noise_state ^= noise_state >> 7;
            noise_state ^= noise_state << 17;
            let noise = (noise_state >> 40) as f32 / (1u64 << 24) as f32 - 0.5;
            *sample = Complex32::new(phase.cos() as f32 + noise, phase.sin() as f32 - noise);
        }
        output.buffer.post_work(index, n).unwrap();
        output.publish(n as u64);
        written += n;
    }
    output.finish();
}

/// The GPU block: everything it does in work() is enqueue kernels on its stream.
fn gpu_spectrum_block(device: &Device, input: &Edge, reader: usize, output: &Edge, stream: &Arc<Stream>) {
    let hann: Vec<f32> =
        (0..FFT_SIZE).map(|i| (0.5 - 0.5 * (2.0 * PI * i as f64 / FFT_SIZE as f64).cos()) as f32).collect();
    let window = DeviceAllocation::new(device, FFT_SIZE * 4).unwrap();
    let mut staging = PinnedAllocation::new(device, FFT_SIZE * 4).unwrap();
    unsafe {
        staging.as_mut_slice().copy_from_slice(bytes_of(&hann));
        stream.copy_async(window.address(), staging.address(), FFT_SIZE * 4).unwrap();
    }
    let windowed = DeviceAllocation::new(device, BATCH * FFT_SIZE * 8).unwrap();
    let spectrum = DeviceAllocation::new(device, BATCH * FFT_SIZE * 8).unwrap();
    let power = DeviceAllocation::new(device, BATCH * FFT_SIZE * 4).unwrap();
    // Made once, before the loop, as a GNU Radio block makes its plan in its constructor.
    let mut fft = FftPlan::new(stream, FftKind::Forward, FFT_SIZE).unwrap();
    let vector = FFT_SIZE as u64;
    let reader_handle = input.buffer.reader(reader).unwrap();
    while let Some((read_index, available)) = input.wait_items_in_multiples(reader, (BATCH * FFT_SIZE) as u64, vector) {
        let (write_index, n) = output.wait_space_in_multiples(available, vector);
        let (n, vectors) = (n as usize, n as usize / FFT_SIZE);
        output.buffer.begin_write(write_index, n).unwrap();
        let samples = input.buffer.reader_pointer(read_index).unwrap();
        let decibels = output.buffer.writer_pointer(write_index).unwrap();
        unsafe {
            kernels::window::<Complex32>(stream, samples, window.address(), windowed.address(), FFT_SIZE, vectors)
                .unwrap();
            fft.execute(vectors, windowed.address(), spectrum.address()).unwrap();
            kernels::magnitude_squared(stream, spectrum.address(), power.address(), n).unwrap();
            kernels::nlog10(stream, power.address(), decibels, n, 10.0, 0.0).unwrap();
        }
        input.buffer.consume(&reader_handle, read_index, n).unwrap();
        input.release(reader, n as u64);
        output.buffer.post_work(write_index, n).unwrap();
        output.publish(n as u64);
    }
    output.finish();
    // The scratch memory must outlive the kernels that use it.
    stream.synchronize().unwrap();
}

/// Averages the spectra in dB as they arrive from the GPU.
fn cpu_sink(input: &Edge, reader: usize) -> Vec<f64> {
    let mut sum = vec![0f64; FFT_SIZE];
    let mut count = 0usize;
    let reader_handle = input.buffer.reader(reader).unwrap();
    while let Some((index, n)) = input.wait_items_in_multiples(reader, (BATCH * FFT_SIZE) as u64, FFT_SIZE as u64) {
        input.buffer.wait_published(index, n as usize).unwrap();
        let pointer = input.buffer.reader_pointer(index).unwrap() as *const f32;
        let decibels = unsafe { std::slice::from_raw_parts(pointer, n as usize) };
        for spectrum in decibels.chunks_exact(FFT_SIZE) {
            sum.iter_mut().zip(spectrum).for_each(|(s, &db)| *s += db as f64);
            count += 1;
        }
        input.buffer.consume(&reader_handle, index, n as usize).unwrap();
        input.release(reader, n);
    }
    sum.iter().map(|s| s / count as f64).collect()
}

fn bytes_of(values: &[f32]) -> &[u8] {
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast(), std::mem::size_of_val(values)) }
}
