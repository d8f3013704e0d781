// SPDX-License-Identifier: GPL-3.0-or-later

// logpwrfft's spectra kernels (kernels/logpwrfft.cu, with the shared-memory FFT of
// kernels/shared_fft.cuh) on the CPU (cuda_on_cpu.h): window, FFT, |X|^2, decibels and
// the fft-shift of random frames against a transform in double precision, for every
// length of the one-kernel form and for the two-kernel (four-step) form at 8192, 16384
// and 32768 points, real and complex samples, with decibels (and the call's last powers
// in the state) and with powers left for averaging. Prints one line per failing case and
// a summary; exits 1 on a failure.

#include "cuda_on_cpu.h"

#include KERNEL_SOURCE

#include "kernel_checks.h"

#include <cstdio>

namespace {

using checks::widened;
using Exact = std::complex<double>;

template <typename T>
using Spectra = void (*)(const T*,
                         count_type,
                         const float*,
                         const complex64*,
                         float*,
                         float*,
                         count_type,
                         int,
                         float,
                         int);
template <typename T>
using Columns = void (*)(
    const T*, count_type, const float*, const complex64*, complex64*, int, count_type);
using Rows = void (*)(const complex64*,
                      const complex64*,
                      const complex64*,
                      float*,
                      float*,
                      int,
                      count_type,
                      int,
                      float,
                      int);

// A forward DFT of a power-of-two length in double precision (radix 2, recursive).
void transform(std::vector<Exact>& values)
{
    const std::size_t n = values.size();
    if (n == 1)
        return;
    std::vector<Exact> even(n / 2), odd(n / 2);
    for (std::size_t i = 0; i < n / 2; ++i) {
        even[i] = values[2 * i];
        odd[i] = values[2 * i + 1];
    }
    transform(even);
    transform(odd);
    for (std::size_t k = 0; k < n / 2; ++k) {
        const Exact t =
            std::polar(1.0, -2.0 * checks::pi * double(k) / double(n)) * odd[k];
        values[k] = even[k] + t;
        values[k + n / 2] = even[k] - t;
    }
}

// One case's frames: random input and window, and what a call leaves.
template <typename T>
struct Case {
    int length;
    std::size_t frames, stride;
    bool shift, decibels_out;
    std::vector<T> input;
    std::vector<float> window, output, state;
    int rotation;
    float offset = 3.5f;

    Case(
        int length, std::size_t frames, std::size_t stride, bool shift, bool decibels_out)
        : length(length),
          frames(frames),
          stride(stride),
          shift(shift),
          decibels_out(decibels_out),
          input((frames - 1) * stride + length),
          window(length),
          output(frames * length, -1.0f),
          state(length, -1.0f),
          rotation(shift ? (length + 1) / 2 % length : 0)
    {
        std::mt19937 generator(length * 31 + frames * 7 + stride + shift * 3 +
                               decibels_out);
        for (T& sample : input)
            sample = checks::random_item<T>(generator);
        for (float& tap : window)
            tap = std::uniform_real_distribution<float>(0.0f, 1.0f)(generator);
    }

