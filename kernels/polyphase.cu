// SPDX-License-Identifier: GPL-3.0-or-later

// Polyphase filters: the rational resampler (GNU Radio's rational_resampler_xxx) and the
// filter bank and output scatter of the polyphase channelizer (pfb_channelizer_ccf).
//
// Multiply-accumulate steps are grcuda::multiply_add's fused multiply-adds in a fixed order
// (taps in increasing index), which the CPU backend repeats with mul_add, so both backends
// round alike.
//
// Rational resampler, with I = interpolation, D = decimation and N taps per phase (the
// prototype filter padded to I * N taps): output i has position p = first_phase + i * D,
// phase p mod I and input offset p / I, and is
//   output[i] = sum over k < N of input[p / I + N - 1 - k] * taps[(p mod I) + k * I],
// as GNU Radio's loop, whose fir_filter[phase] reads N items from the input pointer, which
// advances by one each time the phase counter passes I.
//
// Channelizer filter bank, with M channels, T taps per branch and D input items per output
// step (M / oversample_rate): step s and branch f of a call are
//   v = sum over k < T of taps[f + k * M] * input[T * M + s * D - 1 - f - k * M],
// written to spectra[s * M + ((f - rotation_s) mod M)], rotation_s = (first_rotation + s * D)
// mod M: the commutator's rotation, which GNU Radio applies with its index table, so that an
// inverse FFT of each row gives the channels directly.

#include "grcuda_common.cuh"

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

// Outputs each thread of the rational resampler computes: outputs i, i + I, i + 2I, ...,
// which share a phase (their positions differ by multiples of I * D) and so their taps, each
// loaded once for all of them.
#define RESAMPLER_OUTPUTS_PER_THREAD 4

// Work item w is phase slot w mod I of output group w / I (I * RESAMPLER_OUTPUTS_PER_THREAD
// consecutive outputs): outputs (w / I) * I * R + w mod I + r * I for r < R. A warp computes
// consecutive outputs for each r, so its loads and stores stay coalesced. Each output's sum
// is the same multiply-adds in the same order as one output per thread.
template <typename Sample, typename Tap>
__device__ void rational_resampler(const Sample* __restrict__ input, const Tap* __restrict__ taps,
                                   Sample* __restrict__ output, count_type outputs,
                                   count_type interpolation, count_type decimation,
                                   count_type taps_per_phase, count_type first_phase) {
    const count_type group_outputs = interpolation * RESAMPLER_OUTPUTS_PER_THREAD;
    const count_type work_items = (outputs + group_outputs - 1) / group_outputs * interpolation;
    GRID_STRIDE_LOOP(w, work_items) {
        const count_type first = w / interpolation * group_outputs + w % interpolation;
        if (first >= outputs) {
            continue;
        }
        const count_type position = first_phase + first * decimation;
        const Tap* phase_taps = taps + position % interpolation;
        // Output first + r * I reads D * r items after output first.
        const Sample* newest = input + position / interpolation + taps_per_phase - 1;
        Sample totals[RESAMPLER_OUTPUTS_PER_THREAD];
#pragma unroll
        for (int r = 0; r < RESAMPLER_OUTPUTS_PER_THREAD; ++r) {
            totals[r] = grcuda::zero<Sample>();
        }
        for (count_type k = 0; k < taps_per_phase; ++k) {
            const Tap tap = load(phase_taps + k * interpolation);
#pragma unroll
            for (int r = 0; r < RESAMPLER_OUTPUTS_PER_THREAD; ++r) {
                if (first + r * interpolation < outputs) {
                    totals[r] = grcuda::multiply_add(load(newest + r * decimation - k), tap, totals[r]);
                }
            }
        }
#pragma unroll
        for (int r = 0; r < RESAMPLER_OUTPUTS_PER_THREAD; ++r) {
            if (first + r * interpolation < outputs) {
                output[first + r * interpolation] = totals[r];
            }
        }
    }
}

#define RATIONAL_RESAMPLER_KERNEL(name, Sample, Tap)                                          \
    extern "C" __global__ void grcuda_rational_resampler_##name(                              \
        const Sample* input, const Tap* taps, Sample* output, count_type outputs,             \
        count_type interpolation, count_type decimation, count_type taps_per_phase,           \
        count_type first_phase) {                                                             \
        rational_resampler(input, taps, output, outputs, interpolation, decimation,           \
                           taps_per_phase, first_phase);                                      \
    }

RATIONAL_RESAMPLER_KERNEL(ccc, complex64, complex64)
RATIONAL_RESAMPLER_KERNEL(ccf, complex64, float)
RATIONAL_RESAMPLER_KERNEL(fff, float, float)

