// SPDX-License-Identifier: GPL-3.0-or-later

// The polyphase channelizer's (pfb_channelizer_ccf) kernels: its filter bank, alone (before an
// FFT plan) or with the inverse FFT in one kernel for power-of-two channel counts up to 1024,
// and the scatter and gather of the channels into the outputs. (The rational resampler runs
// on the direct-form FIR kernels, kernels/fir_filter.cu.)
//
// Multiply-accumulate steps are grcuda::multiply_add's fused multiply-adds in a fixed order
// (taps in increasing index), which the CPU backend repeats with mul_add, so both backends
// round alike.
//
// Channelizer filter bank, with M channels, T taps per branch and D input items per output
// step (M / oversample_rate): step s and branch f of a call are
//   v = sum over k < T of taps[f + k * M] * input[T * M + s * D - 1 - f - k * M],
// written to spectra[s * M + ((f - rotation_s) mod M)], rotation_s = (first_rotation + s * D)
// mod M: the commutator's rotation, which GNU Radio applies with its index table, so that an
// inverse FFT of each row gives the channels directly.

#include "grcuda_common.cuh"
#include "shared_fft.cuh"

// Read-only loads through the texture path: neighbouring threads read overlapping input
// windows and the same few taps, which this cache serves without DRAM traffic.
template <typename T>
__device__ inline T load(const T* address) {
    return __ldg(address);
}
template <>
__device__ inline complex64 load<complex64>(const complex64* address) {
    const float2 value = __ldg(reinterpret_cast<const float2*>(address));
    return complex64{value.x, value.y};
}

namespace {

// One block of S taps (tap `block` + t at block_taps[t * channels]) of S steps of a branch
// whose rows advance by one per step: window item i is row `top_row` + i - (S - 1) (at
// top[(i - (S - 1)) * channels]), which step r reads with tap t at i = r - t + S - 1. The
// window's items sit in registers indexed at compile time, each loaded when tap t first needs
// it (item S - 1 - t), so that the rows a block no longer needs are not live. Step r's total
// is totals[r * Q + c]: the block may serve one of Q interleaved classes of steps (below).
// `guarded`: the block may have fewer than S taps (`taps_left`) or reach past the call's last
// row (rows above `rows_ahead` relative to `top`), which read as zero; otherwise every offset
// is a constant (with `channels` one) and no comparison is made.
template <int S, int Q, bool guarded, int R>
__device__ inline void window_block(const complex64* top, const float* block_taps, count_type channels,
                                    long long taps_left, long long rows_ahead, int c, complex64 (&totals)[R]) {
    const auto row = [&](int i) {
        const long long offset = i - (S - 1);
        if (guarded && offset > rows_ahead) return grcuda::zero<complex64>();
        return load(top + offset * (long long)channels);
    };
    complex64 window[2 * S - 1];
#pragma unroll
    for (int i = S - 1; i < 2 * S - 1; ++i) {
        window[i] = row(i);
    }
#pragma unroll
    for (int t = 0; t < S; ++t) {
        if (!guarded || t < taps_left) {
            if (t > 0) {
                window[S - 1 - t] = row(S - 1 - t);
            }
            const float tap = load(block_taps + t * channels);
#pragma unroll
            for (int r = 0; r < S; ++r) {
                totals[r * Q + c] = grcuda::multiply_add(window[r - t + S - 1], tap, totals[r * Q + c]);
            }
        }
    }
}

// The R steps from `first_step` on when the step advance D is M / Q: step first_step + Q * j
// + c reads with tap k item (T + first_step / Q + j - k) * M - 1 - f + c * D, so each class c
// of steps reads rows that advance by one per step, from the column shifted by c * D, and its
// R / Q steps share their rows (window_block). Q = 1 is the channelizer without oversampling.
template <int R, int Q>
__device__ inline void filter_windows(const complex64* column, const float* branch_taps, count_type channels,
                                      count_type taps_per_branch, count_type step_advance, count_type steps,
                                      count_type first_step, complex64 (&totals)[R]) {
    constexpr int S = R / Q;
    // Whether all R steps are the call's: only the call's last run reads past its rows.
    const bool full_run = first_step + R <= steps;
#pragma unroll
    for (int c = 0; c < Q; ++c) {
        const complex64* class_column = column + c * step_advance;
        // The class's last row that is the call's: that of its last step before `steps`, or
        // none past the rows of the call's first step when the class has no step.
        const long long last_row = (long long)taps_per_branch +
                                   (steps > (count_type)c ? (long long)((steps - 1 - c) / Q) : -1LL);
        for (count_type block = 0; block < taps_per_branch; block += S) {
            const count_type top_row = taps_per_branch + first_step / Q - block;
            const complex64* top = class_column + top_row * channels;
            const float* block_taps = branch_taps + block * channels;
            const long long taps_left = (long long)(taps_per_branch - block);
            if (full_run && taps_left >= S) {
                window_block<S, Q, false>(top, block_taps, channels, S, 0, c, totals);
            } else {
                window_block<S, Q, true>(top, block_taps, channels, taps_left, last_row - (long long)top_row, c,
                                         totals);
            }
        }
    }
}

// The sums of branch `branch` for the R steps from `first_step` on into `totals` (steps from
// `steps` on are not the call's, and their totals are to be ignored), taps loaded once for
// all of them, when the step advance is M / Q: Q = 1, 2 or 4 read through register windows
// (filter_windows), Q = 0 stands for any other advance. The multiply-adds run in a fixed
// order, taps in increasing k, whatever the path.
template <int R, int Q>
__device__ inline void filter_branch_with(const complex64* __restrict__ input, const float* __restrict__ taps,
                                          count_type channels, count_type taps_per_branch,
                                          count_type step_advance, count_type steps, count_type branch,
                                          count_type first_step, complex64 (&totals)[R]) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
        totals[r] = grcuda::zero<complex64>();
    }
    // Item j * M - 1 - f of the input is row j of branch f; tap k of the branch is
    // branch_taps[k * M].
    const complex64* column = input - 1 - branch;
    const float* branch_taps = taps + branch;
    if constexpr (Q > 0) {
        filter_windows<R, Q>(column, branch_taps, channels, taps_per_branch, step_advance, steps, first_step, totals);
    } else {
        // Step s reads with tap k item (T + s * D / M - k) * M - 1 - f, D items after step s - 1.
        const bool full_run = first_step + R <= steps;
        const int steps_here = full_run ? R : int(steps - first_step);
        const complex64* newest = column + taps_per_branch * channels + first_step * step_advance;
        for (count_type k = 0; k < taps_per_branch; ++k) {
            const float tap = load(branch_taps + k * channels);
            const complex64* items = newest - k * channels;
#pragma unroll
            for (int r = 0; r < R; ++r) {
                if (r < steps_here) {
                    totals[r] = grcuda::multiply_add(load(items + r * step_advance), tap, totals[r]);
                }
            }
        }
    }
}

