// SPDX-License-Identifier: GPL-3.0-or-later

// Moving average, as GNU Radio's moving_average_ff/cc compute it: a running sum of `length`
// items per vector lane (add the newest item, scale, subtract the oldest), started afresh
// from the sum of the first length - 1 items of each run. GNU Radio starts afresh at every
// work() call of at most max_iter items; here every thread runs its own segment of
// `segment` outputs (the host passes segment <= max_iter), so the rounding of the running sum
// is GNU Radio's, over runs no longer than GNU Radio's. Segments are aligned to the stream:
// the call's first output is output `phase` of its segment, and a segment that began before
// the call is recomputed from its start, which the input's history covers, so every output
// has the same sum however the stream is split into calls.
//
// input holds segment - 1 + length - 1 items of history before the first output's newest
// item (the launcher skips what the block's history keeps for longer segments), items are
// vectors of vlen values, and each thread takes one lane of one segment: lanes vary fastest
// across threads, so that vectors load coalesced.

#include "grcuda_common.cuh"

template <typename T>
__device__ void moving_average(const T* input, T* output, count_type items, count_type vlen,
                               count_type length, T scale, count_type segment, count_type phase) {
    const count_type segments = (phase + items + segment - 1) / segment;
    // Output o of the call starts its window at input item segment - 1 + o.
    const T* window_start = input + (segment - 1) * vlen;
    GRID_STRIDE_LOOP(work, segments * vlen) {
        const count_type lane = work % vlen;
        // Outputs first .. end - 1 of the call, counted from `phase` items before it.
        const count_type first = (work / vlen) * segment;
        const count_type end = min(first + segment, phase + items);
        const T* lane_input = window_start - phase * vlen + lane;
        T sum{};
        for (count_type k = 0; k + 1 < length; ++k) {
            sum = grcuda::add(sum, lane_input[(first + k) * vlen]);
        }
        for (count_type i = first; i < end; ++i) {
            sum = grcuda::add(sum, lane_input[(i + length - 1) * vlen]);
            if (i >= phase) {
                output[(i - phase) * vlen + lane] = grcuda::multiply(sum, scale);
            }
            sum = grcuda::subtract(sum, lane_input[i * vlen]);
        }
    }
}

// The same sums for vlen 1 and segments of MOVING_AVERAGE_SEGMENT outputs, through shared
// memory: above, the threads of a warp read items a segment apart, 32 cache lines per load.
// Here each block of MOVING_AVERAGE_TILE_THREADS threads stages the input of its consecutive
// segments with coalesced loads, each thread runs its segment's sum from there (the same
// additions in the same order, so the same output), and the outputs leave through a second
// staged tile with coalesced stores. The staging copies are asynchronous (stage_item), so
// that a thread's ~segment loads are in flight at once. Item i of a tile sits at i + i / 32:
// the threads, a segment apart, then read distinct banks, and since a segment starts at a
// multiple of 32, a thread finds the items of its segment at constant offsets from one
// address. The host launches it with MOVING_AVERAGE_TILE_THREADS threads per block and shared
// memory for both tiles, only where that fits and the segment is MOVING_AVERAGE_SEGMENT.
#define MOVING_AVERAGE_TILE_THREADS 64
#define MOVING_AVERAGE_SEGMENT 32

// Indices within a tile are 32-bit: a tile is what shared memory holds.
__device__ inline unsigned padded_index(unsigned i) { return i + i / MOVING_AVERAGE_SEGMENT; }

