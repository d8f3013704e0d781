// SPDX-License-Identifier: GPL-3.0-or-later

// The polyphase channelizer's kernels (kernels/polyphase.cu) on the CPU (cuda_on_cpu.h).
// The filter bank against the simulated backend's sums (src/kernels/cpu/polyphase.rs: the
// same fused multiply-adds in the same order, so bit for bit) and against the definition
// in double precision, with and without oversampling, for tap counts around the kernel's
// blocks of taps and step counts around its steps per thread. The filter bank with the
// inverse FFT in one kernel against the definition's rows and their inverse DFT in double
// precision, for channel counts from 32 to 1024 and step counts around a block's steps.
// Prints one line per failing case and a summary; exits 1 on a failure.

#include "cuda_on_cpu.h"

#include KERNEL_SOURCE

#include "kernel_checks.h"

#include <cstdio>

namespace {

using checks::same_bits;

using filter_kernel = void (*)(const complex64*,
                               const float*,
                               complex64*,
                               count_type,
                               count_type,
                               count_type,
                               count_type,
                               count_type);

// The filter-bank kernel the host launches for a step advance (oversampling_variant() in
// src/kernels/polyphase.rs).
filter_kernel kernel_for(std::size_t channels, std::size_t step_advance)
{
    if (channels % step_advance != 0)
        return grcuda_pfb_channelizer_filter_oversample_any;
    switch (channels / step_advance) {
    case 1:
        return grcuda_pfb_channelizer_filter_oversample1;
    case 2:
        return grcuda_pfb_channelizer_filter_oversample2;
    case 4:
        return grcuda_pfb_channelizer_filter_oversample4;
    default:
        return grcuda_pfb_channelizer_filter_oversample_any;
    }
}

bool check(filter_kernel kernel,
           const char* kernel_name,
           std::size_t channels,
           std::size_t taps_per_branch,
           std::size_t step_advance,
           std::size_t steps,
           std::size_t first_rotation)
{
    std::mt19937 generator(channels * 100 + taps_per_branch * 10 + steps + step_advance);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    // The filter reads T * M - 1 + (steps - 1) * D items before the newest of the last
    // step.
    std::vector<complex64> input(taps_per_branch * channels + (steps - 1) * step_advance);
    for (complex64& item : input)
        item = complex64{ uniform(generator), uniform(generator) };
    std::vector<float> taps(taps_per_branch * channels);
    for (float& tap : taps)
        tap = uniform(generator);
    std::vector<complex64> spectra(steps * channels, complex64{ -1.0f, -1.0f });
    const std::size_t work_items = (steps + CHANNELIZER_STEPS_PER_THREAD - 1) /
                                   CHANNELIZER_STEPS_PER_THREAD * channels;
    // Fewer blocks than work items, so that threads take several.
    launch(std::max<std::size_t>(1, work_items / 512), 256, 0, [&] {
        kernel(input.data(),
               taps.data(),
               spectra.data(),
               channels,
               taps_per_branch,
               step_advance,
               steps,
               first_rotation);
    });
    std::size_t differing = 0;
    double worst = 0.0;
    for (std::size_t step = 0; step < steps; ++step) {
        const std::size_t rotation = (first_rotation + step * step_advance) % channels;
        for (std::size_t branch = 0; branch < channels; ++branch) {
            const std::size_t newest =
                taps_per_branch * channels + step * step_advance - 1 - branch;
            complex64 sum{ 0.0f, 0.0f };
            std::complex<double> exact = 0.0;
            double magnitude = 0.0;
            for (std::size_t k = 0; k < taps_per_branch; ++k) {
                const float tap = taps[branch + k * channels];
                const complex64 item = input[newest - k * channels];
                sum = complex64{ std::fma(item.real, tap, sum.real),
                                 std::fma(item.imag, tap, sum.imag) };
                exact += std::complex<double>(item.real, item.imag) * double(tap);
                magnitude +=
                    std::abs(std::complex<double>(item.real, item.imag) * double(tap));
            }
            const complex64 actual =
                spectra[step * channels + (branch + channels - rotation) % channels];
            differing += !same_bits(sum, actual);
            worst = std::max(
                worst,
                std::abs(exact - std::complex<double>(actual.real, actual.imag)) /
                    (magnitude + 1e-30));
        }
    }
    const bool passed = differing == 0 && worst < 1e-6;
    if (!passed) {
        std::printf("FAILED %s: %zu channels, %zu taps per branch, step advance %zu, %zu "
                    "steps, rotation %zu: %zu values "
                    "differ from the CPU backend's, worst relative error %.2e\n",
                    kernel_name,
                    channels,
                    taps_per_branch,
                    step_advance,
                    steps,
                    first_rotation,
                    differing,
                    worst);
    }
    return passed;
}

// The rows of the filter bank's definition in double precision, rotated into their slots:
// row s, slot (f - first_rotation - s * D) mod M holds branch f's sum.
std::vector<std::complex<double>> exact_rows(const std::vector<complex64>& input,
                                             const std::vector<float>& taps,
                                             std::size_t channels,
                                             std::size_t taps_per_branch,
                                             std::size_t step_advance,
                                             std::size_t steps,
                                             std::size_t first_rotation)
{
    std::vector<std::complex<double>> rows(steps * channels);
    for (std::size_t step = 0; step < steps; ++step) {
        const std::size_t rotation = (first_rotation + step * step_advance) % channels;
        for (std::size_t branch = 0; branch < channels; ++branch) {
            const std::size_t newest =
                taps_per_branch * channels + step * step_advance - 1 - branch;
            std::complex<double> sum = 0.0;
            for (std::size_t k = 0; k < taps_per_branch; ++k) {
                const complex64 item = input[newest - k * channels];
                sum += std::complex<double>(item.real, item.imag) *
                       double(taps[branch + k * channels]);
            }
            rows[step * channels + (branch + channels - rotation) % channels] = sum;
        }
    }
    return rows;
}

// grcuda_pfb_channelizer_spectra_<M>: each row's unnormalised inverse DFT, within 1e-6 of
// the row's magnitude (the sum of its values' magnitudes, the most a channel can be).
using spectra_kernel = void (*)(const complex64*,
                                const float*,
                                const complex64*,
                                complex64*,
                                count_type,
                                count_type,
                                count_type,
                                count_type);

// A one-kernel channelizer kernel: its name, channels and steps per block of 256 threads
// (CHANNELIZER_SPECTRA_KERNEL_SHAPES in src/kernels/polyphase.rs).
struct SpectraKernel {
    spectra_kernel kernel;
    const char* name;
    std::size_t channels;
    std::size_t steps_per_block;
};

bool check_spectra(const SpectraKernel& tested,
                   std::size_t taps_per_branch,
                   std::size_t step_advance,
                   std::size_t steps,
                   std::size_t first_rotation)
{
    const std::size_t channels = tested.channels;
    std::mt19937 generator(channels * 31 + taps_per_branch * 7 + steps + step_advance);
    std::vector<complex64> input(taps_per_branch * channels + (steps - 1) * step_advance);
    for (complex64& item : input)
        item = checks::random_item<complex64>(generator);
    std::vector<float> taps(taps_per_branch * channels);
    for (float& tap : taps)
        tap = checks::random_item<float>(generator);
    const std::vector<complex64> twiddles = checks::shared_fft_twiddles(int(channels));
    std::vector<complex64> spectra(steps * channels, complex64{ -1.0f, -1.0f });
    // A block's rows in shared memory (shared_fft::shared_bytes in src/kernels).
    launch(2,
           256,
           tested.steps_per_block * (channels + channels / 16 + 1) * sizeof(complex64),
           [&] {
               tested.kernel(input.data(),
                             taps.data(),
                             twiddles.data(),
                             spectra.data(),
                             taps_per_branch,
                             step_advance,
                             steps,
                             first_rotation);
           });
    const std::vector<std::complex<double>> rows = exact_rows(
        input, taps, channels, taps_per_branch, step_advance, steps, first_rotation);
    std::vector<std::complex<double>> roots(channels);
    for (std::size_t m = 0; m < channels; ++m)
        roots[m] = std::polar(1.0, 2.0 * checks::pi * double(m) / double(channels));
    double worst = 0.0;
    for (std::size_t step = 0; step < steps; ++step) {
        const std::complex<double>* row = &rows[step * channels];
        double magnitude = 1e-30;
        for (std::size_t n = 0; n < channels; ++n)
            magnitude += std::abs(row[n]);
        for (std::size_t k = 0; k < channels; ++k) {
            std::complex<double> channel = 0.0;
            for (std::size_t n = 0; n < channels; ++n)
                channel += row[n] * roots[n * k % channels];
            worst = std::max(
                worst,
                std::abs(channel - checks::widened(spectra[step * channels + k])) /
                    magnitude);
        }
    }
    const bool passed = worst < 1e-6;
    if (!passed) {
        std::printf("FAILED %s: %zu channels, %zu taps per branch, step advance %zu, %zu "
                    "steps, rotation %zu: worst error %.2e of the row's magnitude\n",
                    tested.name,
                    channels,
                    taps_per_branch,
                    step_advance,
                    steps,
                    first_rotation,
                    worst);
    }
    return passed;
}

} // namespace