// filter_branch_with for the call's step advance, chosen per call: register windows without
// oversampling and at 2, each step's own items at any other (at 4, with the 8 steps of a run,
// a class of steps holds only 2 and its window saves nothing: 7% slower on the H100 at 256
// channels).
template <int R>
__device__ inline void filter_branch(const complex64* __restrict__ input, const float* __restrict__ taps,
                                     count_type channels, count_type taps_per_branch,
                                     count_type step_advance, count_type steps, count_type branch,
                                     count_type first_step, complex64 (&totals)[R]) {
    static_assert(R % 2 == 0, "the register windows of oversampling by 2 take R / 2 steps");
    if (step_advance == channels) {
        filter_branch_with<R, 1>(input, taps, channels, taps_per_branch, step_advance, steps, branch, first_step,
                                 totals);
    } else if (2 * step_advance == channels) {
        filter_branch_with<R, 2>(input, taps, channels, taps_per_branch, step_advance, steps, branch, first_step,
                                 totals);
    } else {
        filter_branch_with<R, 0>(input, taps, channels, taps_per_branch, step_advance, steps, branch, first_step,
                                 totals);
    }
}

// Steps each thread of the filter bank filters: the branch's taps are loaded once for all.
#define CHANNELIZER_STEPS_PER_THREAD 16

// Work item w is branch w mod M of steps (w / M) * CHANNELIZER_STEPS_PER_THREAD onwards, so
// that a warp reads consecutive taps and input items and writes consecutive spectrum items.
// One kernel per path of filter_branch_with (Q), so that each gets the registers it needs.
template <int Q>
__device__ void channelizer_filter(const complex64* __restrict__ input, const float* __restrict__ taps,
                                   complex64* __restrict__ spectra, count_type channels, count_type taps_per_branch,
                                   count_type step_advance, count_type steps, count_type first_rotation) {
    constexpr int R = CHANNELIZER_STEPS_PER_THREAD;
    const count_type groups = (steps + R - 1) / R;
    GRID_STRIDE_LOOP(w, groups * channels) {
        const count_type branch = w % channels;
        const count_type first_step = (w / channels) * R;
        complex64 totals[R];
        filter_branch_with<R, Q>(input, taps, channels, taps_per_branch, step_advance, steps, branch, first_step,
                                 totals);
#pragma unroll
        for (int r = 0; r < R; ++r) {
            const count_type step = first_step + r;
            if (step < steps) {
                const count_type rotation = (first_rotation + step * step_advance) % channels;
                const count_type slot = (branch + channels - rotation) % channels;
                spectra[step * channels + slot] = totals[r];
            }
        }
    }
}

}  // namespace