template <typename T>
__device__ void moving_average_tiled(const T* input, T* output, count_type items, count_type length, T scale,
                                     count_type phase) {
    constexpr unsigned S = MOVING_AVERAGE_SEGMENT;
    constexpr unsigned tile_positions = MOVING_AVERAGE_TILE_THREADS * S;
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const unsigned window = (unsigned)length;
    T* results = reinterpret_cast<T*>(shared_bytes);
    T* staged = results + padded_index(tile_positions);
    // Position p counts outputs from `phase` before the call's first; its window is
    // origin[p] .. origin[p + length - 1].
    const T* origin = input + (S - 1) - phase;
    const count_type positions = phase + items;
    for (count_type tile_first = (count_type)blockIdx.x * tile_positions; tile_first < positions;
         tile_first += (count_type)gridDim.x * tile_positions) {
        const unsigned tile_end = (unsigned)(min(tile_first + tile_positions, positions) - tile_first);
        const unsigned span = tile_end + window - 1;
        const T* tile_origin = origin + tile_first;
        for (unsigned j = threadIdx.x; j < span; j += blockDim.x) {
            stage_item(staged + padded_index(j), tile_origin + j, true);
        }
        wait_for_staged_items();
        __syncthreads();
        const unsigned first = threadIdx.x * S;
        if (first < tile_end) {
            // Item first + k sits at oldest[k + k / S]; the window of output first + j ends at
            // item newest_first + j, at newest[j], or newest[j + 1] past the next pad.
            const T* oldest = staged + padded_index(first);
            T sum{};
            unsigned k = 0;
            for (; k + S <= window - 1; k += S) {
                const T* run = oldest + k + k / S;
#pragma unroll
                for (unsigned j = 0; j < S; ++j) {
                    sum = grcuda::add(sum, run[j]);
                }
            }
            const T* rest = oldest + k + k / S;
            for (unsigned j = 0; k + j < window - 1; ++j) {
                sum = grcuda::add(sum, rest[j]);
            }
            const unsigned newest_first = first + window - 1;
            const T* newest = staged + padded_index(newest_first);
            const unsigned past_pad = S - newest_first % S;
            T* out = results + padded_index(first);
            const unsigned count = min(S, tile_end - first);
            if (count == S) {
#pragma unroll
                for (unsigned j = 0; j < S; ++j) {
                    sum = grcuda::add(sum, newest[j >= past_pad ? j + 1 : j]);
                    out[j] = grcuda::multiply(sum, scale);
                    sum = grcuda::subtract(sum, oldest[j]);
                }
            } else {
                for (unsigned j = 0; j < count; ++j) {
                    sum = grcuda::add(sum, newest[j >= past_pad ? j + 1 : j]);
                    out[j] = grcuda::multiply(sum, scale);
                    sum = grcuda::subtract(sum, oldest[j]);
                }
            }
        }
        __syncthreads();
        for (unsigned l = threadIdx.x; l < tile_end; l += blockDim.x) {
            if (tile_first + l >= phase) {
                output[tile_first + l - phase] = results[padded_index(l)];
            }
        }
        __syncthreads();
    }
}

// The same outputs for long windows, at a cost that does not grow with `length`: above, each
// segment starts its sum with length - 1 additions. Here the segments are of
// MOVING_AVERAGE_CHUNK outputs, and the input is cut into chunks of as many items, aligned
// as the segments are (to the stream). A segment's window then starts on a chunk: its first
// sum is the sum of the sums of its (length - 1) / chunk whole chunks, in order, then its
// remaining items, in order, after which the running sum goes on as above. Each block takes
// MOVING_AVERAGE_CHUNK_THREADS consecutive segments, one per thread, and first sums the chunks
// their windows cover into shared memory (each chunk's items in order, by one thread), so a
// chunk's items are read once per block rather than once per segment. Every sum depends only
// on the stream's items and their positions, so every output is the same however the stream is
// split into calls. The host launches it with MOVING_AVERAGE_CHUNK_THREADS threads per block
// and shared memory for MOVING_AVERAGE_CHUNK_THREADS + (length - 1) / chunk - 1 chunk sums.
#define MOVING_AVERAGE_CHUNK 64
#define MOVING_AVERAGE_CHUNK_THREADS 128

