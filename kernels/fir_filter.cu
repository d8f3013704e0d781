// SPDX-License-Identifier: GPL-3.0-or-later

// FIR filters, as GNU Radio's fir_filter_ccc/ccf/fff compute them: output j is the dot
// product of the reversed taps with the input from item j * decimation on, where the input
// starts with tap_count - 1 items of history. Direct form (one thread per output) for short
// filters; overlap-save through cuFFT for long ones: gather the overlapping segments, multiply
// their spectra by the filter's response, and after the inverse transform extract the valid
// outputs. Complex outputs may be rotated by a phase that advances per output (the frequency
// translation of freq_xlating_fir_filter): phase(j) = start + j * increment, in double
// precision so that it stays exact over any number of outputs.
//
// Multiply-adds are grcuda::multiply_add's fused multiply-adds, in a fixed tap order, so the
// CPU backend (Rust's mul_add, in the same order) rounds identically.

#include "grcuda_common.cuh"

namespace {

// The output rotation: the identity when increment and start are both zero (the host passes
// `rotate` = 0 then, so plain filters pay no trigonometry).
struct Rotation {
    double start;
    double increment;
    int rotate;
};

__device__ inline float rotated(float value, const Rotation&, count_type) { return value; }
__device__ inline complex64 rotated(complex64 value, const Rotation& rotation, count_type index) {
    if (!rotation.rotate) {
        return value;
    }
    const double two_pi = 6.283185307179586476925286766559;
    double angle = rotation.start + (double)index * rotation.increment;
    angle -= two_pi * rint(angle / two_pi);
    double sine, cosine;
    sincos(angle, &sine, &cosine);
    const float s = (float)sine, c = (float)cosine;
    return complex64{__fmaf_rn(value.real, c, -(value.imag * s)), __fmaf_rn(value.real, s, value.imag * c)};
}

// Outputs per thread of the direct form. A thread computes OUTPUTS_PER_THREAD consecutive
// outputs and keeps the input they share in registers: tap k = q * decimation + p of output
// j reads input (j + q) * decimation + p, so for each phase p the inputs of the thread's
// outputs slide by one register per q, and each tap costs one load for all of them.
#define OUTPUTS_PER_THREAD 8

// The sums of a thread's outputs first .. first + OUTPUTS_PER_THREAD - 1, with input item i
// (counted from the thread's base) from load(i). The sum for each output runs over the taps
// phase by phase (p = 0 .. decimation - 1, then q upwards): the same order for every output,
// whatever thread, kernel or call computes it.
template <typename In, typename Tap, typename Out, typename Load>
__device__ void direct_sums(const Load& load, const Tap* reversed_taps, count_type first,
                            count_type tap_count, count_type decimation, Out* sum) {
#pragma unroll
    for (int r = 0; r < OUTPUTS_PER_THREAD; ++r) {
        sum[r] = grcuda::zero<Out>();
    }
    if (decimation == 1) {
        // Taps in blocks of OUTPUTS_PER_THREAD, whose inputs the thread loads into registers
        // indexed at compile time: the same sums in the same order as the sliding window
        // below, without its register moves.
        for (count_type block = 0; block < tap_count; block += OUTPUTS_PER_THREAD) {
            In window[2 * OUTPUTS_PER_THREAD - 1];
#pragma unroll
            for (int j = 0; j < 2 * OUTPUTS_PER_THREAD - 1; ++j) {
                window[j] = load(first + block + j);
            }
#pragma unroll
            for (int t = 0; t < OUTPUTS_PER_THREAD; ++t) {
                if (block + t < tap_count) {
                    const Tap tap = reversed_taps[block + t];
#pragma unroll
                    for (int r = 0; r < OUTPUTS_PER_THREAD; ++r) {
                        sum[r] = grcuda::multiply_add(window[r + t], tap, sum[r]);
                    }
                }
            }
        }
        return;
    }
    const count_type phases = decimation < tap_count ? decimation : tap_count;
    for (count_type p = 0; p < phases; ++p) {
        In window[OUTPUTS_PER_THREAD];
#pragma unroll
        for (int r = 0; r < OUTPUTS_PER_THREAD; ++r) {
            window[r] = load((first + r) * decimation + p);
        }
        for (count_type k = p; k < tap_count; k += decimation) {
            const Tap tap = reversed_taps[k];
#pragma unroll
            for (int r = 0; r < OUTPUTS_PER_THREAD; ++r) {
                sum[r] = grcuda::multiply_add(window[r], tap, sum[r]);
            }
            // Slide: output r's next input is output r + 1's current one.
#pragma unroll
            for (int r = 0; r < OUTPUTS_PER_THREAD - 1; ++r) {
                window[r] = window[r + 1];
            }
            const count_type next = k + decimation;
            if (next < tap_count) {
                window[OUTPUTS_PER_THREAD - 1] = load((first + OUTPUTS_PER_THREAD - 1) * decimation + next);
            }
        }
    }
}

template <typename Out>
__device__ void store_outputs(Out* output, const Out* sum, count_type first, count_type outputs,
                              const Rotation& rotation) {
#pragma unroll
    for (int r = 0; r < OUTPUTS_PER_THREAD; ++r) {
        if (first + r < outputs) {
            output[first + r] = rotated(sum[r], rotation, first + r);
        }
    }
}

// The direct form from device memory: loads past the input (outputs beyond the last) give
// zeros; whatever the slide moves into the slot of an output that exists is that output's
// input.
template <typename In, typename Tap, typename Out>
__device__ void fir_filter(const In* input, const Tap* reversed_taps, Out* output, count_type outputs,
                           count_type tap_count, count_type decimation, Rotation rotation) {
    const count_type input_items = (outputs - 1) * decimation + tap_count;
    const auto load = [&](count_type i) { return i < input_items ? input[i] : In(); };
    const count_type groups = (outputs + OUTPUTS_PER_THREAD - 1) / OUTPUTS_PER_THREAD;
    GRID_STRIDE_LOOP(group, groups) {
        const count_type first = group * OUTPUTS_PER_THREAD;
        Out sum[OUTPUTS_PER_THREAD];
        direct_sums<In>(load, reversed_taps, first, tap_count, decimation, sum);
        store_outputs(output, sum, first, outputs, rotation);
    }
}

// The direct form from shared memory: each block stages the input of TILE_THREADS *
// OUTPUTS_PER_THREAD consecutive outputs with coalesced loads, then its threads slide
// through it. Item i of a tile sits at i + i / 8: the threads' reads, 8 * decimation items
// apart, then fall in different banks (for odd decimations all of them). The host launches
// it with TILE_THREADS threads per block and shared memory for tile_items(decimation,
// tap_count) padded items, and only when that fits; otherwise fir_filter above.
#define TILE_THREADS 128

__device__ inline count_type padded(count_type i) { return i + (i >> 3); }

template <typename In, typename Tap, typename Out>
__device__ void fir_filter_tiled(const In* input, const Tap* reversed_taps, Out* output,
                                 count_type outputs, count_type tap_count, count_type decimation,
                                 Rotation rotation) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    In* tile = reinterpret_cast<In*>(shared_bytes);
    const count_type tile_outputs = TILE_THREADS * OUTPUTS_PER_THREAD;
    const count_type input_items = (outputs - 1) * decimation + tap_count;
    for (count_type tile_first = (count_type)blockIdx.x * tile_outputs; tile_first < outputs;
         tile_first += (count_type)gridDim.x * tile_outputs) {
        const count_type base = tile_first * decimation;
        const count_type last_output = min(tile_first + tile_outputs, outputs) - 1;
        const count_type span = (last_output - tile_first) * decimation + tap_count;
        for (count_type i = threadIdx.x; i < span; i += blockDim.x) {
            tile[padded(i)] = base + i < input_items ? input[base + i] : In();
        }
        __syncthreads();
        const auto load = [&](count_type i) { return i < span ? tile[padded(i)] : In(); };
        const count_type local_first = threadIdx.x * OUTPUTS_PER_THREAD;
        if (tile_first + local_first < outputs) {
            Out sum[OUTPUTS_PER_THREAD];
            direct_sums<In>(load, reversed_taps, local_first, tap_count, decimation, sum);
            store_outputs(output, sum, tile_first + local_first, outputs, rotation);
        }
        __syncthreads();
    }
}