// The filter bank for step advances M (grcuda_pfb_channelizer_filter_oversample1), M / 2, M /
// 4 and any other (_oversample_any).
#define CHANNELIZER_FILTER_KERNEL(suffix, Q)                                                         \
    extern "C" __global__ void grcuda_pfb_channelizer_filter_oversample##suffix(                    \
        const complex64* __restrict__ input, const float* __restrict__ taps,                        \
        complex64* __restrict__ spectra, count_type channels, count_type taps_per_branch,           \
        count_type step_advance, count_type steps, count_type first_rotation) {                     \
        channelizer_filter<Q>(input, taps, spectra, channels, taps_per_branch, step_advance, steps, \
                              first_rotation);                                                      \
    }

CHANNELIZER_FILTER_KERNEL(1, 1)
CHANNELIZER_FILTER_KERNEL(2, 2)
CHANNELIZER_FILTER_KERNEL(4, 4)
CHANNELIZER_FILTER_KERNEL(_any, 0)

// The filter bank and the inverse FFT in one kernel, for M = 32 to 1024 channels (a power of
// two; polyphase.rs says why no more): a block takes STEPS consecutive steps (a group),
// filters their rows into shared memory (conjugated, rotated into their slots), transforms
// each row there with the shared-memory FFT (the inverse as the forward transform of the
// conjugates) and writes the channels, conjugated back, to spectra[s * M + k]: a sample is
// read from device memory once per group that uses it and a channel written once, against
// the filter bank's spectra going through device memory to cuFFT and back. The sums are the
// filter bank's. A block reads the whole filter bank (M * T taps) per group, so a group holds
// at least 8 steps (the register window of filter_branch) where shared memory allows: 4096 / M
// steps up to 512 channels (32 KiB of rows), 8 at 1024 channels (68 KiB, beyond the 48 KiB a
// block gets without asking; `_four_steps` is the kernel for devices that cannot give it).
#define CHANNELIZER_SPECTRA_THREADS 256

namespace {

__device__ inline complex64 conjugate(complex64 value) { return complex64{value.real, -value.imag}; }

// Group `group` of the call's steps, STEPS of them.
template <int M, int STEPS>
__device__ __noinline__ void channelizer_spectra_group(count_type group, const complex64* __restrict__ input,
                                                       const float* __restrict__ taps,
                                                       const complex64* twiddles, complex64* spectra,
                                                       count_type taps_per_branch,
                                                       count_type step_advance, count_type steps,
                                                       count_type first_rotation) {
    extern __shared__ complex64 rows[];
    // Steps a thread filters per branch (the register window's length): 8, or the group's.
    constexpr int run = STEPS < 8 ? STEPS : 8;
    constexpr int runs_per_thread = M * STEPS / run / CHANNELIZER_SPECTRA_THREADS;
    static_assert(runs_per_thread * run * CHANNELIZER_SPECTRA_THREADS == M * STEPS, "whole runs per thread");
    const count_type first_step = group * STEPS;
    // Work item w: branch w mod M of the run (w / M) * run onwards; a warp reads
    // consecutive taps and input items and writes consecutive slots.
#pragma unroll
    for (int i = 0; i < runs_per_thread; ++i) {
        const int w = threadIdx.x + i * CHANNELIZER_SPECTRA_THREADS;
        const int branch = w % M;
        const int first_row = w / M * run;
        complex64 totals[run];
        filter_branch<run>(input, taps, M, taps_per_branch, step_advance, steps, branch,
                           first_step + first_row, totals);
#pragma unroll
        for (int r = 0; r < run; ++r) {
            const count_type step = first_step + first_row + r;
            const int rotation = int((first_rotation + step * step_advance) & (M - 1));
            rows[(first_row + r) * shared_fft_slice_values(M) + shared_fft_index((branch - rotation) & (M - 1))] =
                conjugate(totals[r]);
        }
    }
    __syncthreads();
    // M / 16 threads per row: the block's threads transform rows_per_round rows at once, in
    // as many rounds as the group needs.
    constexpr int threads_per_row = M / 16;
    constexpr int rows_per_round = CHANNELIZER_SPECTRA_THREADS / threads_per_row;
    static_assert(STEPS % rows_per_round == 0, "whole rounds of rows");
    const int t = threadIdx.x % threads_per_row;
#pragma unroll
    for (int round = 0; round < STEPS / rows_per_round; ++round) {
        const int local = round * rows_per_round + threadIdx.x / threads_per_row;
        const count_type step = first_step + local;
        complex64* x = rows + local * shared_fft_slice_values(M);
        shared_fft<M, true, false>(
            x, t, twiddles, [&](int i) { return x[shared_fft_index(i)]; },
            [&](int k, complex64 value) {
                if (step < steps) spectra[step * M + k] = conjugate(value);
            });
    }
}

}  // namespace