    // Whether the output and state match the exact spectra: powers within 1e-5 of the
    // frame's mean power plus the bin's (docs/PERFORMANCE.md); prints the failure.
    bool passed(const char* name, const char* form) const
    {
        double worst = 0.0;
        bool state_right = true;
        for (std::size_t frame = 0; frame < frames; ++frame) {
            std::vector<Exact> bins(length);
            for (int n = 0; n < length; ++n)
                bins[n] = widened(input[frame * stride + n]) * double(window[n]);
            transform(bins);
            double total = 0.0;
            for (const Exact& bin : bins)
                total += std::norm(bin);
            for (int position = 0; position < length; ++position) {
                const double expected = std::norm(bins[(position + rotation) % length]);
                const float written = output[frame * length + position];
                const double actual =
                    decibels_out ? std::pow(10.0, (written - offset) / 10.0) : written;
                const double scale = total / length + expected;
                worst = std::max(worst, std::abs(actual - expected) / scale);
                if (decibels_out && frame + 1 == frames)
                    state_right &= std::abs(state[position] - expected) <= 1e-5 * scale;
            }
        }
        if (!decibels_out)
            state_right = std::all_of(
                state.begin(), state.end(), [](float s) { return s == -1.0f; });
        const bool passed = worst < 1e-5 && state_right;
        if (!passed) {
            std::printf(
                "FAILED %s, %s: length %d, %zu frames %zu apart, shift %d, decibels %d: "
                "worst relative power error %.2e, state %s\n",
                name,
                form,
                length,
                frames,
                stride,
                shift,
                decibels_out,
                worst,
                state_right ? "right" : "wrong");
        }
        return passed;
    }
};

// The one-kernel form, on a grid smaller than the blocks' groups, so that blocks take
// several.
template <typename T>
bool check_one_kernel(const char* name, Spectra<T> spectra, Case<T> c)
{
    const std::vector<complex64> table = checks::shared_fft_twiddles(c.length);
    // shared_fft::block_shape(length, 64) and shared_fft::shared_bytes().
    const unsigned threads = std::max(c.length / 16, 64);
    const std::size_t frames_per_block = threads / (c.length / 16);
    launch(2,
           threads,
           frames_per_block * (c.length + c.length / 16 + 1) * sizeof(complex64),
           [&] {
               spectra(c.input.data(),
                       c.stride,
                       c.window.data(),
                       table.data(),
                       c.output.data(),
                       c.state.data(),
                       c.frames,
                       c.rotation,
                       c.offset,
                       c.decibels_out ? 1 : 0);
           });
    return c.passed(name, "one kernel");
}

// The four-step form of length first * second (logpwrfft.rs: four_step_lengths,
// logpwrfft_spectra_twiddles, column_block).
template <typename T>
bool check_four_step(
    const char* name, Columns<T> columns_kernel, Rows rows_kernel, int first, Case<T> c)
{
    const int second = c.length / first;
    std::vector<complex64> table = checks::shared_fft_twiddles(first);
    const std::vector<complex64> second_table = checks::shared_fft_twiddles(second);
    const std::size_t second_offset = table.size();
    table.insert(table.end(), second_table.begin(), second_table.end());
    const std::size_t step_offset = table.size();
    for (int n2 = 0; n2 < second; ++n2) {
        for (int k1 = 0; k1 < first; ++k1) {
            const double angle = -2.0 * checks::pi * double(n2) * k1 / c.length;
            table.push_back(complex64{ float(std::cos(angle)), float(std::sin(angle)) });
        }
    }
    std::vector<complex64> scratch(c.frames * c.length);
    const auto block = [](int length) {
        const int columns = std::min(256 / (length / 16), 16);
        return std::make_pair(columns, unsigned(columns * length / 16));
    };
    const auto [columns, column_threads] = block(first);
    launch(
        3, column_threads, columns * (first + first / 16 + 1) * sizeof(complex64), [&] {
            columns_kernel(c.input.data(),
                           c.stride,
                           c.window.data(),
                           table.data(),
                           scratch.data(),
                           second,
                           c.frames);
        });
    const auto [rows, row_threads] = block(second);
    launch(3, row_threads, rows * (second + second / 16 + 1) * sizeof(complex64), [&] {
        rows_kernel(scratch.data(),
                    table.data() + second_offset,
                    table.data() + step_offset,
                    c.output.data(),
                    c.state.data(),
                    first,
                    c.frames,
                    c.rotation,
                    c.offset,
                    c.decibels_out ? 1 : 0);
    });
    return c.passed(name, "four-step");
}

} // namespace

int main()
{
    int cases = 0, failures = 0;
    for (int length = 32; length <= 4096; length *= 2) {
        // Frames that overlap (stride below the length) and that skip input.
        const std::size_t frames = length <= 256 ? 9 : 3;
        for (std::size_t stride :
             { std::size_t(length) * 3 / 4, std::size_t(length) + 5 }) {
            for (bool shift : { false, true }) {
                for (bool decibels_out : { true, false }) {
                    failures += !check_one_kernel<float>(
                        "float32",
                        SHARED_FFT_KERNEL(grcuda_logpwrfft_spectra_float32_, length),
                        Case<float>(length, frames, stride, shift, decibels_out));
                    failures += !check_one_kernel<complex64>(
                        "complex64",
                        SHARED_FFT_KERNEL(grcuda_logpwrfft_spectra_complex64_, length),
                        Case<complex64>(length, frames, stride, shift, decibels_out));
                    cases += 2;
                }
            }
        }
    }
    struct FourStep {
        int first, second;
        Columns<float> columns_float32;
        Columns<complex64> columns_complex64;
        Rows rows;
    };
    const FourStep four_step[] = {
        { 64,
          128,
          grcuda_logpwrfft_columns_float32_64,
          grcuda_logpwrfft_columns_complex64_64,
          grcuda_logpwrfft_rows_128 },
        { 128,
          128,
          grcuda_logpwrfft_columns_float32_128,
          grcuda_logpwrfft_columns_complex64_128,
          grcuda_logpwrfft_rows_128 },
        { 128,
          256,
          grcuda_logpwrfft_columns_float32_128,
          grcuda_logpwrfft_columns_complex64_128,
          grcuda_logpwrfft_rows_256 },
    };
    for (const FourStep& form : four_step) {
        const int length = form.first * form.second;
        for (bool shift : { false, true }) {
            const bool decibels_out = !shift;
            const std::size_t stride = shift ? length + 3 : length;
            failures += !check_four_step<float>(
                "float32",
                form.columns_float32,
                form.rows,
                form.first,
                Case<float>(length, 2, stride, shift, decibels_out));
            failures += !check_four_step<complex64>(
                "complex64",
                form.columns_complex64,
                form.rows,
                form.first,
                Case<complex64>(length, 2, stride, shift, decibels_out));
            cases += 2;
        }
    }
    std::printf("%d of %d spectra cases passed\n", cases - failures, cases);
    return failures == 0 ? 0 : 1;
}
