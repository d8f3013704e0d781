// SPDX-License-Identifier: GPL-3.0-or-later

// A forward FFT of a power-of-two sequence (32 to 4096 values) held in a block's shared
// memory, for kernels that fuse an FFT with what comes before and after it (logpwrfft's
// spectra, overlap-save's segments). Stockham passes of radix 16 (the first of radix 2, 4, 8
// or 16) keep a pass's values in registers, SHARED_FFT_VALUES per thread, length / 16 threads
// per sequence, and exchange them through shared memory between passes. Twiddles come from a
// table the host computes in double precision (src/kernels/shared_fft.rs), one run per pass
// after the first, laid out so that a warp's lanes read consecutive entries. The inverse
// transform is the forward one of the conjugates, conjugated.

#pragma once

#include "grcuda_common.cuh"

// Values each thread holds through a pass.
#define SHARED_FFT_VALUES 16

namespace {

// exp(-2 pi i m / 16) for m < 8, the roots a radix-16 pass needs.
__device__ inline complex64 root16(int m) {
    const float c[8] = {1.0f, 0.92387953251128674f, 0.70710678118654752f, 0.38268343236508977f,
                        0.0f, -0.38268343236508977f, -0.70710678118654752f, -0.92387953251128674f};
    const float s[8] = {0.0f, 0.38268343236508977f, 0.70710678118654752f, 0.92387953251128674f,
                        1.0f, 0.92387953251128674f, 0.70710678118654752f, 0.38268343236508977f};
    return complex64{c[m], -s[m]};
}

// value * exp(-2 pi i m / 16) for a root known at compile time: for m = 0 the value itself,
// for m = 4 (-i) its parts swapped and one negated, which a general complex product would
// compute with four multiplications (x * 0 is not 0 in IEEE arithmetic, so the compiler
// keeps them).
__device__ inline complex64 times_root16(complex64 value, int m) {
    if (m == 0) return value;
    if (m == 4) return complex64{value.imag, -value.real};
    return grcuda::multiply(value, root16(m));
}

// An R-point forward DFT of registers, natural order in and out (radix-2 decimation in time,
// unrolled at compile time).
template <int R>
struct RegisterDft {
    static __device__ inline void run(complex64* v) {
        complex64 even[R / 2], odd[R / 2];
#pragma unroll
        for (int i = 0; i < R / 2; i++) {
            even[i] = v[2 * i];
            odd[i] = v[2 * i + 1];
        }
        RegisterDft<R / 2>::run(even);
        RegisterDft<R / 2>::run(odd);
#pragma unroll
        for (int k = 0; k < R / 2; k++) {
            const complex64 t = times_root16(odd[k], k * 16 / R);
            v[k] = grcuda::add(even[k], t);
            v[k + R / 2] = grcuda::subtract(even[k], t);
        }
    }
};
template <>
struct RegisterDft<1> {
    static __device__ inline void run(complex64*) {}
};

// One Stockham pass of radix R over a frame of n values: the thread's ITERS groups j = t + i *
// threads_per_frame load v[r] = x[j + r n / R], twiddle them by exp(-2 pi i r k / (stride R))
// with k = j mod stride, transform them, and store them at (j - k) R + k + r stride.
// `exchange_in_place` waits for every thread's loads before any store overwrites them.
template <int R, int ITERS, class Load, class Store>
__device__ inline void stockham_pass(complex64 (&v)[SHARED_FFT_VALUES], int t, int threads_per_frame, int n,
                                     int stride, const complex64* twiddles, Load load, Store store,
                                     bool exchange_in_place) {
#pragma unroll
    for (int i = 0; i < ITERS; i++) {
        const int j = t + i * threads_per_frame;
#pragma unroll
        for (int r = 0; r < R; r++) v[i * R + r] = load(j + r * (n / R));
    }
    if (exchange_in_place) __syncthreads();
#pragma unroll
    for (int i = 0; i < ITERS; i++) {
        const int j = t + i * threads_per_frame;
        const int k = j & (stride - 1);
        if (stride > 1) {
#pragma unroll
            for (int r = 1; r < R; r++) v[i * R + r] = grcuda::multiply(v[i * R + r], twiddles[(r - 1) * stride + k]);
        }
        RegisterDft<R>::run(&v[i * R]);
        const int base = (j - k) * R + k;
#pragma unroll
        for (int r = 0; r < R; r++) store(base + r * stride, v[i * R + r]);
    }
}

// Shared memory index of value i of a sequence: one pad per 16 values keeps the strided
// stores of a pass off a single bank.
__device__ inline int shared_fft_index(int i) { return i + (i >> 4); }

// Complex values one sequence of `length` takes in shared memory: the pads, and one more so
// that the same value of sequences side by side falls in different banks.
__device__ inline int shared_fft_slice_values(int length) { return length + length / 16 + 1; }

// The forward FFT of a sequence of `length` values in the block's shared-memory slice `x`:
// `load(i)` gives value i, `store(k, X_k)` takes bin k, and thread t is one of the slice's
// length / 16. With `load_in_place` the loads read `x` itself (the first pass then waits for
// every load before it stores); with `store_in_place` the stores go back into `x` (the last
// pass then waits for every load first). Every thread of the block calls it: it waits at
// barriers, the last one after the stores.
template <bool load_in_place, bool store_in_place, class Load, class Store>
__device__ inline void shared_fft(complex64* x, int t, int length, int log2_length,
                                  const complex64* twiddles, Load load, Store store) {
    const int threads = length / 16;
    auto load_shared = [&](int i) { return x[shared_fft_index(i)]; };
    auto store_shared = [&](int i, complex64 value) { x[shared_fft_index(i)] = value; };
    complex64 v[SHARED_FFT_VALUES];
    int radix16_passes = log2_length / 4;
    int stride;
    switch (log2_length % 4) {
    case 1: stockham_pass<2, 8>(v, t, threads, length, 1, twiddles, load, store_shared, load_in_place); stride = 2; break;
    case 2: stockham_pass<4, 4>(v, t, threads, length, 1, twiddles, load, store_shared, load_in_place); stride = 4; break;
    case 3: stockham_pass<8, 2>(v, t, threads, length, 1, twiddles, load, store_shared, load_in_place); stride = 8; break;
    default:
        stockham_pass<16, 1>(v, t, threads, length, 1, twiddles, load, store_shared, load_in_place);
        stride = 16;
        radix16_passes--;
        break;
    }
    __syncthreads();
    for (; radix16_passes > 1; radix16_passes--) {
        stockham_pass<16, 1>(v, t, threads, length, stride, twiddles, load_shared, store_shared, true);
        twiddles += 15 * stride;
        stride *= 16;
        __syncthreads();
    }
    stockham_pass<16, 1>(v, t, threads, length, stride, twiddles, load_shared, store, store_in_place);
    // The next sequence's first stores must not overwrite values this pass still loads.
    __syncthreads();
}

}  // namespace