template <typename T>
__device__ void moving_average_chunked(const T* input, T* output, count_type items, count_type length, T scale,
                                       count_type phase) {
    constexpr count_type S = MOVING_AVERAGE_CHUNK;
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    T* chunk_sums = reinterpret_cast<T*>(shared_bytes);
    // Position p counts outputs from `phase` before the call's first; its window is
    // origin[p] .. origin[p + length - 1], and chunk k is origin[k * S] .. origin[k * S + S - 1].
    const T* origin = input + (S - 1) - phase;
    const count_type positions = phase + items;
    const count_type segments = (positions + S - 1) / S;
    const count_type whole_chunks = (length - 1) / S;
    for (count_type tile_first = (count_type)blockIdx.x * MOVING_AVERAGE_CHUNK_THREADS; tile_first < segments;
         tile_first += (count_type)gridDim.x * MOVING_AVERAGE_CHUNK_THREADS) {
        const count_type tile_segments = min((count_type)MOVING_AVERAGE_CHUNK_THREADS, segments - tile_first);
        // The windows of the tile's segments cover chunks tile_first .. tile_first + chunks - 1.
        const count_type chunks = whole_chunks == 0 ? 0 : tile_segments + whole_chunks - 1;
        for (count_type c = threadIdx.x; c < chunks; c += blockDim.x) {
            const T* chunk = origin + (tile_first + c) * S;
            T sum{};
            for (count_type j = 0; j < S; ++j) {
                sum = grcuda::add(sum, chunk[j]);
            }
            chunk_sums[c] = sum;
        }
        __syncthreads();
        const count_type segment = tile_first + threadIdx.x;
        if (threadIdx.x < tile_segments) {
            const count_type first = segment * S;
            T sum{};
            for (count_type k = 0; k < whole_chunks; ++k) {
                sum = grcuda::add(sum, chunk_sums[threadIdx.x + k]);
            }
            for (count_type k = whole_chunks * S; k + 1 < length; ++k) {
                sum = grcuda::add(sum, origin[first + k]);
            }
            const count_type end = min(first + S, positions);
            for (count_type i = first; i < end; ++i) {
                sum = grcuda::add(sum, origin[i + length - 1]);
                if (i >= phase) {
                    output[i - phase] = grcuda::multiply(sum, scale);
                }
                sum = grcuda::subtract(sum, origin[i]);
            }
        }
        __syncthreads();
    }
}

#define MOVING_AVERAGE_KERNEL(name, T)                                                         \
    extern "C" __global__ void grcuda_moving_average_##name(                                   \
        const T* input, T* output, count_type items, count_type vlen, count_type length,       \
        T scale, count_type segment, count_type phase) {                                       \
        moving_average(input, output, items, vlen, length, scale, segment, phase);             \
    }

MOVING_AVERAGE_KERNEL(float32, float)
MOVING_AVERAGE_KERNEL(complex64, complex64)

#define MOVING_AVERAGE_TILED_KERNEL(name, T)                                                   \
    extern "C" __global__ void grcuda_moving_average_tiled_##name(                             \
        const T* input, T* output, count_type items, count_type length, T scale,                \
        count_type phase) {                                                                     \
        moving_average_tiled(input, output, items, length, scale, phase);                       \
    }

MOVING_AVERAGE_TILED_KERNEL(float32, float)
MOVING_AVERAGE_TILED_KERNEL(complex64, complex64)

#define MOVING_AVERAGE_CHUNKED_KERNEL(name, T)                                                 \
    extern "C" __global__ void grcuda_moving_average_chunked_##name(                           \
        const T* input, T* output, count_type items, count_type length, T scale,                \
        count_type phase) {                                                                     \
        moving_average_chunked(input, output, items, length, scale, phase);                     \
    }

MOVING_AVERAGE_CHUNKED_KERNEL(float32, float)
MOVING_AVERAGE_CHUNKED_KERNEL(complex64, complex64)
