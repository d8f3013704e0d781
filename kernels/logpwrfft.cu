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
// than 3 at 8192 to 65536.
#define SPECTRA_BLOCKS_PER_MULTIPROCESSOR 3
#define FOUR_STEP_BLOCKS_PER_MULTIPROCESSOR 4

namespace {

// 10 log10(max(power, FLT_MIN)) + offset from the hardware's base-2 logarithm, within a few
// 1e-6 dB of log10f and a tenth of the kernel's time less. The bound keeps the argument
// normal, so the approximation that flushes subnormals gives the same result without their
// fix-up.
__device__ inline float fast_decibels(float power, float offset) {
    const float x = fmaxf(power, 1.17549435e-38f);
#ifdef __CUDA_ARCH__
    float log2_x;
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(log2_x) : "f"(x));
#else
    const float log2_x = log2f(x);
#endif
    return fmaf(log2_x, 3.01029995663981195f, offset);  // 10 log10(2)
}

// Where one frame's spectrum of `length` bins (a power of two) goes, as grcuda_logpwrfft_power
// leaves it: bin k's decibels (or, to be averaged afterwards, its power) at output position
// (k - rotation) mod length of the frame's row, and for the call's last frame with decibels
// the power in the state too (`state` is NULL otherwise).
struct SpectrumRow {
    float* row;
    float* state;
    int length;
    int rotation;
    float offset;
    bool decibels;

    __device__ static SpectrumRow of_frame(float* output, float* state, count_type frame,
                                           count_type frames, int length, int rotation,
                                           float offset, bool decibels) {
        return SpectrumRow{output + frame * length, decibels && frame + 1 == frames ? state : nullptr,
                           length, rotation, offset, decibels};
    }

    __device__ inline void store(int bin, complex64 value) const {
        const float p = power(value);
        const int position = (bin - rotation) & (length - 1);
        row[position] = decibels ? fast_decibels(p, offset) : p;
        if (state != nullptr) state[position] = p;
    }
};

// The groups below are not inlined into their kernels' loops over groups, where the compiler
// duplicates them (about 20% more instructions for the 1024-point spectra).

// Threads of a one-kernel spectra block for frames of N samples: the frame's N / 16, at least
// two warps (on the H200 faster than larger blocks for every length up to 1024).
__host__ __device__ constexpr int spectra_block_threads(int n) { return n / 16 > 64 ? n / 16 : 64; }

// Group `group` of the frames of one-kernel spectra of N bins: spectra_block_threads(N) / (N
// / 16) frames, one per slice of the block.
template <typename T, int N>
__device__ __noinline__ void spectra_group(count_type group, const T* input, count_type stride,
                                           const float* window, const complex64* twiddles,
                                           float* output, float* state, count_type frames,
                                           int rotation, float offset, bool decibels_out) {
    extern __shared__ complex64 exchange[];
    constexpr int threads_per_frame = N / 16;
    constexpr int frames_per_block = spectra_block_threads(N) / threads_per_frame;
    const int local = threadIdx.x / threads_per_frame;
    const int t = threadIdx.x - local * threads_per_frame;
    const count_type frame = group * frames_per_block + local;
    // Only the last group of several frames per block can run past the call's frames.
    const bool active = frames_per_block == 1 || frame < frames;
    const T* in = input + frame * stride;
    const SpectrumRow spectrum =
        SpectrumRow::of_frame(output, state, frame, frames, N, rotation, offset, decibels_out);
    shared_fft<N, false, false>(
        exchange + local * shared_fft_slice_values(N), t, twiddles,
        [&](int i) { return active ? windowed(in[i], window[i]) : complex64{0.0f, 0.0f}; },
        [&](int bin, complex64 value) {
            if (active) spectrum.store(bin, value);
        });
}

