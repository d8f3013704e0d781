// SPDX-License-Identifier: GPL-3.0-or-later

// GNU Radio's logpwrfft chain in two kernels around one batched cuFFT.
//
// grcuda_logpwrfft_frames_*: the FFT input. Frame f is the `length` items that start at
// input[f * stride] (the vector stream_to_vector_decimator keeps), each multiplied by its
// window tap and made complex, as fft_vcc / fft_vfc do before their transform.
//
// grcuda_logpwrfft_power / _average: from the spectra, 10 * log10(max(power, FLT_MIN)) +
// offset per bin, as complex_to_mag_squared, single_pole_iir_filter_ff and nlog10_ff do.
// With `rotation` > 0, output bin j reads spectrum bin (j + rotation) mod length: fft_vcc's
// shift after its transform, done here as an index so that the FFT input needs no shift
// (which for odd lengths would be a phase ramp and change the rounding). `state` holds
// single_pole_iir_filter_ff's previous output per bin (a float, as GNU Radio keeps it):
// _power is the filter with alpha = 1 (y = x exactly, one thread per item), _average the
// filter with any alpha, each bin's frames in order (a chain per bin, run from tiles in
// shared memory), in double precision with separate multiply and add roundings as the CPU
// computes y = alpha * x + (1 - alpha) * y_prev. Either way the state after the call is the last frame's output, so
// output does not depend on how the stream is split into calls.
//
// grcuda_logpwrfft_spectra_*: the whole chain for power-of-two lengths from 32 to 4096 in one
// kernel, so that a sample is read once and its decibel written once (12 or 8 bytes against
// the three passes' 44). Each frame is an FFT in shared memory (shared_fft.cuh),
// blockDim.x / (length / 16) frames per block. With averaging the kernel leaves powers, which
// grcuda_logpwrfft_average_powers then averages into decibels in place.

#include "grcuda_common.cuh"
#include "shared_fft.cuh"

namespace {

__device__ inline complex64 windowed(float x, float tap) { return complex64{x * tap, 0.0f}; }
__device__ inline complex64 windowed(complex64 x, float tap) {
    return complex64{x.real * tap, x.imag * tap};
}

__device__ inline float power(complex64 x) {
    return __fadd_rn(__fmul_rn(x.real, x.real), __fmul_rn(x.imag, x.imag));
}

// nlog10_ff's lower bound: the smallest normal float, so silence gives a finite level.
__device__ inline float decibels(float power, float offset) {
    return 10.0f * log10f(fmaxf(power, 1.17549435e-38f)) + offset;
}

__device__ inline count_type source_bin(count_type position, count_type rotation,
                                        count_type length) {
    const count_type source = position + rotation;
    return source >= length ? source - length : source;
}

}  // namespace

#define LOGPWRFFT_FRAMES_KERNEL(name, T)                                                       \
    extern "C" __global__ void grcuda_logpwrfft_frames_##name(                                  \
        const T* input, count_type stride, const float* window, complex64* output,             \
        count_type length, count_type count) {                                                 \
        GRID_STRIDE_LOOP(i, count) {                                                           \
            const count_type frame = i / length;                                               \
            const count_type position = i - frame * length;                                    \
            output[i] = windowed(input[frame * stride + position], window[position]);          \
        }                                                                                      \
    }

LOGPWRFFT_FRAMES_KERNEL(float32, float)
LOGPWRFFT_FRAMES_KERNEL(complex64, complex64)

extern "C" __global__ void grcuda_logpwrfft_power(const complex64* spectrum, float* output,
                                                  float* state, count_type length,
                                                  count_type rotation, count_type frames,
                                                  float offset) {
    const count_type count = length * frames;
    GRID_STRIDE_LOOP(i, count) {
        const count_type frame = i / length;
        const count_type position = i - frame * length;
        const float value = power(spectrum[frame * length + source_bin(position, rotation, length)]);
        output[i] = decibels(value, offset);
        if (frame + 1 == frames) {
            state[position] = value;
        }
    }
}

// The averaging kernels' tiles: AVERAGE_BINS adjacent bins (a warp's lanes) over
// AVERAGE_TILE_FRAMES frames, two tiles in shared memory, AVERAGE_THREADS threads per block.
#define AVERAGE_BINS 32
#define AVERAGE_TILE_FRAMES 64
#define AVERAGE_THREADS 256

