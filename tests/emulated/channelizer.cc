// SPDX-License-Identifier: GPL-3.0-or-later

// The polyphase channelizer's filter bank (kernels/polyphase.cu) on the CPU
// (cuda_on_cpu.h) against the simulated backend's sums (src/kernels/cpu/polyphase.rs: the
// same fused multiply-adds in the same order, so bit for bit) and against the definition
// in double precision, with and without oversampling, for tap counts around the kernel's
// blocks of taps and step counts around its steps per thread. Prints one line per failing
// case and a summary; exits 1 on a failure.

#include "cuda_on_cpu.h"

#include KERNEL_SOURCE

#include "kernel_checks.h"

#include <cstdio>

namespace {

using checks::same_bits;

bool check(std::size_t channels,
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
        grcuda_pfb_channelizer_filter(input.data(),
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
        std::printf("FAILED %zu channels, %zu taps per branch, step advance %zu, %zu "
                    "steps, rotation %zu: %zu values "
                    "differ from the CPU backend's, worst relative error %.2e\n",
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

} // namespace

int main()
{
    int cases = 0, failures = 0;
    for (std::size_t channels : { 1, 4, 64 }) {
        for (std::size_t taps_per_branch : { 1, 5, 16, 17, 40 }) {
            for (std::size_t oversample : { 1, 2, 4 }) {
                if (channels % oversample != 0)
                    continue;
                for (std::size_t steps : { 1, 15, 16, 33, 200 }) {
                    const std::size_t step_advance = channels / oversample;
                    failures += !check(channels,
                                       taps_per_branch,
                                       step_advance,
                                       steps,
                                       (steps * 7) % channels);
                    ++cases;
                }
            }
        }
    }
    std::printf(
        "%d of %d channelizer filter-bank cases passed\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}
