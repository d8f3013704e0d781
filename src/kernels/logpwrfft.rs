// SPDX-License-Identifier: GPL-3.0-or-later

//! GNU Radio's logpwrfft chain (`kernels/logpwrfft.cu`): the two launches a spectrum block
//! makes around its batched FFT.
//!
//! [`logpwrfft_frames`] gathers the frames stream_to_vector_decimator keeps and windows
//! them into the FFT input; [`logpwrfft_power`] turns the spectra into decibels, applying
//! fft_vcc's shift as an index and single_pole_iir_filter_ff's average over frames. The
//! average's state (one float per bin, GNU Radio's previous output) lives in device memory
//! that the caller owns and passes to every call; each call leaves in it the last frame's
//! output, so the output does not depend on how the stream is split into calls.
//!
//! [`logpwrfft_spectra`] is the same chain in one kernel, or two for lengths above 4096, for
//! the lengths [`logpwrfft_spectra_supported`] accepts: the FFTs run in shared memory, with
//! the twiddle table [`logpwrfft_spectra_twiddles`] makes, which the caller keeps in device
//! memory, and the two-kernel form (a four-step FFT) passes the spectra through scratch
//! memory the caller also provides. On the simulated backend it runs the three steps above on
//! the CPU, with rustfft between them.

use crate::error::{Error, Result};
use crate::kernels::element::{Complex32, WindowElement};
use crate::kernels::launch::{self, argument};
use crate::kernels::program::{
    self, LOGPWRFFT_AVERAGE_KERNELS, LOGPWRFFT_AVERAGE_POWERS_KERNELS, LOGPWRFFT_COLUMNS_KERNELS,
    LOGPWRFFT_FRAMES_KERNELS, LOGPWRFFT_POWER_KERNELS, LOGPWRFFT_ROWS_KERNELS, LOGPWRFFT_SPECTRA_KERNELS,
};
use crate::kernels::{cpu, shared_fft, validate};
use crate::stream::Stream;

/// An input item of a spectrum: float32 (logpwrfft_f) or complex64 (logpwrfft_c).
pub trait SpectrumInput: WindowElement {
    /// The item times its window tap, as the FFT's complex input.
    fn windowed(self, tap: f32) -> Complex32;
}

impl SpectrumInput for f32 {
    fn windowed(self, tap: f32) -> Complex32 {
        Complex32::new(self * tap, 0.0)
    }
}

impl SpectrumInput for Complex32 {
    fn windowed(self, tap: f32) -> Complex32 {
        self.scale(tap)
    }
}