__device__ inline complex64 as_complex(float value) { return complex64{value, 0.0f}; }
__device__ inline complex64 as_complex(complex64 value) { return value; }

// segments[s * fft_size + t] = input[s * step + t] for t < length (the items a segment's
// outputs read), zero beyond it and past the `available` input items. The padding never
// depends on what follows in the stream, so a complete segment transforms the same values
// whatever the call it is computed in.
template <typename In>
__device__ void overlap_save_gather(const In* input, count_type available, complex64* segments,
                                    count_type fft_size, count_type step, count_type length,
                                    count_type count) {
    GRID_STRIDE_LOOP(i, count) {
        const count_type segment = i / fft_size, t = i - segment * fft_size;
        const count_type position = segment * step + t;
        const bool read = t < length && position < available;
        segments[i] = read ? as_complex(input[position]) : complex64{0.0f, 0.0f};
    }
}

__device__ inline float from_complex(complex64 value, float) { return value.real; }
__device__ inline complex64 from_complex(complex64 value, complex64) { return value; }

// output[j] = the full-rate output at position p = first + j * decimation (counted from the
// first segment's start): item p mod step of segment p / step's valid part, which starts at
// `offset` (tap_count - 1).
template <typename Out>
__device__ void overlap_save_extract(const complex64* segments, Out* output, count_type outputs,
                                     count_type fft_size, count_type step, count_type offset,
                                     count_type first, count_type decimation, Rotation rotation) {
    GRID_STRIDE_LOOP(j, outputs) {
        const count_type position = first + j * decimation;
        const count_type segment = position / step;
        const count_type valid = position - segment * step;
        const Out value = from_complex(segments[segment * fft_size + offset + valid], Out());
        output[j] = rotated(value, rotation, j);
    }
}

}  // namespace

