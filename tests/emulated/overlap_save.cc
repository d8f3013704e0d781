// SPDX-License-Identifier: GPL-3.0-or-later

// Overlap-save in one kernel (grcuda_overlap_save_segments_*, kernels/fir_filter.cu, with
// the shared-memory FFT) on the CPU (cuda_on_cpu.h): random samples and taps, the
// response and the segment layout as src/filter/overlap_save.rs makes them, against the
// FIR filter's definition in double precision; float samples (two segments per
// transform), complex samples with real and with complex taps, decimations 1 and 3, a
// rotation, and calls that start inside a segment and end before the last. Prints one
// line per failing case and a summary; exits 1 on a failure.

#include "cuda_on_cpu.h"

#include KERNEL_SOURCE

#include "kernel_checks.h"

#include <cstdio>

namespace {

using Exact = std::complex<double>;
using checks::pi;
using checks::widened;

template <typename T>
using Segments = void (*)(const T*,
                          count_type,
                          const complex64*,
                          const complex64*,
                          T*,
                          count_type,
                          count_type,
                          count_type,
                          count_type,
                          count_type,
                          count_type,
                          Rotation,
                          count_type);

// `taps` in GNU Radio's order (y[n] = sum of taps[k] * x[n - k]).
template <typename T>
bool check(const char* name,
           Segments<T> segments_kernel,
           const std::vector<Exact>& taps,
           int fft_size,
           std::size_t decimation,
           std::size_t first,
           std::size_t outputs,
           Rotation rotation)
{
    const std::size_t tap_count = taps.size();
    // overlap_save.rs: segments of `step` outputs (a multiple of the decimation), each
    // reading `length` items; valid outputs from `offset` on.
    const std::size_t step = (fft_size - tap_count + 1) / decimation * decimation;
    const std::size_t offset = tap_count - 1, length = step - decimation + tap_count;
    const std::size_t per_sequence = std::is_same_v<T, float> ? 2 : 1;
    const std::size_t last_position = first + (outputs - 1) * decimation;
    const std::size_t segment_count =
        (last_position / step + 1 + per_sequence - 1) / per_sequence * per_sequence;
    const std::size_t available = last_position + tap_count;
    std::mt19937 generator(fft_size * 13 + tap_count * 7 + decimation + first);
    std::vector<T> input(available);
    for (T& item : input)
        item = checks::random_item<T>(generator);
    // The taps' spectrum zero-padded to the FFT size, over the FFT size (response()
    // there).
    std::vector<complex64> response(fft_size);
    for (int bin = 0; bin < fft_size; ++bin) {
        Exact sum = 0.0;
        for (std::size_t k = 0; k < tap_count; ++k)
            sum += taps[k] *
                   std::polar(1.0, -2.0 * pi * double(bin * k % fft_size) / fft_size);
        sum /= fft_size;
        response[bin] = complex64{ float(sum.real()), float(sum.imag()) };
    }
    const std::vector<complex64> table = checks::shared_fft_twiddles(fft_size);
    std::vector<T> output(outputs);
    const std::size_t sequences = segment_count / per_sequence;
    const unsigned threads = std::max(fft_size / 16, 64);
    const std::size_t per_block = threads / (fft_size / 16);
    launch(
        2, threads, per_block * (fft_size + fft_size / 16 + 1) * sizeof(complex64), [&] {
            segments_kernel(input.data(),
                            available,
                            response.data(),
                            table.data(),
                            output.data(),
                            outputs,
                            step,
                            length,
                            offset,
                            first,
                            decimation,
                            rotation,
                            sequences);
        });
    // The transforms' rounding is relative to a segment's size, not to one output's:
    // errors are measured against the largest an output can be (samples are at most 1 in
    // each part).
    double bound = 0.0;
    for (const Exact& tap : taps)
        bound += std::abs(tap) * std::sqrt(2.0);
    double worst = 0.0;
    for (std::size_t j = 0; j < outputs; ++j) {
        const std::size_t position = first + j * decimation;
        Exact sum = 0.0;
        for (std::size_t k = 0; k < tap_count; ++k)
            sum += taps[k] * widened(input[position + tap_count - 1 - k]);
        if (rotation.rotate)
            sum *= std::polar(1.0, rotation.start + double(j) * rotation.increment);
        worst = std::max(worst, std::abs(sum - widened(output[j])) / bound);
    }
    const bool passed = worst < 1e-5;
    if (!passed) {
        std::printf("FAILED %s: FFT size %d, %zu taps, decimation %zu, first position "
                    "%zu, %zu outputs: worst "
                    "relative error %.2e\n",
                    name,
                    fft_size,
                    tap_count,
                    decimation,
                    first,
                    outputs,
                    worst);
    }
    return passed;
}

std::vector<Exact> random_taps(std::size_t count, bool complex, std::mt19937& generator)
{
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<Exact> taps(count);
    for (Exact& tap : taps) {
        tap = complex ? Exact(float(uniform(generator)), float(uniform(generator)))
                      : Exact(float(uniform(generator)), 0.0);
    }
    return taps;
}

} // namespace

int main()
{
    int cases = 0, failures = 0;
    std::mt19937 generator(5);
    const Rotation none{ 0.0, 0.0, 0 }, turning{ 0.25, 0.01, 1 };
    for (int fft_size : { 32, 256, 1024 }) {
        for (std::size_t tap_count : { std::size_t(1), std::size_t(fft_size / 4 + 1) }) {
            for (std::size_t decimation : { 1, 3 }) {
                // A call from the first segment's start, and one that starts inside a
                // segment (at a multiple of the decimation from the segment's start, as
                // the filter's calls do).
                for (std::size_t first :
                     { std::size_t(0), (fft_size / 2 + 1) / decimation * decimation }) {
                    const std::size_t outputs = 5 * fft_size / decimation + 3;
                    const std::vector<Exact> real_taps =
                        random_taps(tap_count, false, generator);
                    const std::vector<Exact> complex_taps =
                        random_taps(tap_count, true, generator);
                    failures += !check<float>(
                        "fff",
                        SHARED_FFT_KERNEL(grcuda_overlap_save_segments_float32_,
                                          fft_size),
                        real_taps,
                        fft_size,
                        decimation,
                        first,
                        outputs,
                        none);
                    failures += !check<complex64>(
                        "ccf",
                        SHARED_FFT_KERNEL(grcuda_overlap_save_segments_complex64_,
                                          fft_size),
                        real_taps,
                        fft_size,
                        decimation,
                        first,
                        outputs,
                        turning);
                    failures += !check<complex64>(
                        "ccc",
                        SHARED_FFT_KERNEL(grcuda_overlap_save_segments_complex64_,
                                          fft_size),
                        complex_taps,
                        fft_size,
                        decimation,
                        first,
                        outputs,
                        none);
                    cases += 3;
                }
            }
        }
    }
    std::printf("%d of %d overlap-save cases passed\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}