/// For each of `frames` frames: `output[f * length + j] = input[f * stride + j] * window[j]`,
/// complex, where `stride` (at least `length`) is the distance in items between the starts of
/// consecutive frames in `input` (`length` times the decimation) and `window` holds `length`
/// float32 taps.
///
/// # Safety
/// `input` must address `(frames - 1) * stride + length` items of `T`, `window` `length`
/// float32 values and `output` `frames * length` complex64 items of device memory of the
/// stream's device (host memory on the simulated backend) until the kernel completes, and
/// nothing else may write them meanwhile.
pub unsafe fn logpwrfft_frames<T: SpectrumInput>(
    stream: &Stream,
    input: u64,
    stride: usize,
    window: u64,
    output: u64,
    length: usize,
    frames: usize,
) -> Result<()> {
    if length == 0 || stride < length {
        return Err(Error::invalid_argument(format!(
            "logpwrfft frames need a length of at least 1 and a stride of at least the length, got length \
             {length} and stride {stride}"
        )));
    }
    let count = validate::product("logpwrfft frames", &[length, frames])?;
    if count == 0 {
        return Ok(());
    }
    let input_items = validate::product("logpwrfft input", &[frames - 1, stride])?
        .checked_add(length)
        .ok_or_else(|| Error::invalid_argument("the logpwrfft input size overflows"))?;
    let input_range = validate::array::<T>("input", input, input_items)?;
    let window_range = validate::array::<f32>("window", window, length)?;
    let output_range = validate::array::<Complex32>("output", output, count)?;
    validate::disjoint(("input", &input_range), ("output", &output_range))?;
    validate::disjoint(("window", &window_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::logpwrfft_frames::<T>(input, stride, window, output, length, count) };
    launch::run(stream, LOGPWRFFT_FRAMES_KERNELS.variant(T::NAME), on_cpu, |kernel| {
        let (stride_argument, length_argument, count_argument) = (stride as u64, length as u64, count as u64);
        unsafe {
            kernel.launch(
                count,
                &mut [
                    argument(&input),
                    argument(&stride_argument),
                    argument(&window),
                    argument(&output),
                    argument(&length_argument),
                    argument(&count_argument),
                ],
            )
        }
    })
}

/// For `frames` spectra of `length` complex64 bins, `output[f * length + j] = 10 *
/// log10(max(y, FLT_MIN)) + offset`, where y is bin j's power |X|^2 (bin (j + ceil(length /
/// 2)) mod length with `shift`, fft_vcc's order) through single_pole_iir_filter_ff:
/// `y = alpha * power + (1 - alpha) * previous`, computed in double and rounded to float,
/// with `previous` read from and left in `state` (`length` floats, zero for a new stream).
/// An `alpha` of 1 (no averaging) gives the power itself and one thread per item.
///
/// # Safety
/// `spectrum` must address `frames * length` complex64 items, `output` `frames * length`
/// float32 items and `state` `length` float32 items of device memory of the stream's device
/// (host memory on the simulated backend) until the kernel completes, and nothing else may
/// use `output` and `state` meanwhile.
#[allow(clippy::too_many_arguments)] // the C entry point's parameters, one for one
pub unsafe fn logpwrfft_power(
    stream: &Stream,
    spectrum: u64,
    output: u64,
    state: u64,
    length: usize,
    frames: usize,
    shift: bool,
    alpha: f64,
    offset: f32,
) -> Result<()> {
    if length == 0 {
        return Err(Error::invalid_argument("logpwrfft spectrum length is 0: pass the FFT size"));
    }
    if !(0.0..=1.0).contains(&alpha) {
        return Err(Error::invalid_argument(format!("logpwrfft alpha must be in [0, 1], got {alpha}")));
    }
    let count = validate::product("logpwrfft spectra", &[length, frames])?;
    if count == 0 {
        return Ok(());
    }
    let spectrum_range = validate::array::<Complex32>("spectrum", spectrum, count)?;
    let output_range = validate::array::<f32>("output", output, count)?;
    let state_range = validate::array::<f32>("state", state, length)?;
    validate::disjoint(("spectrum", &spectrum_range), ("output", &output_range))?;
    validate::disjoint(("spectrum", &spectrum_range), ("state", &state_range))?;
    validate::disjoint(("output", &output_range), ("state", &state_range))?;
    let rotation = rotation(length, shift);
    let on_cpu = || unsafe { cpu::logpwrfft_power(spectrum, output, state, length, rotation, frames, alpha, offset) };
    // Without averaging every item is independent; with it, each bin's frames are a chain.
    let averaging = alpha != 1.0;
    let one_minus_alpha = 1.0 - alpha;
    let kernels = if averaging { &LOGPWRFFT_AVERAGE_KERNELS } else { &LOGPWRFFT_POWER_KERNELS };
    launch::run(stream, kernels.variant(""), on_cpu, |kernel| {
        let (length_argument, rotation_argument, frames_argument) = (length as u64, rotation as u64, frames as u64);
        let mut arguments = [
            argument(&spectrum),
            argument(&output),
            argument(&state),
            argument(&length_argument),
            argument(&rotation_argument),
            argument(&frames_argument),
            argument(&offset),
            argument(&alpha),
            argument(&one_minus_alpha),
        ];
        if averaging {
            unsafe { kernel.launch_tiles(length.div_ceil(AVERAGE_BINS), AVERAGE_THREADS, 0, &mut arguments) }
        } else {
            unsafe { kernel.launch(count, &mut arguments[..7]) }
        }
    })
}

/// Bins per block of the averaging kernels and their block size (`AVERAGE_BINS` and
/// `AVERAGE_THREADS` in the source).
const AVERAGE_BINS: usize = 32;
const AVERAGE_THREADS: u32 = 256;

/// fft_vcc's shift as an index: output bin j is spectrum bin (j + rotation) mod length.
fn rotation(length: usize, shift: bool) -> usize {
    if shift { length.div_ceil(2) % length } else { 0 }
}

/// The lengths [`logpwrfft_spectra`] transforms (powers of two): up to `ONE_KERNEL_LONGEST` in
/// one kernel, longer ones in two (a four-step FFT through scratch memory).
const SPECTRA_LENGTHS: std::ops::RangeInclusive<usize> = 32..=1 << 20;
const ONE_KERNEL_LONGEST: usize = *shared_fft::SHARED_FFT_LENGTHS.end();

/// The one-kernel form's smallest block (two warps: on the H200 faster than larger blocks for
/// every length up to 1024), the largest block of any form (`SPECTRUM_MAX_THREADS`), and the
/// most columns a block of the two-kernel form takes (16 adjacent complex values: a warp's
/// loads in 128-byte runs).
const SPECTRUM_THREADS: usize = 64;
const SPECTRUM_MAX_THREADS: usize = 256;
const COLUMNS_MAX: usize = 16;

/// Whether [`logpwrfft_spectra`] handles spectra of `length` bins: a power of two from 32 to
/// 2^20. Other lengths take [`logpwrfft_frames`], an FFT plan and [`logpwrfft_power`].
pub fn logpwrfft_spectra_supported(length: usize) -> bool {
    length.is_power_of_two() && SPECTRA_LENGTHS.contains(&length)
}

/// The two-kernel form's split of `length` into N1 * N2 (N1 <= N2, as square as powers of two
/// allow), or None where one kernel does it all.
fn four_step_lengths(length: usize) -> Option<(usize, usize)> {
    (length > ONE_KERNEL_LONGEST).then(|| {
        let first = 1 << (length.trailing_zeros() / 2);
        (first, length / first)
    })
}

/// The twiddle table of [`logpwrfft_spectra`] for `length` bins. One kernel: the table of its
/// FFT. Two (length N1 * N2): the tables of the N1- and the N2-point FFTs, then entry n2 * N1
/// + k1 = exp(-2 pi i n2 k1 / length) for the step between them.
pub fn logpwrfft_spectra_twiddles(length: usize) -> Result<Vec<Complex32>> {
    require_spectra_length(length)?;
    Ok(match four_step_lengths(length) {
        None => shared_fft::twiddles(length).collect(),
        Some((first, second)) => shared_fft::twiddles(first)
            .chain(shared_fft::twiddles(second))
            .chain((0..second).flat_map(|n2| (0..first).map(move |k1| shared_fft::root(n2 * k1, length))))
            .collect(),
    })
}

/// Complex values of scratch memory [`logpwrfft_spectra`] needs for `frames` frames of
/// `length` bins: none for one kernel, the frames' spectra for two.
pub fn logpwrfft_spectra_scratch(length: usize, frames: usize) -> Result<usize> {
    require_spectra_length(length)?;
    match four_step_lengths(length) {
        None => Ok(0),
        Some(_) => validate::product("logpwrfft scratch", &[length, frames]),
    }
}

fn require_spectra_length(length: usize) -> Result<()> {
    if logpwrfft_spectra_supported(length) {
        return Ok(());
    }
    Err(Error::invalid_argument(format!(
        "logpwrfft spectra in one or two kernels need a power-of-two length from {} to {}, got {length}: \
         use the frames, an FFT plan and the power kernel for it",
        SPECTRA_LENGTHS.start(),
        SPECTRA_LENGTHS.end()
    )))
}

/// [`logpwrfft_frames`], the forward FFT of each frame and [`logpwrfft_power`] in one kernel
/// for lengths up to 4096, two above (a third with averaging), for lengths
/// [`logpwrfft_spectra_supported`] accepts: from `frames` frames of `length` input items
/// `stride` apart, `output[f * length + j]` is the decibel level of bin j as
/// [`logpwrfft_power`] defines it, with `state` read and left as there. `twiddles` holds
/// [`logpwrfft_spectra_twiddles`]`(length)` in device memory, `scratch`
/// [`logpwrfft_spectra_scratch`]`(length, frames)` complex values (any address where that is
/// 0). The decibels are within a few 1e-6 dB of [`logpwrfft_power`]'s (a faster log10).
///
/// # Safety
/// `input` must address `(frames - 1) * stride + length` items of `T`, `window` `length`
/// float32 values, `twiddles` the table's and `scratch` its count of complex64 values,
/// `output` `frames * length` and `state` `length` float32 items of device memory of the
/// stream's device (host memory on the simulated backend) until the kernels complete, and
/// nothing else may use `scratch`, `output` and `state` meanwhile.
#[allow(clippy::too_many_arguments)] // the C entry point's parameters, one for one
pub unsafe fn logpwrfft_spectra<T: SpectrumInput>(
    stream: &Stream,
    input: u64,
    stride: usize,
    window: u64,
    twiddles: u64,
    scratch: u64,
    output: u64,
    state: u64,
    length: usize,
    frames: usize,
    shift: bool,
    alpha: f64,
    offset: f32,
) -> Result<()> {
    require_spectra_length(length)?;
    if stride < length {
        return Err(Error::invalid_argument(format!(
            "logpwrfft frames need a stride of at least the length, got length {length} and stride {stride}"
        )));
    }
    if !(0.0..=1.0).contains(&alpha) {
        return Err(Error::invalid_argument(format!("logpwrfft alpha must be in [0, 1], got {alpha}")));
    }
    let count = validate::product("logpwrfft spectra", &[length, frames])?;
    if count == 0 {
        return Ok(());
    }
    let input_items = validate::product("logpwrfft input", &[frames - 1, stride])?
        .checked_add(length)
        .ok_or_else(|| Error::invalid_argument("the logpwrfft input size overflows"))?;
    let twiddle_count = match four_step_lengths(length) {
        None => shared_fft::twiddle_count(length),
        Some((first, second)) => shared_fft::twiddle_count(first) + shared_fft::twiddle_count(second) + length,
    };
    let scratch_count = logpwrfft_spectra_scratch(length, frames)?;
    let input_range = validate::array::<T>("input", input, input_items)?;
    let window_range = validate::array::<f32>("window", window, length)?;
    let twiddle_range = validate::array::<Complex32>("twiddles", twiddles, twiddle_count.max(1))?;
    let output_range = validate::array::<f32>("output", output, count)?;
    let state_range = validate::array::<f32>("state", state, length)?;
    let mut written = vec![("output", output_range), ("state", state_range)];
    if scratch_count > 0 {
        written.push(("scratch", validate::array::<Complex32>("scratch", scratch, scratch_count)?));
    }
    for (index, (name, range)) in written.iter().enumerate() {
        for (read, read_range) in [("input", &input_range), ("window", &window_range), ("twiddles", &twiddle_range)] {
            validate::disjoint((read, read_range), (name, range))?;
        }
        for (other, other_range) in &written[index + 1..] {
            validate::disjoint((name, range), (other, other_range))?;
        }
    }
    let rotation = rotation(length, shift);
    let on_cpu = || unsafe {
        spectra_on_cpu::<T>(input, stride, window, output, state, length, frames, rotation, alpha, offset)
    };
    let averaging = alpha != 1.0;
    let (rotation_argument, decibels_argument) = (rotation as i32, i32::from(!averaging));
    let frames_argument = frames as u64;
    match four_step_lengths(length) {
        None => {
            let kernels = program::for_samples(&LOGPWRFFT_SPECTRA_KERNELS, T::NAME);
            launch::run(stream, kernels.variant(shared_fft::length_name(length)), on_cpu, |kernel| {
                let (threads, frames_per_block) = shared_fft::block_shape(length, SPECTRUM_THREADS);
                let stride_argument = stride as u64;
                unsafe {
                    kernel.launch_tiles(
                        frames.div_ceil(frames_per_block),
                        threads,
                        shared_fft::shared_bytes(frames_per_block, length),
                        &mut [
                            argument(&input),
                            argument(&stride_argument),
                            argument(&window),
                            argument(&twiddles),
                            argument(&output),
                            argument(&state),
                            argument(&frames_argument),
                            argument(&rotation_argument),
                            argument(&offset),
                            argument(&decibels_argument),
                        ],
                    )
                }
            })?
        }
        Some((first, second)) => {
            // The scratch holds, per frame, column n2's N1 transformed values at n2 * N1.
            let second_twiddles = twiddles + (shared_fft::twiddle_count(first) * size_of::<Complex32>()) as u64;
            let step_twiddles = second_twiddles + (shared_fft::twiddle_count(second) * size_of::<Complex32>()) as u64;
            let (first_argument, second_argument) = (first as i32, second as i32);
            let columns_kernels = program::for_samples(&LOGPWRFFT_COLUMNS_KERNELS, T::NAME);
            launch::run(stream, columns_kernels.variant(shared_fft::length_name(first)), on_cpu, |kernel| {
                let (columns, threads) = column_block(first);
                let stride_argument = stride as u64;
                unsafe {
                    kernel.launch_tiles(
                        frames * (second / columns),
                        threads,
                        shared_fft::shared_bytes(columns, first),
                        &mut [
                            argument(&input),
                            argument(&stride_argument),
                            argument(&window),
                            argument(&twiddles),
                            argument(&scratch),
                            argument(&second_argument),
                            argument(&frames_argument),
                        ],
                    )
                }
            })?;
            if !stream.device().is_simulated() {
                launch::run(
                    stream,
                    LOGPWRFFT_ROWS_KERNELS.variant(shared_fft::length_name(second)),
                    || {},
                    |kernel| {
                        let (rows, threads) = column_block(second);
                        unsafe {
                            kernel.launch_tiles(
                                frames * (first / rows),
                                threads,
                                shared_fft::shared_bytes(rows, second),
                                &mut [
                                    argument(&scratch),
                                    argument(&second_twiddles),
                                    argument(&step_twiddles),
                                    argument(&output),
                                    argument(&state),
                                    argument(&first_argument),
                                    argument(&frames_argument),
                                    argument(&rotation_argument),
                                    argument(&offset),
                                    argument(&decibels_argument),
                                ],
                            )
                        }
                    },
                )?;
            }
        }
    }
    if !averaging || stream.device().is_simulated() {
        return Ok(());
    }
    // The CPU twin above has averaged already.
    launch::run(
        stream,
        LOGPWRFFT_AVERAGE_POWERS_KERNELS.variant(""),
        || {},
        |kernel| {
            let (length_argument, one_minus_alpha) = (length as u64, 1.0 - alpha);
            unsafe {
                kernel.launch_tiles(
                    length.div_ceil(AVERAGE_BINS),
                    AVERAGE_THREADS,
                    0,
                    &mut [
                        argument(&output),
                        argument(&state),
                        argument(&length_argument),
                        argument(&frames_argument),
                        argument(&offset),
                        argument(&alpha),
                        argument(&one_minus_alpha),
                    ],
                )
            }
        },
    )
}

/// A block of the two-kernel form for sequences of `length` values: how many side by side
/// (up to 16, and no more than SPECTRUM_MAX_THREADS threads of 16 values) and its threads.
fn column_block(length: usize) -> (usize, u32) {
    let threads_per_sequence = length / shared_fft::SHARED_FFT_VALUES;
    let columns = (SPECTRUM_MAX_THREADS / threads_per_sequence).min(COLUMNS_MAX);
    (columns, (columns * threads_per_sequence) as u32)
}

/// The simulated backend's [`logpwrfft_spectra`]: the frames, rustfft and the power kernel's
/// CPU twins, through a spectrum buffer of its own.
///
/// # Safety
/// As for [`logpwrfft_spectra`], on host memory, with the arguments checked.
#[allow(clippy::too_many_arguments)] // logpwrfft_spectra's, with the rotation
unsafe fn spectra_on_cpu<T: SpectrumInput>(
    input: u64,
    stride: usize,
    window: u64,
    output: u64,
    state: u64,
    length: usize,
    frames: usize,
    rotation: usize,
    alpha: f64,
    offset: f32,
) {
    let mut spectra = vec![Complex32::default(); length * frames];
    let spectra_address = spectra.as_mut_ptr() as u64;
    unsafe { cpu::logpwrfft_frames::<T>(input, stride, window, spectra_address, length, length * frames) };
    rustfft::FftPlanner::new().plan_fft_forward(length).process(&mut spectra);
    unsafe { cpu::logpwrfft_power(spectra_address, output, state, length, rotation, frames, alpha, offset) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length the spectra take has its kernels: a one-kernel length, or a four-step
    /// split whose column and row lengths have kernels (`variant` panics otherwise).
    #[test]
    fn every_supported_length_has_its_kernels() {
        for length in (0..usize::BITS).map(|log2| 1usize << log2).filter(|&length| logpwrfft_spectra_supported(length))
        {
            for sample_name in ["float32", "complex64"] {
                match four_step_lengths(length) {
                    None => {
                        program::for_samples(&LOGPWRFFT_SPECTRA_KERNELS, sample_name)
                            .variant(shared_fft::length_name(length));
                    }
                    Some((first, second)) => {
                        assert_eq!(first * second, length);
                        program::for_samples(&LOGPWRFFT_COLUMNS_KERNELS, sample_name)
                            .variant(shared_fft::length_name(first));
                        LOGPWRFFT_ROWS_KERNELS.variant(shared_fft::length_name(second));
                    }
                }
            }
        }
    }
}