#define FIR_FILTER_KERNEL(name, In, Tap, Out)                                                     \
    extern "C" __global__ void grcuda_fir_filter_##name(const In* input, const Tap* reversed_taps, \
                                                         Out* output, count_type outputs,          \
                                                         count_type tap_count,                     \
                                                         count_type decimation, Rotation rotation) { \
        fir_filter(input, reversed_taps, output, outputs, tap_count, decimation, rotation);       \
    }

FIR_FILTER_KERNEL(ccc, complex64, complex64, complex64)
FIR_FILTER_KERNEL(ccf, complex64, float, complex64)
FIR_FILTER_KERNEL(fff, float, float, float)

#define FIR_FILTER_TILED_KERNEL(name, In, Tap, Out)                                              \
    extern "C" __global__ void grcuda_fir_filter_tiled_##name(                                   \
        const In* input, const Tap* reversed_taps, Out* output, count_type outputs,              \
        count_type tap_count, count_type decimation, Rotation rotation) {                         \
        fir_filter_tiled(input, reversed_taps, output, outputs, tap_count, decimation, rotation); \
    }

FIR_FILTER_TILED_KERNEL(ccc, complex64, complex64, complex64)
FIR_FILTER_TILED_KERNEL(ccf, complex64, float, complex64)
FIR_FILTER_TILED_KERNEL(fff, float, float, float)

#define OVERLAP_SAVE_KERNELS(name, T)                                                              \
    extern "C" __global__ void grcuda_overlap_save_gather_##name(                                  \
        const T* input, count_type available, complex64* segments, count_type fft_size,          \
        count_type step, count_type length, count_type count) {                                    \
        overlap_save_gather(input, available, segments, fft_size, step, length, count);            \
    }                                                                                              \
    extern "C" __global__ void grcuda_overlap_save_extract_##name(                                 \
        const complex64* segments, T* output, count_type outputs, count_type fft_size,            \
        count_type step, count_type offset, count_type first, count_type decimation,              \
        Rotation rotation) {                                                                       \
        overlap_save_extract(segments, output, outputs, fft_size, step, offset, first, decimation, \
                             rotation);                                                            \
    }

OVERLAP_SAVE_KERNELS(float32, float)
OVERLAP_SAVE_KERNELS(complex64, complex64)

// spectra[i] *= response[i mod fft_size]: every segment's spectrum times the filter's.
extern "C" __global__ void grcuda_overlap_save_multiply(complex64* spectra, const complex64* response,
                                                       count_type fft_size, count_type count) {
    GRID_STRIDE_LOOP(i, count) { spectra[i] = grcuda::multiply(spectra[i], response[i % fft_size]); }
}