namespace {

// single_pole_iir_filter_ff's step as GNU Radio rounds it.
__device__ inline float single_pole(float previous, float value, double alpha,
                                    double one_minus_alpha) {
    return (float)__dadd_rn(__dmul_rn(alpha, (double)value),
                            __dmul_rn(one_minus_alpha, (double)previous));
}

// The single-pole average of every bin through the frames in order, from `state`, into
// decibels in `output`; `power_of(frame, bin)` is a bin's power in a frame. Each bin's
// frames are one chain, so a block takes AVERAGE_BINS bins: its first warp runs their chains
// through a tile in shared memory while the other warps load the next tile (coalesced, many
// loads in flight), then every thread writes the tile's decibels.
template <class PowerOf>
__device__ inline void average_bins(PowerOf power_of, float* output, float* state,
                                    count_type length, count_type frames, float offset,
                                    double alpha, double one_minus_alpha) {
    __shared__ float tiles[2][AVERAGE_TILE_FRAMES][AVERAGE_BINS];
    const int lane = threadIdx.x % AVERAGE_BINS;
    const bool runs_chains = threadIdx.x < AVERAGE_BINS;
    const int tile_values = AVERAGE_TILE_FRAMES * AVERAGE_BINS;
    for (count_type first_bin = count_type(blockIdx.x) * AVERAGE_BINS; first_bin < length;
         first_bin += count_type(gridDim.x) * AVERAGE_BINS) {
        const int bins = (int)min(count_type(AVERAGE_BINS), length - first_bin);
        // Values i of a tile: frame i / AVERAGE_BINS, bin i % AVERAGE_BINS of the group.
        auto load = [&](int tile, count_type first_frame, int from, int step) {
            for (int i = from; i < tile_values; i += step) {
                const count_type frame = first_frame + i / AVERAGE_BINS;
                const int bin = i % AVERAGE_BINS;
                tiles[tile][i / AVERAGE_BINS][bin] =
                    frame < frames && bin < bins ? power_of(frame, first_bin + bin) : 0.0f;
            }
        };
        float previous = runs_chains && lane < bins ? state[first_bin + lane] : 0.0f;
        load(0, 0, threadIdx.x, blockDim.x);
        __syncthreads();
        int tile = 0;
        for (count_type first_frame = 0; first_frame < frames;
             first_frame += AVERAGE_TILE_FRAMES, tile ^= 1) {
            if (runs_chains) {
                const int count = (int)min(count_type(AVERAGE_TILE_FRAMES), frames - first_frame);
                for (int f = 0; f < count; f++) {
                    previous = single_pole(previous, tiles[tile][f][lane], alpha, one_minus_alpha);
                    tiles[tile][f][lane] = previous;
                }
            } else {
                load(tile ^ 1, first_frame + AVERAGE_TILE_FRAMES, threadIdx.x - AVERAGE_BINS,
                     blockDim.x - AVERAGE_BINS);
            }
            __syncthreads();
            for (int i = threadIdx.x; i < tile_values; i += blockDim.x) {
                const count_type frame = first_frame + i / AVERAGE_BINS;
                const int bin = i % AVERAGE_BINS;
                if (frame < frames && bin < bins) {
                    output[frame * length + first_bin + bin] =
                        decibels(tiles[tile][i / AVERAGE_BINS][bin], offset);
                }
            }
            // The next round's loads overwrite the tile just written out.
            __syncthreads();
        }
        if (runs_chains && lane < bins) state[first_bin + lane] = previous;
    }
}

}  // namespace

extern "C" __global__ void __launch_bounds__(AVERAGE_THREADS)
    grcuda_logpwrfft_average(const complex64* spectrum, float* output, float* state,
                             count_type length, count_type rotation, count_type frames,
                             float offset, double alpha, double one_minus_alpha) {
    average_bins(
        [&](count_type frame, count_type bin) {
            return power(spectrum[frame * length + source_bin(bin, rotation, length)]);
        },
        output, state, length, frames, offset, alpha, one_minus_alpha);
}

// The largest block of the spectrum kernels.
#define SPECTRUM_MAX_THREADS 256

// Blocks of SPECTRUM_MAX_THREADS threads a multiprocessor should hold, which caps each
// thread's registers (65536 / (256 * blocks), rounded down to 8): 80 for the one-kernel
// spectra, 64 for the four-step kernels. Measured on the H200 at 2^22 samples per call
// (examples/benchmark, table `spectra`): 2 or 4 blocks of the one-kernel form were 2-8%
// slower than 3 at 1024 and 4096 points; 4 blocks of the four-step kernels were 4-7% faster
// than 3 at 8192 to 65536, though they spill a few dozen bytes per thread.
#define SPECTRA_BLOCKS_PER_MULTIPROCESSOR 3
#define FOUR_STEP_BLOCKS_PER_MULTIPROCESSOR 4