// The two-kernel spectra of length N = N1 * N2 (the four-step FFT): sample n1 * N2 + n2 of a
// frame is value n1 of column n2. The first kernel transforms the N2 columns (N1 values
// each) into the scratch, column after column; the second twiddles value k1 of column n2
// by exp(-2 pi i n2 k1 / N), transforms the N1 rows k1 (N2 values each) and stores bin
// k1 + N1 * k2. A block takes block_columns(length) adjacent columns or rows of `length`
// values (up to 16, and no more than SPECTRUM_MAX_THREADS threads of 16 values), thread t of
// the one at c being threadIdx.x = t * columns + c, so that a warp's lanes read and write
// neighbours.
__host__ __device__ constexpr int block_columns(int length) {
    return SPECTRUM_MAX_THREADS / (length / 16) < 16 ? SPECTRUM_MAX_THREADS / (length / 16) : 16;
}

// Group `group` of the first kernel: columns [first, first + columns) of one frame, FIRST (N1)
// values each.
template <typename T, int FIRST>
__device__ __noinline__ void columns_group(count_type group, const T* input, count_type stride,
                                           const float* window, const complex64* twiddles,
                                           complex64* scratch, int second_length) {
    extern __shared__ complex64 exchange[];
    constexpr int columns = block_columns(FIRST);
    const count_type groups_per_frame = second_length / columns;
    const count_type frame = group / groups_per_frame;
    const int first = int(group - frame * groups_per_frame) * columns;
    const int c = threadIdx.x % columns;
    const int t = threadIdx.x / columns;
    const int column = first + c;
    const T* in = input + frame * stride + column;
    complex64* x = exchange + c * shared_fft_slice_values(FIRST);
    shared_fft<FIRST, false, true>(
        x, t, twiddles,
        [&](int i) { return windowed(in[count_type(i) * second_length], window[i * second_length + column]); },
        [&](int k, complex64 value) { x[shared_fft_index(k)] = value; });
    // Out column by column: the block's columns are one contiguous run of the scratch.
    const count_type length = count_type(FIRST) * second_length;
    complex64* out = scratch + frame * length + count_type(first) * FIRST;
#pragma unroll
    for (int i = threadIdx.x; i < columns * FIRST; i += columns * FIRST / 16) {
        out[i] = exchange[(i / FIRST) * shared_fft_slice_values(FIRST) + shared_fft_index(i % FIRST)];
    }
    __syncthreads();
}

// Group `group` of the second kernel: rows [first, first + columns) of one frame, SECOND (N2)
// values each.
template <int SECOND>
__device__ __noinline__ void rows_group(count_type group, const complex64* scratch,
                                        const complex64* twiddles,
                                        const complex64* step_twiddles, float* output,
                                        float* state, int first_length, count_type frames,
                                        int rotation, float offset, bool decibels_out) {
    extern __shared__ complex64 exchange[];
    constexpr int columns = block_columns(SECOND);
    const count_type groups_per_frame = first_length / columns;
    const count_type frame = group / groups_per_frame;
    const int row = int(group - frame * groups_per_frame) * columns + threadIdx.x % columns;
    const int t = threadIdx.x / columns;
    const int length = first_length * SECOND;
    const complex64* in = scratch + frame * length + row;
    const SpectrumRow spectrum =
        SpectrumRow::of_frame(output, state, frame, frames, length, rotation, offset, decibels_out);
    shared_fft<SECOND, false, false>(
        exchange + (threadIdx.x % columns) * shared_fft_slice_values(SECOND), t, twiddles,
        [&](int i) {
            return grcuda::multiply(in[i * first_length], step_twiddles[i * first_length + row]);
        },
        [&](int k, complex64 value) { spectrum.store(row + first_length * k, value); });
}

}  // namespace

// One-kernel spectra of `length` (N) bins, launched with spectra_block_threads(N) threads.
#define LOGPWRFFT_SPECTRA_KERNEL(name, T, length)                                                \
    extern "C" __global__ void                                                                  \
    __launch_bounds__(SPECTRUM_MAX_THREADS, SPECTRA_BLOCKS_PER_MULTIPROCESSOR)                  \
        grcuda_logpwrfft_spectra_##name##_##length(                                             \
            const T* input, count_type stride, const float* window, const complex64* twiddles,  \
            float* output, float* state, count_type frames, int rotation, float offset,         \
            int decibels_out) {                                                                 \
        constexpr count_type frames_per_block = spectra_block_threads(length) / (length / 16);  \
        const count_type groups = (frames + frames_per_block - 1) / frames_per_block;           \
        for (count_type group = blockIdx.x; group < groups; group += gridDim.x) {               \
            spectra_group<T, length>(group, input, stride, window, twiddles, output, state,     \
                                     frames, rotation, offset, decibels_out != 0);              \
        }                                                                                       \
    }

