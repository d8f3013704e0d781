// SPDX-License-Identifier: GPL-3.0-or-later

//! The host's half of the shared-memory FFT (`kernels/shared_fft.cuh`) that fused kernels run
//! on power-of-two sequences of [`SHARED_FFT_LENGTHS`]: its twiddle table, computed in double
//! precision, which the caller keeps in device memory, and the shared memory its sequences
//! take.

use crate::kernels::element::Complex32;

/// The sequence lengths the shared-memory FFT transforms (powers of two).
pub(crate) const SHARED_FFT_LENGTHS: std::ops::RangeInclusive<usize> = 32..=4096;

/// [`SHARED_FFT_LENGTHS`] as the suffixes of the kernels that fuse the FFT: a kernel takes its
/// sequence length as a template parameter, so that its indices fold into constants, and each
/// length is a kernel of its own (`grcuda_logpwrfft_spectra_float32_1024`).
pub(crate) const LENGTH_NAMES: [&str; 8] = ["32", "64", "128", "256", "512", "1024", "2048", "4096"];

/// The kernel name suffix of sequences of `length` values, one of [`SHARED_FFT_LENGTHS`].
pub(crate) fn length_name(length: usize) -> &'static str {
    debug_assert!(length.is_power_of_two() && SHARED_FFT_LENGTHS.contains(&length));
    LENGTH_NAMES[(length.trailing_zeros() - SHARED_FFT_LENGTHS.start().trailing_zeros()) as usize]
}

/// Values each thread holds through a pass (`SHARED_FFT_VALUES` in the source): a sequence of
/// `length` values takes `length / SHARED_FFT_VALUES` threads.
pub(crate) const SHARED_FFT_VALUES: usize = 16;

/// The strides of the passes that twiddle: after a first pass of radix 2, 4, 8 or 16, each
/// radix-16 pass multiplies the stride by 16.
fn twiddled_pass_strides(length: usize) -> impl Iterator<Item = usize> {
    let remainder = length.trailing_zeros() % 4;
    let first = if remainder == 0 { 16 } else { 1 << remainder };
    std::iter::successors(Some(first), |stride| Some(stride * 16)).take_while(move |&stride| stride < length)
}

/// exp(-2 pi i numerator / denominator), computed in double precision, rounded to complex64.
pub(crate) fn root(numerator: usize, denominator: usize) -> Complex32 {
    let angle = -2.0 * std::f64::consts::PI * numerator as f64 / denominator as f64;
    Complex32::new(angle.cos() as f32, angle.sin() as f32)
}

/// The table of a `length`-point transform: for each pass after the first (stride s), entries
/// (r - 1) * s + k = exp(-2 pi i r k / (16 s)) for r in 1..16 and k < s.
pub(crate) fn twiddles(length: usize) -> impl Iterator<Item = Complex32> {
    twiddled_pass_strides(length)
        .flat_map(|stride| (1..16).flat_map(move |r| (0..stride).map(move |k| root(r * k, 16 * stride))))
}

/// Entries of [`twiddles`]`(length)`: 15 per stride of the passes that twiddle.
pub(crate) fn twiddle_count(length: usize) -> usize {
    twiddled_pass_strides(length).map(|stride| 15 * stride).sum()
}

/// A block for sequences of `length` values: at least `smallest_threads` threads, as many
/// sequences side by side as fill them. Returns the block's threads and its sequences.
pub(crate) fn block_shape(length: usize, smallest_threads: usize) -> (u32, usize) {
    let threads_per_sequence = length / SHARED_FFT_VALUES;
    let threads = threads_per_sequence.max(smallest_threads);
    (threads as u32, threads / threads_per_sequence)
}

/// Dynamic shared memory of a block holding `sequences` sequences of `length` values:
/// `shared_fft_slice_values` in the source (one pad per 16 values and one more) each.
pub(crate) fn shared_bytes(sequences: usize, length: usize) -> u32 {
    (sequences * (length + length / 16 + 1) * size_of::<Complex32>()) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_has_its_name() {
        let lengths: Vec<usize> = LENGTH_NAMES.iter().map(|name| name.parse().unwrap()).collect();
        assert_eq!(lengths, (5..=12).map(|log2| 1 << log2).collect::<Vec<usize>>());
        assert!(
            SHARED_FFT_LENGTHS
                .clone()
                .filter(|length| length.is_power_of_two())
                .all(|length| length_name(length) == length.to_string())
        );
    }

    #[test]
    fn the_table_has_fifteen_entries_per_stride_of_the_twiddled_passes() {
        // 4096 = 16 * 16 * 16: passes of stride 16 and 256 twiddle.
        assert_eq!(twiddle_count(4096), 15 * (16 + 256));
        assert_eq!(twiddles(4096).count(), twiddle_count(4096));
        // 32 = 2 * 16: one pass of stride 2 twiddles; entry 3 is r = 2, k = 1.
        assert_eq!(twiddle_count(32), 30);
        assert_eq!(twiddles(32).nth(3), Some(root(2, 32)));
    }
}