namespace {

// Bin `bin` of a frame's spectrum of `length` bins, as grcuda_logpwrfft_power leaves it: the
// decibels (or, to be averaged afterwards, the power) at the bin's output position, and for
// the call's last frame the power in the state.
__device__ inline void store_bin(float* output, float* state, count_type frame, count_type frames,
                                 int length, int bin, int rotation, float offset,
                                 bool decibels_out, complex64 value) {
    const float p = power(value);
    int position = bin - rotation;
    if (position < 0) position += length;
    // __log10f: within 3 ulp, a few 1e-6 dB, and a tenth of the kernel's time less.
    output[frame * length + position] =
        decibels_out ? 10.0f * __log10f(fmaxf(p, 1.17549435e-38f)) + offset : p;
    if (decibels_out && frame + 1 == frames) state[position] = p;
}

// The groups below are not inlined into their kernels' loops over groups, where hoisting
// the passes' addresses out of the loop spills the registers the values need (about 1 KB per
// thread).

// Group `group` of the frames of one-kernel spectra: blockDim.x / (length / 16) frames, one
// per slice of the block.
template <typename T>
__device__ __noinline__ void spectra_group(count_type group, const T* input, count_type stride,
                                           const float* window, const complex64* twiddles,
                                           float* output, float* state, int length,
                                           int log2_length, count_type frames, int rotation,
                                           float offset, bool decibels_out) {
    extern __shared__ complex64 exchange[];
    const int threads_per_frame = length / 16;
    const int frames_per_block = blockDim.x / threads_per_frame;
    const int local = threadIdx.x / threads_per_frame;
    const int t = threadIdx.x - local * threads_per_frame;
    const count_type frame = group * frames_per_block + local;
    const bool active = frame < frames;
    const T* in = input + frame * stride;
    shared_fft<false, false>(
        exchange + local * shared_fft_slice_values(length), t, length, log2_length, twiddles,
        [&](int i) { return active ? windowed(in[i], window[i]) : complex64{0.0f, 0.0f}; },
        [&](int bin, complex64 value) {
            if (active) {
                store_bin(output, state, frame, frames, length, bin, rotation, offset, decibels_out,
                          value);
            }
        });
}

// The two-kernel spectra of length N = N1 * N2 (the four-step FFT): sample n1 * N2 + n2 of a
// frame is value n1 of column n2. The first kernel transforms the N2 columns (N1 values
// each) into the scratch, column after column; the second twiddles value k1 of column n2
// by exp(-2 pi i n2 k1 / N), transforms the N1 rows k1 (N2 values each) and stores bin
// k1 + N1 * k2. A block takes `columns` adjacent columns or rows, thread t of the one at c
// being threadIdx.x = t * columns + c, so that a warp's lanes read and write neighbours.
__device__ inline int block_columns(int length) { return blockDim.x / (length / 16); }

// Group `group` of the first kernel: columns [first, first + columns) of one frame.
template <typename T>
__device__ __noinline__ void columns_group(count_type group, const T* input, count_type stride,
                                           const float* window, const complex64* twiddles,
                                           complex64* scratch, int first_length,
                                           int log2_first_length, int second_length) {
    extern __shared__ complex64 exchange[];
    const int columns = block_columns(first_length);
    const count_type groups_per_frame = second_length / columns;
    const count_type frame = group / groups_per_frame;
    const int first = int(group - frame * groups_per_frame) * columns;
    const int c = threadIdx.x % columns;
    const int t = threadIdx.x / columns;
    const int column = first + c;
    const T* in = input + frame * stride + column;
    complex64* x = exchange + c * shared_fft_slice_values(first_length);
    shared_fft<false, true>(
        x, t, first_length, log2_first_length, twiddles,
        [&](int i) { return windowed(in[count_type(i) * second_length], window[i * second_length + column]); },
        [&](int k, complex64 value) { x[shared_fft_index(k)] = value; });
    // Out column by column: the block's columns are one contiguous run of the scratch.
    const count_type length = count_type(first_length) * second_length;
    complex64* out = scratch + frame * length + count_type(first) * first_length;
    for (int i = threadIdx.x; i < columns * first_length; i += blockDim.x) {
        out[i] = exchange[(i / first_length) * shared_fft_slice_values(first_length) + shared_fft_index(i % first_length)];
    }
    __syncthreads();
}

// Group `group` of the second kernel: rows [first, first + columns) of one frame.
__device__ __noinline__ void rows_group(count_type group, const complex64* scratch,
                                        const complex64* twiddles,
                                        const complex64* step_twiddles, float* output,
                                        float* state, int first_length, int second_length,
                                        int log2_second_length, count_type frames, int rotation,
                                        float offset, bool decibels_out) {
    extern __shared__ complex64 exchange[];
    const int columns = block_columns(second_length);
    const count_type groups_per_frame = first_length / columns;
    const count_type frame = group / groups_per_frame;
    const int row = int(group - frame * groups_per_frame) * columns + threadIdx.x % columns;
    const int t = threadIdx.x / columns;
    const int length = first_length * second_length;
    const complex64* in = scratch + frame * length + row;
    shared_fft<false, false>(
        exchange + (threadIdx.x % columns) * shared_fft_slice_values(second_length), t, second_length,
        log2_second_length, twiddles,
        [&](int i) {
            return grcuda::multiply(in[i * first_length], step_twiddles[i * first_length + row]);
        },
        [&](int k, complex64 value) {
            store_bin(output, state, frame, frames, length, row + first_length * k, rotation,
                      offset, decibels_out, value);
        });
}

}  // namespace

