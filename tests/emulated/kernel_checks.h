// SPDX-License-Identifier: GPL-3.0-or-later

// What the emulated kernel tests share: random samples, exact comparisons and widening to
// double precision of the kernels' item types, and the shared-memory FFT's twiddle table.
// Include after the kernel source (it uses complex64).

#pragma once

#include <cmath>
#include <complex>
#include <cstring>
#include <random>
#include <vector>

namespace checks {

constexpr double pi = 3.14159265358979323846;

// Uniform in [-1, 1) (each part, for complex64).
template <typename T>
T random_item(std::mt19937& generator);
template <>
inline float random_item<float>(std::mt19937& generator)
{
    return std::uniform_real_distribution<float>(-1.0f, 1.0f)(generator);
}
template <>
inline complex64 random_item<complex64>(std::mt19937& generator)
{
    return complex64{ random_item<float>(generator), random_item<float>(generator) };
}

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
inline bool same_bits(complex64 a, complex64 b)
{
    return same_bits(a.real, b.real) && same_bits(a.imag, b.imag);
}

inline std::complex<double> widened(float a) { return a; }
inline std::complex<double> widened(complex64 a) { return { a.real, a.imag }; }

// The kernel of a family instantiated per length of the shared-memory FFT (as `prefix`
// followed by the length), for `length`: up to 1024 (the one-kernel channelizer's
// counts), or up to 4096.
#define SHARED_FFT_KERNEL_UP_TO_1024(prefix, length) \
    ((length) == 32    ? prefix##32                  \
     : (length) == 64  ? prefix##64                  \
     : (length) == 128 ? prefix##128                 \
     : (length) == 256 ? prefix##256                 \
     : (length) == 512 ? prefix##512                 \
                       : prefix##1024)
#define SHARED_FFT_KERNEL(prefix, length) \
    ((length) == 2048   ? prefix##2048    \
     : (length) == 4096 ? prefix##4096    \
                        : SHARED_FFT_KERNEL_UP_TO_1024(prefix, length))

// shared_fft::twiddles() of src/kernels/shared_fft.rs: for each pass after the first
// (stride s), entries (r - 1) * s + k = exp(-2 pi i r k / (16 s)).
inline std::vector<complex64> shared_fft_twiddles(int length)
{
    const int remainder = __builtin_ctz(length) % 4;
    std::vector<complex64> table;
    for (int stride = remainder == 0 ? 16 : 1 << remainder; stride < length;
         stride *= 16) {
        for (int r = 1; r < 16; ++r) {
            for (int k = 0; k < stride; ++k) {
                const double angle = -2.0 * pi * double(r * k) / double(16 * stride);
                table.push_back(
                    complex64{ float(std::cos(angle)), float(std::sin(angle)) });
            }
        }
    }
    return table;
}

} // namespace checks
