// SPDX-License-Identifier: GPL-3.0-or-later

// A forward FFT of a power-of-two sequence (32 to 4096 values) held in a block's shared
// memory, for kernels that fuse an FFT with what comes before and after it (logpwrfft's
// spectra, overlap-save's segments). Stockham passes of radix 16 (the first of radix 2, 4, 8
// or 16) keep a pass's values in registers, SHARED_FFT_VALUES per thread, length / 16 threads
// per sequence, and exchange them through shared memory between passes. Twiddles come from a
// table the host computes in double precision (src/kernels/shared_fft.rs), one run per pass
// after the first, laid out so that a warp's lanes read consecutive entries. The inverse
// transform is the forward one of the conjugates, conjugated. The length is a template
// parameter, so a fused kernel is one `extern "C"` kernel per length; in exchange every
// index, shared-memory offset and twiddle address is a constant or a shift (logpwrfft's
// 1024-point spectra: 67 instructions per sample in the SASS, where ncu counted about 120 with
// the length as an argument).

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

// Shared memory index of value i of a sequence: one pad per 16 values keeps the strided
// stores of a pass off a single bank.
__device__ inline int shared_fft_index(int i) { return i + (i >> 4); }

// Complex values one sequence of `length` takes in shared memory: the pads, and one more so
// that the same value of sequences side by side falls in different banks.
__host__ __device__ constexpr int shared_fft_slice_values(int length) { return length + length / 16 + 1; }

// A pass addresses value `base + offset`, where `offset` is known at compile time and never
// carries into the next 16 values of `base` ((base mod 16) + (offset mod 16) < 16 for every
// access below), so that shared_fft_index(base + offset) = shared_fft_index(base) + offset +
// offset / 16: one index per group of values, and constant offsets the loads and stores
// encode.
struct SharedSlice {
    complex64* x;
    __device__ inline complex64& at(int base, int offset) const {
        return x[shared_fft_index(base) + offset + (offset >> 4)];
    }
};

// One Stockham pass of radix R over a sequence of N values with stride STRIDE: the thread's
// groups j = t + i * N / 16 (i < 16 / R) load v[r] = x[j + r N / R], twiddle them by
// exp(-2 pi i r k / (STRIDE R)) with k = j mod STRIDE, transform them, and store them at
// (j - k) R + k + r STRIDE. `load(base, offset)` and `store(base, offset, value)` take value
// base + offset (see SharedSlice). `exchange_in_place` waits for every thread's loads before
// any store overwrites them.
template <int R, int N, int STRIDE, class Load, class Store>
__device__ inline void stockham_pass(complex64 (&v)[SHARED_FFT_VALUES], int t, const complex64* twiddles,
                                     Load load, Store store, bool exchange_in_place) {
    constexpr int groups = SHARED_FFT_VALUES / R;
    constexpr int threads_per_sequence = N / SHARED_FFT_VALUES;
#pragma unroll
    for (int i = 0; i < groups; i++) {
        const int j = t + i * threads_per_sequence;
#pragma unroll
        for (int r = 0; r < R; r++) v[i * R + r] = load(j, r * (N / R));
    }
    if (exchange_in_place) __syncthreads();
#pragma unroll
    for (int i = 0; i < groups; i++) {
        const int j = t + i * threads_per_sequence;
        const int k = j & (STRIDE - 1);
        if (STRIDE > 1) {
#pragma unroll
            for (int r = 1; r < R; r++) v[i * R + r] = grcuda::multiply(v[i * R + r], twiddles[(r - 1) * STRIDE + k]);
        }
        RegisterDft<R>::run(&v[i * R]);
        const int base = (j - k) * R + k;
#pragma unroll
        for (int r = 0; r < R; r++) store(base, r * STRIDE, v[i * R + r]);
    }
}

// The radix of an N-point transform's first pass, 2, 4, 8 or 16, which leaves radix-16 passes.
__host__ __device__ constexpr int first_pass_radix(int n) {
    while (n > 16) n /= 16;
    return n;
}

// The radix-16 passes of an N-point transform from stride STRIDE on, reading the sequence's
// shared-memory slice; the last stores through `store` (after waiting for every load when
// `store_in_place`), the others back into the slice.
template <int N, int STRIDE, bool store_in_place, class Store>
__device__ inline void radix16_passes(complex64 (&v)[SHARED_FFT_VALUES], SharedSlice slice, int t,
                                      const complex64* twiddles, Store store) {
    auto load_shared = [&](int base, int offset) { return slice.at(base, offset); };
    if constexpr (STRIDE * 16 == N) {
        stockham_pass<16, N, STRIDE>(v, t, twiddles, load_shared, store, store_in_place);
    } else {
        stockham_pass<16, N, STRIDE>(
            v, t, twiddles, load_shared,
            [&](int base, int offset, complex64 value) { slice.at(base, offset) = value; }, true);
        __syncthreads();
        radix16_passes<N, STRIDE * 16, store_in_place>(v, slice, t, twiddles + 15 * STRIDE, store);
    }
}

// The forward FFT of a sequence of N values (a power of two from 32 to 4096) in the block's
// shared-memory slice `x`: `load(i)` gives value i, `store(k, X_k)` takes bin k, and thread t
// is one of the slice's N / 16. With `load_in_place` the loads read `x` itself (the first pass
// then waits for every load before it stores); with `store_in_place` the stores go back into
// `x` (the last pass then waits for every load first). Every thread of the block calls it: it
// waits at barriers, the last one after the stores. N is a template parameter so that every
// index and twiddle address folds into constants and shifts.
template <int N, bool load_in_place, bool store_in_place, class Load, class Store>
__device__ inline void shared_fft(complex64* x, int t, const complex64* twiddles, Load load, Store store) {
    static_assert(N >= 32 && N <= 4096 && (N & (N - 1)) == 0, "the shared-memory FFT takes 32 to 4096 values");
    const SharedSlice slice{x};
    complex64 v[SHARED_FFT_VALUES];
    stockham_pass<first_pass_radix(N), N, 1>(
        v, t, twiddles, [&](int base, int offset) { return load(base + offset); },
        [&](int base, int offset, complex64 value) { slice.at(base, offset) = value; }, load_in_place);
    __syncthreads();
    radix16_passes<N, first_pass_radix(N), store_in_place>(
        v, slice, t, twiddles, [&](int base, int offset, complex64 value) { store(base + offset, value); });
    // The next sequence's first stores must not overwrite values this pass still loads.
    __syncthreads();
}

}  // namespace