// The resampler from shared memory. A block takes a tile of whole output groups
// (RESAMPLER_TILE_THREADS / I groups of I * RESAMPLER_TILE_OUTPUTS consecutive outputs, at
// least one), stages the input they read with coalesced loads, and, where they fit, the
// taps; then each work item computes RESAMPLER_TILE_OUTPUTS outputs of one phase slot from
// there, with 32-bit indices. A tile starts at a multiple of I outputs, so output F + d of a
// tile starting at output F has position F * D + first_phase + d * D: its phase and its input
// offset from the tile's first input (F / I) * D follow from d alone. Item i of the staged
// input sits at i + i / 16, so that the reads of neighbouring groups, R * D items apart,
// spread over the banks. The sums are the same multiply-adds in the same order as the
// kernel above (taps in increasing index). The host launches it with
// RESAMPLER_TILE_THREADS threads and the shared memory resampler_tile_bytes() gives, and only
// when that fits; otherwise the kernel above.
#define RESAMPLER_TILE_THREADS 128
#define RESAMPLER_TILE_OUTPUTS 8

__device__ inline unsigned resampler_padded(unsigned i) { return i + (i >> 4); }

template <typename Sample, typename Tap>
__device__ void rational_resampler_tiled(const Sample* __restrict__ input, const Tap* __restrict__ taps,
                                         Sample* __restrict__ output, count_type outputs,
                                         count_type interpolation, count_type decimation,
                                         count_type taps_per_phase, count_type first_phase,
                                         int taps_in_shared) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const unsigned I = (unsigned)interpolation, D = (unsigned)decimation, N = (unsigned)taps_per_phase;
    const unsigned tap_count = I * N;
    const Tap* tap_source = taps;
    Sample* staged = reinterpret_cast<Sample*>(shared_bytes);
    if (taps_in_shared) {
        Tap* shared_taps = reinterpret_cast<Tap*>(shared_bytes);
        for (unsigned i = threadIdx.x; i < tap_count; i += blockDim.x) {
            shared_taps[i] = taps[i];
        }
        tap_source = shared_taps;
        // Samples after the taps, aligned for the widest sample.
        staged = reinterpret_cast<Sample*>(shared_bytes + ((tap_count * sizeof(Tap) + 15) & ~15u));
    }
    const unsigned groups = I < RESAMPLER_TILE_THREADS ? RESAMPLER_TILE_THREADS / I : 1;
    const unsigned work_items = groups * I;
    const unsigned tile_outputs = work_items * RESAMPLER_TILE_OUTPUTS;
    const unsigned first_phase32 = (unsigned)first_phase;
    // The input a whole tile reads: through the newest item of its last output.
    const unsigned span = (first_phase32 + (tile_outputs - 1) * D) / I + N;
    const count_type input_items = ((count_type)first_phase + (outputs - 1) * decimation) / interpolation + taps_per_phase;
    for (count_type tile = blockIdx.x; tile * tile_outputs < outputs; tile += gridDim.x) {
        const count_type first_output = tile * tile_outputs;
        const count_type base = tile * (count_type)(groups * RESAMPLER_TILE_OUTPUTS) * decimation;
        __syncthreads(); // the previous tile's reads are done (and the taps staged)
        for (unsigned i = threadIdx.x; i < span; i += blockDim.x) {
            staged[resampler_padded(i)] = base + i < input_items ? load(input + base + i) : grcuda::zero<Sample>();
        }
        __syncthreads();
        for (unsigned w = threadIdx.x; w < work_items; w += blockDim.x) {
            const unsigned group = w / I, slot = w - group * I;
            const unsigned local = group * I * RESAMPLER_TILE_OUTPUTS + slot;
            if (first_output + local >= outputs) {
                continue;
            }
            const unsigned position = first_phase32 + local * D;
            const Tap* phase_taps = tap_source + position % I;
            const unsigned newest = position / I + N - 1;
            Sample totals[RESAMPLER_TILE_OUTPUTS];
#pragma unroll
            for (int r = 0; r < RESAMPLER_TILE_OUTPUTS; ++r) {
                totals[r] = grcuda::zero<Sample>();
            }
            for (unsigned k = 0; k < N; ++k) {
                const Tap tap = phase_taps[k * I];
#pragma unroll
                for (int r = 0; r < RESAMPLER_TILE_OUTPUTS; ++r) {
                    totals[r] = grcuda::multiply_add(staged[resampler_padded(newest + r * D - k)], tap, totals[r]);
                }
            }
#pragma unroll
            for (int r = 0; r < RESAMPLER_TILE_OUTPUTS; ++r) {
                const count_type index = first_output + local + r * I;
                if (index < outputs) {
                    output[index] = totals[r];
                }
            }
        }
    }
}

