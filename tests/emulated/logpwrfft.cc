// SPDX-License-Identifier: GPL-3.0-or-later

// logpwrfft's one-kernel spectra (kernels/logpwrfft.cu, with the shared-memory FFT of
// kernels/shared_fft.cuh) on the CPU (cuda_on_cpu.h): window, FFT, |X|^2, decibels and
// the fft-shift of random frames against a DFT in double precision, for every length of
// the one-kernel form, real and complex samples, with decibels (and the call's last
// powers in the state) and with powers left for averaging. Prints one line per failing
// case and a summary; exits 1 on a failure.

#include "cuda_on_cpu.h"

#include KERNEL_SOURCE

#include "kernel_checks.h"

#include <cstdio>

namespace {

using checks::widened;

template <typename T>
using Spectra = void (*)(const T*,
                         count_type,
                         const float*,
                         const complex64*,
                         float*,
                         float*,
                         int,
                         int,
                         count_type,
                         int,
                         float,
                         int);

template <typename T>
bool check(const char* name,
           Spectra<T> spectra,
           int length,
           std::size_t frames,
           std::size_t stride,
           bool shift,
           bool decibels_out,
           unsigned blocks)
{
    std::mt19937 generator(length * 31 + frames * 7 + stride + shift * 3 + decibels_out);
    std::vector<T> input((frames - 1) * stride + length);
    for (T& sample : input)
        sample = checks::random_item<T>(generator);
    std::vector<float> window(length), output(frames * length, -1.0f),
        state(length, -1.0f);
    for (float& tap : window)
        tap = std::uniform_real_distribution<float>(0.0f, 1.0f)(generator);
    const std::vector<complex64> table = checks::shared_fft_twiddles(length);
    const int rotation = shift ? (length + 1) / 2 % length : 0;
    const float offset = 3.5f;
    // shared_fft::block_shape(length, 64) and shared_fft::shared_bytes().
    const unsigned threads = std::max(length / 16, 64);
    const std::size_t frames_per_block = threads / (length / 16);
    launch(blocks,
           threads,
           frames_per_block * (length + length / 16 + 1) * sizeof(complex64),
           [&] {
               spectra(input.data(),
                       stride,
                       window.data(),
                       table.data(),
                       output.data(),
                       state.data(),
                       length,
                       __builtin_ctz(length),
                       frames,
                       rotation,
                       offset,
                       decibels_out ? 1 : 0);
           });
    double worst = 0.0;
    bool state_right = true;
    std::vector<std::complex<double>> roots(length);
    for (int m = 0; m < length; ++m)
        roots[m] = std::polar(1.0, -2.0 * checks::pi * m / length);
    for (std::size_t frame = 0; frame < frames; ++frame) {
        std::vector<double> powers(length);
        std::vector<std::complex<double>> windowed(length);
        for (int n = 0; n < length; ++n)
            windowed[n] = widened(input[frame * stride + n]) * double(window[n]);
        double total = 0.0;
        for (int k = 0; k < length; ++k) {
            std::complex<double> bin = 0.0;
            for (int n = 0; n < length; ++n)
                bin += windowed[n] * roots[(long long)k * n % length];
            powers[k] = std::norm(bin);
            total += powers[k];
        }
        for (int position = 0; position < length; ++position) {
            const double expected = powers[(position + rotation) % length];
            const float written = output[frame * length + position];
            const double actual =
                decibels_out ? std::pow(10.0, (written - offset) / 10.0) : written;
            // Relative to the frame's mean power plus the bin's (docs/PERFORMANCE.md).
            worst = std::max(worst,
                             std::abs(actual - expected) / (total / length + expected));
            if (decibels_out && frame + 1 == frames) {
                state_right &= std::abs(state[position] - expected) <=
                               1e-5 * (total / length + expected);
            }
        }
    }
    if (!decibels_out)
        state_right =
            std::all_of(state.begin(), state.end(), [](float s) { return s == -1.0f; });
    const bool passed = worst < 1e-5 && state_right;
    if (!passed) {
        std::printf("FAILED %s: length %d, %zu frames %zu apart, shift %d, decibels %d, "
                    "%u blocks: worst relative "
                    "power error %.2e, state %s\n",
                    name,
                    length,
                    frames,
                    stride,
                    shift,
                    decibels_out,
                    blocks,
                    worst,
                    state_right ? "right" : "wrong");
    }
    return passed;
}

} // namespace

int main()
{
    int cases = 0, failures = 0;
    for (int length = 32; length <= 4096; length *= 2) {
        // Frames that overlap (stride below the length) and that skip input; a grid
        // smaller than the blocks' groups, so that blocks take several.
        const std::size_t frames = length <= 256 ? 9 : 3;
        for (std::size_t stride :
             { std::size_t(length) * 3 / 4, std::size_t(length) + 5 }) {
            for (bool shift : { false, true }) {
                for (bool decibels_out : { true, false }) {
                    failures += !check<float>("float32",
                                              grcuda_logpwrfft_spectra_float32,
                                              length,
                                              frames,
                                              stride,
                                              shift,
                                              decibels_out,
                                              2);
                    failures += !check<complex64>("complex64",
                                                  grcuda_logpwrfft_spectra_complex64,
                                                  length,
                                                  frames,
                                                  stride,
                                                  shift,
                                                  decibels_out,
                                                  2);
                    cases += 2;
                }
            }
        }
    }
    std::printf("%d of %d spectra cases passed\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}