#define CHANNELIZER_SPECTRA_KERNEL(name, channels, steps_per_group)                                \
    extern "C" __global__ void __launch_bounds__(CHANNELIZER_SPECTRA_THREADS, 3)                  \
        grcuda_pfb_channelizer_spectra_##name(                                                     \
            const complex64* __restrict__ input, const float* __restrict__ taps,                   \
            const complex64* twiddles, complex64* spectra, count_type taps_per_branch,             \
            count_type step_advance, count_type steps, count_type first_rotation) {                \
        const count_type groups = (steps + steps_per_group - 1) / steps_per_group;                 \
        for (count_type group = blockIdx.x; group < groups; group += gridDim.x) {                  \
            channelizer_spectra_group<channels, steps_per_group>(                                  \
                group, input, taps, twiddles, spectra, taps_per_branch, step_advance, steps,       \
                first_rotation);                                                                   \
        }                                                                                          \
    }

CHANNELIZER_SPECTRA_KERNEL(32, 32, 128)
CHANNELIZER_SPECTRA_KERNEL(64, 64, 64)
CHANNELIZER_SPECTRA_KERNEL(128, 128, 32)
CHANNELIZER_SPECTRA_KERNEL(256, 256, 16)
CHANNELIZER_SPECTRA_KERNEL(512, 512, 8)
CHANNELIZER_SPECTRA_KERNEL(1024, 1024, 8)
CHANNELIZER_SPECTRA_KERNEL(1024_four_steps, 1024, 4)

// Channel outputs, one array per output port: output o, item s = spectra[s * M +
// channel_map[o]]. Output o lives at output_base + output_offsets[o] (bytes, modulo 2^64),
// so that a block whose output rings advance together passes one address per call.
//
// A tile of 32 steps by 32 outputs goes through shared memory: the reads along a spectrum
// row and the writes along an output are both consecutive.
#define SCATTER_TILE 32

extern "C" __global__ void grcuda_pfb_channelizer_scatter(
    const complex64* __restrict__ spectra, const int* __restrict__ channel_map,
    const count_type* __restrict__ output_offsets, count_type output_base, count_type outputs,
    count_type channels, count_type steps) {
    __shared__ complex64 tile[SCATTER_TILE][SCATTER_TILE + 1];
    const count_type step_tiles = (steps + SCATTER_TILE - 1) / SCATTER_TILE;
    const count_type output_tiles = (outputs + SCATTER_TILE - 1) / SCATTER_TILE;
    const unsigned int lane = threadIdx.x % SCATTER_TILE;
    const unsigned int row = threadIdx.x / SCATTER_TILE;
    const unsigned int rows = blockDim.x / SCATTER_TILE;
    for (count_type t = blockIdx.x; t < step_tiles * output_tiles; t += gridDim.x) {
        const count_type first_step = (t % step_tiles) * SCATTER_TILE;
        const count_type first_port = (t / step_tiles) * SCATTER_TILE;
        // Reads: lane = output within the tile, row = step.
        for (unsigned int r = row; r < SCATTER_TILE; r += rows) {
            const count_type step = first_step + r;
            const count_type port = first_port + lane;
            if (step < steps && port < outputs) {
                tile[r][lane] = spectra[step * channels + channel_map[port]];
            }
        }
        __syncthreads();
        // Writes: lane = step, row = output within the tile.
        for (unsigned int r = row; r < SCATTER_TILE; r += rows) {
            const count_type port = first_port + r;
            const count_type step = first_step + lane;
            if (step < steps && port < outputs) {
                complex64* output = reinterpret_cast<complex64*>(output_base + output_offsets[port]);
                output[step] = tile[lane][r];
            }
        }
        __syncthreads();
    }
}

// The vector-output channelizer's output, with a channel map other than the identity: item s
// is the vector of the step's channels in map order, output[s * M + o] = spectra[s * M +
// channel_map[o]]. Writes are consecutive; the reads stay within one spectrum row.
extern "C" __global__ void grcuda_pfb_channelizer_gather(const complex64* __restrict__ spectra,
                                                         const int* __restrict__ channel_map,
                                                         complex64* __restrict__ output,
                                                         count_type channels, count_type steps) {
    GRID_STRIDE_LOOP(i, steps * channels) {
        const count_type entry = i % channels;
        output[i] = spectra[i - entry + channel_map[entry]];
    }
}