#define LOGPWRFFT_SPECTRA_KERNELS(name, T)                                                       \
    extern "C" __global__ void                                                                  \
    __launch_bounds__(SPECTRUM_MAX_THREADS, SPECTRA_BLOCKS_PER_MULTIPROCESSOR)                  \
        grcuda_logpwrfft_spectra_##name(const T* input, count_type stride, const float* window, \
                                        const complex64* twiddles, float* output, float* state, \
                                        int length, int log2_length, count_type frames,         \
                                        int rotation, float offset, int decibels_out) {         \
        const count_type frames_per_block = blockDim.x / (length / 16);                         \
        const count_type groups = (frames + frames_per_block - 1) / frames_per_block;           \
        for (count_type group = blockIdx.x; group < groups; group += gridDim.x) {               \
            spectra_group(group, input, stride, window, twiddles, output, state, length,        \
                          log2_length, frames, rotation, offset, decibels_out != 0);            \
        }                                                                                       \
    }                                                                                           \
    extern "C" __global__ void                                                                  \
    __launch_bounds__(SPECTRUM_MAX_THREADS, FOUR_STEP_BLOCKS_PER_MULTIPROCESSOR)                \
        grcuda_logpwrfft_columns_##name(const T* input, count_type stride, const float* window, \
                                        const complex64* twiddles, complex64* scratch,          \
                                        int first_length, int log2_first_length,                \
                                        int second_length, count_type frames) {                 \
        const count_type groups = frames * (second_length / block_columns(first_length));       \
        for (count_type group = blockIdx.x; group < groups; group += gridDim.x) {               \
            columns_group(group, input, stride, window, twiddles, scratch, first_length,        \
                          log2_first_length, second_length);                                    \
        }                                                                                       \
    }

LOGPWRFFT_SPECTRA_KERNELS(float32, float)
LOGPWRFFT_SPECTRA_KERNELS(complex64, complex64)

extern "C" __global__ void __launch_bounds__(SPECTRUM_MAX_THREADS,
                                             FOUR_STEP_BLOCKS_PER_MULTIPROCESSOR)
    grcuda_logpwrfft_rows(const complex64* scratch, const complex64* twiddles,
                          const complex64* step_twiddles, float* output, float* state,
                          int first_length, int second_length, int log2_second_length,
                          count_type frames, int rotation, float offset, int decibels_out) {
    const count_type groups = frames * (first_length / block_columns(second_length));
    for (count_type group = blockIdx.x; group < groups; group += gridDim.x) {
        rows_group(group, scratch, twiddles, step_twiddles, output, state, first_length,
                   second_length, log2_second_length, frames, rotation, offset,
                   decibels_out != 0);
    }
}

// grcuda_logpwrfft_average's filter over powers that grcuda_logpwrfft_spectra_* left in
// `output` (already in output order), replaced in place by the decibels: a block reads a
// tile of frames before it writes them.
extern "C" __global__ void __launch_bounds__(AVERAGE_THREADS)
    grcuda_logpwrfft_average_powers(float* output, float* state, count_type length,
                                    count_type frames, float offset, double alpha,
                                    double one_minus_alpha) {
    average_bins([&](count_type frame, count_type bin) { return output[frame * length + bin]; },
                 output, state, length, frames, offset, alpha, one_minus_alpha);
}