#define RATIONAL_RESAMPLER_TILED_KERNEL(name, Sample, Tap)                                    \
    extern "C" __global__ void grcuda_rational_resampler_tiled_##name(                        \
        const Sample* input, const Tap* taps, Sample* output, count_type outputs,             \
        count_type interpolation, count_type decimation, count_type taps_per_phase,           \
        count_type first_phase, int taps_in_shared) {                                         \
        rational_resampler_tiled(input, taps, output, outputs, interpolation, decimation,     \
                                 taps_per_phase, first_phase, taps_in_shared);                \
    }

RATIONAL_RESAMPLER_TILED_KERNEL(ccc, complex64, complex64)
RATIONAL_RESAMPLER_TILED_KERNEL(ccf, complex64, float)
RATIONAL_RESAMPLER_TILED_KERNEL(fff, float, float)

// Steps each thread filters: the branch's taps are loaded once for all of them.
#define CHANNELIZER_STEPS_PER_THREAD 4

// Work item w is branch w mod M of steps (w / M) * CHANNELIZER_STEPS_PER_THREAD onwards, so
// that a warp reads consecutive taps and input items and writes consecutive spectrum items.
extern "C" __global__ void grcuda_pfb_channelizer_filter(
    const complex64* __restrict__ input, const float* __restrict__ taps,
    complex64* __restrict__ spectra, count_type channels, count_type taps_per_branch,
    count_type step_advance, count_type steps, count_type first_rotation) {
    const count_type groups = (steps + CHANNELIZER_STEPS_PER_THREAD - 1) / CHANNELIZER_STEPS_PER_THREAD;
    GRID_STRIDE_LOOP(w, groups * channels) {
        const count_type branch = w % channels;
        const count_type first_step = (w / channels) * CHANNELIZER_STEPS_PER_THREAD;
        complex64 totals[CHANNELIZER_STEPS_PER_THREAD];
#pragma unroll
        for (int r = 0; r < CHANNELIZER_STEPS_PER_THREAD; ++r) {
            totals[r] = grcuda::zero<complex64>();
        }
        if (step_advance == channels) {
            // Without oversampling, step s + 1 reads with tap k + 1 what step s reads with tap
            // k (row j = T + s - k of the input, item j * M - 1 - f): the steps' inputs slide
            // through registers, one load per tap for all of them, and the sums are the
            // same multiply-adds in the same order as below.
            const count_type last_row = taps_per_branch + steps - 1;
            const auto row = [&](count_type j) {
                return j <= last_row ? load(input + j * channels - 1 - branch) : grcuda::zero<complex64>();
            };
            complex64 window[CHANNELIZER_STEPS_PER_THREAD];
#pragma unroll
            for (int r = 0; r < CHANNELIZER_STEPS_PER_THREAD; ++r) {
                window[r] = row(taps_per_branch + first_step + r);
            }
            for (count_type k = 0; k < taps_per_branch; ++k) {
                const float tap = load(taps + branch + k * channels);
#pragma unroll
                for (int r = 0; r < CHANNELIZER_STEPS_PER_THREAD; ++r) {
                    totals[r] = grcuda::multiply_add(window[r], tap, totals[r]);
                }
#pragma unroll
                for (int r = CHANNELIZER_STEPS_PER_THREAD - 1; r > 0; --r) {
                    window[r] = window[r - 1];
                }
                if (k + 1 < taps_per_branch) {
                    window[0] = row(taps_per_branch + first_step - k - 1);
                }
            }
        } else {
            const complex64* newest =
                input + taps_per_branch * channels + first_step * step_advance - 1 - branch;
            for (count_type k = 0; k < taps_per_branch; ++k) {
                const float tap = load(taps + branch + k * channels);
                const complex64* column = newest - k * channels;
#pragma unroll
                for (int r = 0; r < CHANNELIZER_STEPS_PER_THREAD; ++r) {
                    if (first_step + r < steps) {
                        totals[r] = grcuda::multiply_add(load(column + r * step_advance), tap, totals[r]);
                    }
                }
            }
        }
#pragma unroll
        for (int r = 0; r < CHANNELIZER_STEPS_PER_THREAD; ++r) {
            const count_type step = first_step + r;
            if (step < steps) {
                const count_type rotation = (first_rotation + step * step_advance) % channels;
                const count_type slot = (branch + channels - rotation) % channels;
                spectra[step * channels + slot] = totals[r];
            }
        }
    }
}

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