int main()
{
    int cases = 0, failures = 0;
    // Oversampling by 1, 2 and 4 reads through register windows, by 3 and 8 without.
    for (std::size_t channels : { 1, 4, 48, 64 }) {
        for (std::size_t taps_per_branch : { 1, 5, 16, 17, 40 }) {
            for (std::size_t oversample : { 1, 2, 3, 4, 8 }) {
                if (channels % oversample != 0)
                    continue;
                for (std::size_t steps : { 1, 15, 16, 33, 200 }) {
                    // The host's kernel for the advance, and the one for any advance.
                    const std::size_t step_advance = channels / oversample;
                    const std::size_t rotation = (steps * 7) % channels;
                    failures += !check(kernel_for(channels, step_advance),
                                       "the advance's kernel",
                                       channels,
                                       taps_per_branch,
                                       step_advance,
                                       steps,
                                       rotation);
                    failures += !check(grcuda_pfb_channelizer_filter_oversample_any,
                                       "oversample_any",
                                       channels,
                                       taps_per_branch,
                                       step_advance,
                                       steps,
                                       rotation);
                    cases += 2;
                }
            }
        }
    }
    const SpectraKernel spectra_kernels[] = {
        { grcuda_pfb_channelizer_spectra_32, "spectra_32", 32, 128 },
        { grcuda_pfb_channelizer_spectra_256, "spectra_256", 256, 16 },
        { grcuda_pfb_channelizer_spectra_1024, "spectra_1024", 1024, 8 },
        { grcuda_pfb_channelizer_spectra_1024_four_steps,
          "spectra_1024_four_steps",
          1024,
          4 },
    };
    for (const SpectraKernel& tested : spectra_kernels) {
        const std::size_t channels = tested.channels;
        for (std::size_t taps_per_branch : { 1, 16, 17 }) {
            // Step advances M (no oversampling), M / 2, M / 4 and 3M / 4 (oversample
            // 4/3).
            for (std::size_t step_advance :
                 { channels, channels / 2, channels / 4, channels * 3 / 4 }) {
                for (std::size_t steps : { std::size_t(1),
                                           tested.steps_per_block + 3,
                                           2 * tested.steps_per_block + 1 }) {
                    failures += !check_spectra(tested,
                                               taps_per_branch,
                                               step_advance,
                                               steps,
                                               (steps * 7) % channels);
                    ++cases;
                }
            }
        }
    }
    std::printf("%d of %d channelizer cases passed\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}