// The four-step form's columns of `first_length` (N1) values, launched with
// block_columns(N1) * N1 / 16 threads.
#define LOGPWRFFT_COLUMNS_KERNEL(name, T, first_length)                                          \
    extern "C" __global__ void                                                                  \
    __launch_bounds__(SPECTRUM_MAX_THREADS, FOUR_STEP_BLOCKS_PER_MULTIPROCESSOR)                \
        grcuda_logpwrfft_columns_##name##_##first_length(                                       \
            const T* input, count_type stride, const float* window, const complex64* twiddles,  \
            complex64* scratch, int second_length, count_type frames) {                         \
        const count_type groups = frames * (second_length / block_columns(first_length));       \
        for (count_type group = blockIdx.x; group < groups; group += gridDim.x) {               \
            columns_group<T, first_length>(group, input, stride, window, twiddles, scratch,     \
                                           second_length);                                      \
        }                                                                                       \
    }

#define LOGPWRFFT_SPECTRA_KERNELS(name, T)                                                       \
    LOGPWRFFT_SPECTRA_KERNEL(name, T, 32)                                                        \
    LOGPWRFFT_SPECTRA_KERNEL(name, T, 64)                                                        \
    LOGPWRFFT_SPECTRA_KERNEL(name, T, 128)                                                       \
    LOGPWRFFT_SPECTRA_KERNEL(name, T, 256)                                                       \
    LOGPWRFFT_SPECTRA_KERNEL(name, T, 512)                                                       \
    LOGPWRFFT_SPECTRA_KERNEL(name, T, 1024)                                                      \
    LOGPWRFFT_SPECTRA_KERNEL(name, T, 2048)                                                      \
    LOGPWRFFT_SPECTRA_KERNEL(name, T, 4096)                                                      \
    LOGPWRFFT_COLUMNS_KERNEL(name, T, 64)                                                        \
    LOGPWRFFT_COLUMNS_KERNEL(name, T, 128)                                                       \
    LOGPWRFFT_COLUMNS_KERNEL(name, T, 256)                                                       \
    LOGPWRFFT_COLUMNS_KERNEL(name, T, 512)                                                       \
    LOGPWRFFT_COLUMNS_KERNEL(name, T, 1024)

LOGPWRFFT_SPECTRA_KERNELS(float32, float)
LOGPWRFFT_SPECTRA_KERNELS(complex64, complex64)

// The four-step form's rows of `second_length` (N2) values, launched with
// block_columns(N2) * N2 / 16 threads.
#define LOGPWRFFT_ROWS_KERNEL(second_length)                                                     \
    extern "C" __global__ void                                                                  \
    __launch_bounds__(SPECTRUM_MAX_THREADS, FOUR_STEP_BLOCKS_PER_MULTIPROCESSOR)                \
        grcuda_logpwrfft_rows_##second_length(                                                  \
            const complex64* scratch, const complex64* twiddles, const complex64* step_twiddles, \
            float* output, float* state, int first_length, count_type frames, int rotation,     \
            float offset, int decibels_out) {                                                   \
        const count_type groups = frames * (first_length / block_columns(second_length));      \
        for (count_type group = blockIdx.x; group < groups; group += gridDim.x) {               \
            rows_group<second_length>(group, scratch, twiddles, step_twiddles, output, state,   \
                                      first_length, frames, rotation, offset,                   \
                                      decibels_out != 0);                                       \
        }                                                                                       \
    }

LOGPWRFFT_ROWS_KERNEL(128)
LOGPWRFFT_ROWS_KERNEL(256)
LOGPWRFFT_ROWS_KERNEL(512)
LOGPWRFFT_ROWS_KERNEL(1024)

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
