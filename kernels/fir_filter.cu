// SPDX-License-Identifier: GPL-3.0-or-later

// FIR filters, as GNU Radio's fir_filter_ccc/ccf/fff compute them: output j is the dot
// product of the reversed taps with the input from item j * decimation on, where the input
// starts with tap_count - 1 items of history. Direct form (one thread per output) for short
// filters; overlap-save for long ones: transform the overlapping segments, multiply their
// spectra by the filter's response, and after the inverse transform extract the valid
// outputs, in one kernel with shared-memory FFTs up to 4096 points, or in three passes around
// cuFFT beyond. Complex outputs may be rotated by a phase that advances per output (the frequency
// translation of freq_xlating_fir_filter): phase(j) = start + j * increment, in double
// precision so that it stays exact over any number of outputs.
//
// The direct form also runs GNU Radio's rational resampler (rational_resampler_xxx), as
// `interpolation` FIR filters side by side. With I = interpolation, D = decimation and N taps
// per phase (the prototype filter padded to I * N taps), output i has position p =
// first_phase + i * D and is
//   output[i] = sum over k < N of input[p / I + N - 1 - k] * taps[(p mod I) + k * I],
// as GNU Radio's loop, whose fir_filter[phase] reads N items from the input pointer, which
// advances by one each time the phase counter passes I. The outputs i = f, f + I, f + 2I, ...
// (slot f) share the phase (first_phase + f * D) mod I, and their inputs start D items
// apart, from (first_phase + f * D) / I: slot f is a FIR filter with decimation D whose
// reversed taps are that phase's taps, last first.
//
// Multiply-adds are grcuda::multiply_add's fused multiply-adds, in a fixed tap order, so the
// CPU backend (Rust's mul_add, in the same order) rounds identically.

#include "grcuda_common.cuh"
#include "shared_fft.cuh"

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

// The slots of a call of the direct form (see the top of the file): one for a FIR filter,
// whose taps are reversed; `interpolation` for a rational resampler, whose taps are the
// prototype filter's. The C layout is the host's `Slots`.
struct Slots {
    count_type interpolation;
    count_type first_phase;
    int prototype_taps;

    // n / interpolation and n % interpolation. With SkipOne, a FIR filter's interpolation 1
    // skips the 64-bit division (tens of instructions, a tenth of a short filter's work per
    // tile). Only the undecimated tiled kernel asks for it: in the rows kernels the test
    // cost registers (34 -> 56 for complex samples) and up to 5% of their rate on the H100.
    template <bool SkipOne>
    __device__ count_type divide(count_type n) const {
        return SkipOne && interpolation == 1 ? n : n / interpolation;
    }
    template <bool SkipOne>
    __device__ count_type remainder(count_type n) const {
        return SkipOne && interpolation == 1 ? 0 : n % interpolation;
    }
};

// One slot: its outputs (output r of the slot is output index + r * interpolation of the
// call), where its input starts, and its taps in the order the sums take them (tap t
// multiplies the t-th input item of an output's window).
template <typename Tap>
struct Slot {
    count_type index;
    count_type outputs;
    count_type input_start;
    const Tap* first_tap;
    long long tap_step;

    __device__ Tap tap(count_type t) const { return first_tap[(long long)t * tap_step]; }
    __device__ count_type output_index(count_type r, const Slots& slots) const {
        return index + r * slots.interpolation;
    }
};

template <bool SkipOne = false, typename Tap>
__device__ inline Slot<Tap> slot_of(const Slots& slots, count_type index, count_type outputs, count_type tap_count,
                                    count_type decimation, const Tap* taps) {
    const count_type position = slots.first_phase + index * decimation;
    Slot<Tap> slot;
    slot.index = index;
    slot.outputs = index < outputs ? slots.divide<SkipOne>(outputs - index + slots.interpolation - 1) : 0;
    slot.input_start = slots.divide<SkipOne>(position);
    if (slots.prototype_taps) {
        slot.first_tap = taps + slots.remainder<SkipOne>(position) + (tap_count - 1) * slots.interpolation;
        slot.tap_step = -(long long)slots.interpolation;
    } else {
        slot.first_tap = taps;
        slot.tap_step = 1;
    }
    return slot;
}

// The input items a call reads: through the last output's window.
template <bool SkipOne = false>
__device__ inline count_type direct_form_input_items(const Slots& slots, count_type outputs, count_type tap_count,
                                                     count_type decimation) {
    return slots.divide<SkipOne>(slots.first_phase + (outputs - 1) * decimation) + tap_count;
}

// Outputs per thread of the direct form. A thread computes OUTPUTS_PER_THREAD consecutive
// outputs and keeps the input they share in registers: tap k = q * decimation + p of output
// j reads input (j + q) * decimation + p, so for each phase p the inputs of the thread's
// outputs slide by one register per q, and each tap costs one load for all of them.
#define OUTPUTS_PER_THREAD 8

// One tap of a sliding window of R consecutive outputs: sum[r] += window[r] * tap, then the
// window slides (output r's next input is output r + 1's current one; the caller loads the
// last).
template <int R, typename In, typename Tap, typename Out>
__device__ inline void multiply_add_and_slide(In* window, Tap tap, Out* sum) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
        sum[r] = grcuda::multiply_add(window[r], tap, sum[r]);
    }
#pragma unroll
    for (int r = 0; r < R - 1; ++r) {
        window[r] = window[r + 1];
    }
}

// The sums of a thread's outputs first .. first + OUTPUTS_PER_THREAD - 1, with input item i
// (counted from the thread's base) from load(i). The sum for each output runs over the taps
// phase by phase (p = 0 .. decimation - 1, then q upwards): the same order for every output,
// whatever thread, kernel or call computes it.
template <typename In, typename Tap, typename Out, typename Load>
__device__ void direct_sums(const Load& load, const Slot<Tap>& slot, count_type first,
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
                    const Tap tap = slot.tap(block + t);
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
            multiply_add_and_slide<OUTPUTS_PER_THREAD>(window, slot.tap(k), sum);
            const count_type next = k + decimation;
            if (next < tap_count) {
                window[OUTPUTS_PER_THREAD - 1] = load((first + OUTPUTS_PER_THREAD - 1) * decimation + next);
            }
        }
    }
}

template <typename Tap, typename Out>
__device__ void store_outputs(Out* output, const Out* sum, const Slot<Tap>& slot, count_type first,
                              const Slots& slots, const Rotation& rotation) {
#pragma unroll
    for (int r = 0; r < OUTPUTS_PER_THREAD; ++r) {
        if (first + r < slot.outputs) {
            const count_type index = slot.output_index(first + r, slots);
            output[index] = rotated(sum[r], rotation, index);
        }
    }
}

// The direct form from device memory: loads past the input (outputs beyond the last) give
// zeros; whatever the slide moves into the slot of an output that exists is that output's
// input. Work item w is group w / I of slot w mod I.
template <typename In, typename Tap, typename Out>
__device__ void fir_filter(const In* input, const Tap* taps, Out* output, count_type outputs, count_type tap_count,
                           count_type decimation, Rotation rotation, Slots slots) {
    const count_type input_items = direct_form_input_items(slots, outputs, tap_count, decimation);
    const count_type most_groups =
        ((outputs + slots.interpolation - 1) / slots.interpolation + OUTPUTS_PER_THREAD - 1) / OUTPUTS_PER_THREAD;
    GRID_STRIDE_LOOP(work, most_groups * slots.interpolation) {
        const Slot<Tap> slot = slot_of(slots, work % slots.interpolation, outputs, tap_count, decimation, taps);
        const count_type first = work / slots.interpolation * OUTPUTS_PER_THREAD;
        if (first >= slot.outputs) {
            continue;
        }
        const auto load = [&](count_type i) {
            const count_type item = slot.input_start + i;
            return item < input_items ? input[item] : In();
        };
        Out sum[OUTPUTS_PER_THREAD];
        direct_sums<In>(load, slot, first, tap_count, decimation, sum);
        store_outputs(output, sum, slot, first, slots, rotation);
    }
}

// The direct form from shared memory: each block stages the input of a tile of consecutive
// outputs, then its TILE_THREADS threads compute them from there. The host launches it with
// TILE_THREADS threads per block and the shared memory that tile_shared_bytes() in
// src/kernels/fir_filter.rs gives, and only when that fits; otherwise fir_filter above.
//
// A decimating filter is the sum of `decimation` filters without decimation, one per phase
// p: phase p's taps are p, p + decimation, ... and its input the items p, p + decimation,
// ... (tap q * decimation + p of output j reads input (j + q) * decimation + p). The tile
// takes the phases in turn, staging one phase's input at a time, so its shared memory holds
// the tile's outputs plus the taps whatever the decimation, and sums them phase by phase,
// taps upwards: the order direct_sums adds them in.
//
// Each phase is arithmetic-bound: a thread computes UNIT_OUTPUTS_PER_THREAD outputs, over the
// phase's taps in blocks of as many, from a register window of 2 * UNIT_OUTPUTS_PER_THREAD
// inputs: per block, the window and the taps arrive in 16-byte shared loads and feed
// UNIT_OUTPUTS_PER_THREAD^2 multiply-adds. Shared memory holds, first, every phase's taps
// (phase-major, each phase rounded up to whole blocks with zeros), then the staged items of
// the current phase with 16 bytes of padding after every UNIT_OUTPUTS_PER_THREAD items: the
// threads' windows (UNIT_OUTPUTS_PER_THREAD items apart) then start in different banks and
// stay 16-byte aligned, and a window's items are at offsets known at compile time from one
// base address. A phase is staged through the last window's end (zeros past the input), so
// no read needs a bounds test, and only the last, partial block of taps tests the tap index.
//
// Staging copies asynchronously (stage_item in grcuda_common.cuh). The tile's outputs are
// written to shared memory (over the staged input) and stored from there, consecutive threads
// storing consecutive outputs.
#define TILE_THREADS 128
#define UNIT_OUTPUTS_PER_THREAD 8
#define TILE_OUTPUTS (TILE_THREADS * UNIT_OUTPUTS_PER_THREAD)

// Items of type T in one 16-byte vector.
template <typename T>
struct items_per_vector {
    static constexpr int value = 16 / sizeof(T);
};

// Where staged item i sits: a vector of padding after every UNIT_OUTPUTS_PER_THREAD items.
template <typename T>
__device__ inline unsigned unit_padded(unsigned i) {
    return i + i / UNIT_OUTPUTS_PER_THREAD * items_per_vector<T>::value;
}

__device__ inline void unpack(float4 vector, float* items) {
    items[0] = vector.x;
    items[1] = vector.y;
    items[2] = vector.z;
    items[3] = vector.w;
}
__device__ inline void unpack(float4 vector, complex64* items) {
    items[0] = complex64{vector.x, vector.y};
    items[1] = complex64{vector.z, vector.w};
}
__device__ inline float4 pack(const float* items) { return float4{items[0], items[1], items[2], items[3]}; }
__device__ inline float4 pack(const complex64* items) {
    return float4{items[0].real, items[0].imag, items[1].real, items[1].imag};
}

// Taps t < UNIT_OUTPUTS_PER_THREAD (t < taps_left when Partial) of a phase, from `taps`, into
// the sums of a thread's outputs, whose window starts at window_items. Both pointers are
// 16-byte aligned. Window items arrive as they are first needed, so that the window's second
// half is not live before the taps that read it.
template <bool Partial, typename In, typename Tap, typename Out>
__device__ inline void unit_tap_block(const In* window_items, const Tap* taps, unsigned taps_left, Out* sum) {
    constexpr int R = UNIT_OUTPUTS_PER_THREAD;
    constexpr int V = items_per_vector<In>::value;
    constexpr int W = items_per_vector<Tap>::value;
    const float4* first_half = reinterpret_cast<const float4*>(window_items);
    const float4* second_half = reinterpret_cast<const float4*>(window_items + R + V);
    const float4* tap_vectors = reinterpret_cast<const float4*>(taps);
    In window[2 * R];
    Tap block_taps[R];
#pragma unroll
    for (int v = 0; v < R / V; ++v) {
        unpack(first_half[v], window + v * V);
    }
#pragma unroll
    for (int t = 0; t < R; ++t) {
        // A partial block loads only what its taps read: taps from t on and window items
        // from R + t - 1 on serve only taps t and later.
        if (Partial && (unsigned)t >= taps_left) {
            break;
        }
        if (t % W == 0) {
            unpack(tap_vectors[t / W], block_taps + t);
        }
        // Tap t reads window items t .. t + R - 1.
        if (t >= 1 && (t - 1) % V == 0) {
            unpack(second_half[(t - 1) / V], window + R + t - 1);
        }
#pragma unroll
        for (int r = 0; r < R; ++r) {
            sum[r] = grcuda::multiply_add(window[r + t], block_taps[t], sum[r]);
        }
    }
}

// Items i and i + TILE_THREADS (one round of the block's threads) sit this far apart in the
// padded shared layout: a round covers whole units of UNIT_OUTPUTS_PER_THREAD items.
template <typename T>
struct padded_round {
    static_assert(TILE_THREADS % UNIT_OUTPUTS_PER_THREAD == 0, "a round covers whole units");
    static constexpr unsigned value = TILE_THREADS + TILE_THREADS / UNIT_OUTPUTS_PER_THREAD * items_per_vector<T>::value;
};

// Rounds in a tile: TILE_OUTPUTS items, TILE_THREADS per round.
#define TILE_ROUNDS (TILE_OUTPUTS / TILE_THREADS)

// Stages items[0], items[step], ... (`count` of them, at least TILE_OUTPUTS; zeros from
// `available` on) at their padded places in `staged`, the block's threads together. The
// first TILE_ROUNDS rounds are unrolled at offsets known at compile time, so that the copies
// issue back to back with no index arithmetic or exit tests; the rest (the window's overhang)
// follows in a loop. Only a tile that reaches past the input tests each item (Checked);
// `anywhere` is a valid address that the zero-filling copies name instead of one past it.
template <bool Checked, typename T>
__device__ inline void stage_rounds(T* staged, const T* items, count_type step, unsigned count, unsigned available,
                                    const T* anywhere) {
    const T* source = items + threadIdx.x * step;
    T* target = staged + unit_padded<T>(threadIdx.x);
    const count_type source_round = TILE_THREADS * step;
#pragma unroll
    for (unsigned round = 0; round < TILE_ROUNDS; ++round) {
        const bool valid = !Checked || threadIdx.x + round * TILE_THREADS < available;
        stage_item(target + round * padded_round<T>::value, valid ? source + round * source_round : anywhere, valid);
    }
    source += TILE_ROUNDS * source_round;
    target += TILE_ROUNDS * padded_round<T>::value;
    for (unsigned i = threadIdx.x + TILE_OUTPUTS; i < count; i += TILE_THREADS) {
        const bool valid = !Checked || i < available;
        stage_item(target, valid ? source : anywhere, valid);
        source += source_round;
        target += padded_round<T>::value;
    }
}

template <typename T>
__device__ inline void stage_phase(T* staged, const T* items, count_type step, unsigned count, unsigned available,
                                   const T* anywhere) {
    if (available < count) {
        stage_rounds<true>(staged, items, step, count, available, anywhere);
    } else {
        stage_rounds<false>(staged, items, step, count, available, anywhere);
    }
}

// The block's threads store a tile's `count` outputs (at most TILE_OUTPUTS) from their padded
// places in `staged` to output[0], output[step], ..., consecutive threads storing
// consecutive outputs; a whole tile in rounds unrolled at offsets known at compile time.
template <typename T>
__device__ inline void store_tile(T* output, count_type step, const T* staged, unsigned count) {
    T* target = output + threadIdx.x * step;
    const T* source = staged + unit_padded<T>(threadIdx.x);
    const count_type target_round = TILE_THREADS * step;
    if (count == TILE_OUTPUTS) {
#pragma unroll
        for (unsigned round = 0; round < TILE_ROUNDS; ++round) {
            target[round * target_round] = source[round * padded_round<T>::value];
        }
        return;
    }
    for (unsigned i = threadIdx.x; i < count; i += TILE_THREADS) {
        *target = *source;
        target += target_round;
        source += padded_round<T>::value;
    }
}

// Adds one phase to the sums of outputs local_first .. local_first + UNIT_OUTPUTS_PER_THREAD
// - 1 of a tile (local_first a multiple of UNIT_OUTPUTS_PER_THREAD): its `tap_count` taps,
// tap q at taps[q], in increasing q.
template <typename In, typename Tap, typename Out>
__device__ void add_phase_sums(const In* phase, const Tap* taps, unsigned local_first, unsigned tap_count,
                               Out* sum) {
    constexpr unsigned R = UNIT_OUTPUTS_PER_THREAD;
    // Item local_first + block + j (block a multiple of R) sits at unit_padded(local_first +
    // block) + j for j < R, and a vector further on for j >= R.
    unsigned block = 0;
    for (; block + R <= tap_count; block += R) {
        unit_tap_block<false>(phase + unit_padded<In>(local_first + block), taps + block, R, sum);
    }
    if (block < tap_count) {
        unit_tap_block<true>(phase + unit_padded<In>(local_first + block), taps + block, tap_count - block, sum);
    }
}

// A slot's taps into shared memory by phase: phase p's taps p, p + decimation, ... from
// taps[p * phase_stride] on, zeros after a phase's last, the block's threads together. The
// caller's next __syncthreads publishes them.
template <typename Tap>
__device__ inline void stage_phase_major_taps(Tap* taps, const Slot<Tap>& slot, unsigned phases,
                                              unsigned phase_stride, count_type tap_count,
                                              count_type decimation) {
    for (unsigned i = threadIdx.x; i < phases * phase_stride; i += blockDim.x) {
        const unsigned p = i / phase_stride;
        const count_type k = (count_type)(i - p * phase_stride) * decimation + p;
        taps[i] = k < tap_count ? slot.tap(k) : Tap();
    }
}

// Work unit u is tile u / I of slot u mod I, so that the blocks that run at once write the
// slots of the same stretch of output. Undecimated (decimation 1: one phase, a kernel whose
// registers are capped) stages and stores whole tiles in rounds unrolled at compile-time
// offsets and skips the division by a FIR filter's interpolation 1: on the H100 at 31-127
// taps 1.14-1.16x faster for fff, 1.02-1.07x for ccf, 1.00-1.03x for ccc. The decimating
// form keeps its loops: unrolled, its registers rose from 48-80 to 96-108 and decimating
// filters and resamplers ran up to 15% slower.
template <bool Undecimated, typename In, typename Tap, typename Out>
__device__ void fir_filter_tiled(const In* __restrict__ input, const Tap* __restrict__ all_taps,
                                 Out* __restrict__ output, count_type outputs, count_type tap_count,
                                 count_type decimation, Rotation rotation, Slots slots) {
    static_assert(sizeof(In) == sizeof(Out), "the outputs are staged over the input");
    constexpr unsigned R = UNIT_OUTPUTS_PER_THREAD;
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const count_type input_items = direct_form_input_items<Undecimated>(slots, outputs, tap_count, decimation);
    const unsigned phases = (unsigned)(decimation < tap_count ? decimation : tap_count);
    // Phase p's taps start at phase_taps_start * p: the most taps of any phase (phase 0's),
    // rounded up to whole blocks.
    const unsigned phase_taps_start = (unsigned)((tap_count + decimation - 1) / decimation + R - 1) / R * R;
    Tap* taps = reinterpret_cast<Tap*>(shared_bytes);
    In* phase_items = reinterpret_cast<In*>(taps + phases * phase_taps_start);
    const unsigned local_first = threadIdx.x * R;
    const count_type most_tiles =
        (slots.divide<Undecimated>(outputs + slots.interpolation - 1) + TILE_OUTPUTS - 1) / TILE_OUTPUTS;
    for (count_type unit = blockIdx.x; unit < most_tiles * slots.interpolation; unit += gridDim.x) {
        const Slot<Tap> slot =
            slot_of<Undecimated>(slots, slots.remainder<Undecimated>(unit), outputs, tap_count, decimation, all_taps);
        const count_type tile_first = slots.divide<Undecimated>(unit) * TILE_OUTPUTS;
        if (tile_first >= slot.outputs) {
            continue;
        }
        // The previous unit's last __syncthreads ended its reads of the taps; the first
        // phase's publishes these.
        stage_phase_major_taps(taps, slot, phases, phase_taps_start, tap_count, decimation);
        Out sum[R];
#pragma unroll
        for (unsigned r = 0; r < R; ++r) {
            sum[r] = grcuda::zero<Out>();
        }
        for (unsigned p = 0; p < phases; ++p) {
            const unsigned phase_taps = (unsigned)((tap_count - p + decimation - 1) / decimation);
            // Through the end of the last thread's last window (taps rounded up to whole
            // blocks, and the window's unused last item). Every thread computes its outputs,
            // also past the slot's last (their reads stay in the staged items, and they are
            // not stored).
            const unsigned staged = TILE_OUTPUTS + (phase_taps + R - 1) / R * R;
            if constexpr (Undecimated) {
                // Staged item i is input item phase_first + i * decimation; from `available`
                // on, past the input, zeros.
                const count_type phase_first = slot.input_start + tile_first * decimation + p;
                const unsigned available =
                    phase_first < input_items
                        ? (unsigned)min((count_type)staged, (input_items - phase_first + decimation - 1) / decimation)
                        : 0u;
                stage_phase(phase_items, input + phase_first, decimation, staged, available, input);
            } else {
#pragma unroll 4
                for (unsigned i = threadIdx.x; i < staged; i += blockDim.x) {
                    const count_type item = slot.input_start + (tile_first + i) * decimation + p;
                    const bool valid = item < input_items;
                    stage_item(phase_items + unit_padded<In>(i), valid ? input + item : input, valid);
                }
            }
            wait_for_staged_items();
            __syncthreads();
            add_phase_sums(phase_items, taps + p * phase_taps_start, local_first, phase_taps, sum);
            __syncthreads(); // every read of this phase is done before the next is staged
        }
        // The tile's outputs go out through shared memory, so that a warp's stores are
        // consecutive outputs of the slot rather than one every UNIT_OUTPUTS_PER_THREAD.
        Out* staged_outputs = reinterpret_cast<Out*>(phase_items);
        constexpr int V = items_per_vector<Out>::value;
        float4* thread_outputs = reinterpret_cast<float4*>(staged_outputs + unit_padded<Out>(local_first));
#pragma unroll
        for (unsigned v = 0; v < R / V; ++v) {
            Out rotated_sums[V];
#pragma unroll
            for (int k = 0; k < V; ++k) {
                const unsigned r = v * V + k;
                rotated_sums[k] = rotated(sum[r], rotation, slot.output_index(tile_first + local_first + r, slots));
            }
            thread_outputs[v] = pack(rotated_sums);
        }
        __syncthreads();
        const unsigned tile_count = (unsigned)min((count_type)TILE_OUTPUTS, slot.outputs - tile_first);
        if constexpr (Undecimated) {
            store_tile(output + slot.output_index(tile_first, slots), slots.interpolation, staged_outputs, tile_count);
        } else {
#pragma unroll 4
            for (unsigned i = threadIdx.x; i < tile_count; i += blockDim.x) {
                output[slot.output_index(tile_first + i, slots)] = staged_outputs[unit_padded<Out>(i)];
            }
        }
        __syncthreads();
    }
}

// The direct form for decimating filters whose phases have few taps: a block of T threads
// computes, for every slot, a tile of T * R consecutive outputs of the slot, R per thread. It
// stages the tile's whole input once, coalesced, as rows of `decimation` items (row r starts at
// output r's first item of slot 0), and each thread sums its outputs from there in
// direct_sums' order (phase by phase, taps upwards): tap q * decimation + p of output r of a
// slot whose input starts `offset` items after slot 0's is item offset + p of row r + q, that
// is column (offset + p) mod decimation of row r + q + (offset + p) / decimation. A FIR
// filter has one slot (offset 0); a rational resampler with interpolation I has I, whose
// inputs start less than a row apart (offset <= decimation), so they share the rows, and a
// tile costs one staging for I * T * R outputs. Rows are rows_pitch() items apart, an odd
// number, so that a warp's threads, which read one column of consecutive rows, find their
// items in different banks. The taps sit before the rows, slot by slot, each slot's
// phase-major, each phase padded to the most taps a phase has. The tiles above stage every
// decimation-th item, one phase at a time: a 32-byte sector read per item, which at
// decimations of 4 and more bounds a filter of few taps per phase. The host launches this
// kernel with the threads and shared memory that rows_tile() in src/kernels/fir_filter.rs
// gives.
__device__ inline unsigned rows_pitch(unsigned decimation) { return decimation | 1u; }

// R outputs per thread (R odd, so that a warp's threads, R rows apart, still read different
// banks): consecutive outputs, whose inputs in a column slide by one row per tap, so that one
// shared read of an item and one of a tap serve R multiply-adds.
template <int R, typename In, typename Tap, typename Out>
__device__ void fir_filter_rows(const In* __restrict__ input, const Tap* __restrict__ all_taps,
                                Out* __restrict__ output, count_type outputs, count_type tap_count,
                                count_type decimation, Rotation rotation, Slots slots) {
    static_assert(R % 2 == 1, "rows R apart must fall in different banks");
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const count_type input_items = direct_form_input_items(slots, outputs, tap_count, decimation);
    const unsigned d = (unsigned)decimation;
    const unsigned slot_count = (unsigned)slots.interpolation;
    const unsigned phases = (unsigned)(decimation < tap_count ? decimation : tap_count);
    const unsigned most_phase_taps = (unsigned)((tap_count + decimation - 1) / decimation);
    const unsigned pitch = rows_pitch(d);
    const unsigned slot_taps = phases * most_phase_taps;
    const unsigned slot_tap_count = (unsigned)tap_count; // every slot's taps fit shared memory
    Tap* taps = reinterpret_cast<Tap*>(shared_bytes);
    In* rows = reinterpret_cast<In*>(shared_bytes + (slot_count * slot_taps * sizeof(Tap) + 15) / 16 * 16);
    // Slot 0 starts the rows and has the most outputs; the last slot's input starts furthest
    // into them. The first tile's __syncthreads publishes the taps.
    const Slot<Tap> first_slot = slot_of(slots, 0, outputs, tap_count, decimation, all_taps);
    const Slot<Tap> last_slot = slot_of(slots, slot_count - 1, outputs, tap_count, decimation, all_taps);
    for (unsigned s = 0; s < slot_count; ++s) {
        stage_phase_major_taps(taps + s * slot_taps, slot_of(slots, s, outputs, tap_count, decimation, all_taps),
                               phases, most_phase_taps, tap_count, decimation);
    }
    // The tile loop takes the slots in turn without a division per slot: slot s + 1's
    // position (in 1 / interpolation items) is `decimation` after slot s's, and the slots up to
    // (outputs - 1) mod interpolation have one output more than the slots after them.
    const unsigned step_items = d / slot_count, step_remainder = d % slot_count;
    const unsigned long_slots = outputs > 0 ? (unsigned)((outputs - 1) % slots.interpolation) + 1 : 0;
    const unsigned tile = blockDim.x * R;
    const unsigned span =
        (tile - 1) * d + (unsigned)(last_slot.input_start - first_slot.input_start) + (unsigned)tap_count;
    const unsigned local_first = threadIdx.x * R;
    for (count_type tile_first = (count_type)blockIdx.x * tile; tile_first < first_slot.outputs;
         tile_first += (count_type)gridDim.x * tile) {
        const count_type first_item = first_slot.input_start + tile_first * decimation;
        for (unsigned i = threadIdx.x; i < span; i += blockDim.x) {
            const unsigned row = i / d;
            const count_type item = first_item + i;
            const bool valid = item < input_items;
            stage_item(rows + row * pitch + (i - row * d), valid ? input + item : input, valid);
        }
        wait_for_staged_items();
        __syncthreads();
        Slot<Tap> slot = first_slot;
        unsigned remainder = (unsigned)slots.first_phase; // slot s's position mod interpolation
        for (unsigned s = 0; s < slot_count; ++s) {
            if (s > 0) {
                slot.index = s;
                slot.input_start += step_items;
                remainder += step_remainder;
                if (remainder >= slot_count) {
                    remainder -= slot_count;
                    ++slot.input_start;
                }
                if (s == long_slots) {
                    --slot.outputs;
                }
            }
            // A slot's input starts at most a row after slot 0's (offset <= decimation), so
            // item offset + p of a row is in that row or the next.
            const unsigned offset = (unsigned)(slot.input_start - first_slot.input_start);
            Out sum[R];
#pragma unroll
            for (int r = 0; r < R; ++r) {
                sum[r] = grcuda::zero<Out>();
            }
            for (unsigned p = 0; p < phases; ++p) {
                const unsigned phase_taps = (slot_tap_count - p + d - 1) / d;
                const unsigned next_row = offset + p >= d;
                const unsigned first_row = local_first + next_row;
                const In* column = rows + first_row * pitch + (offset + p - next_row * d);
                const Tap* phase = taps + s * slot_taps + p * most_phase_taps;
                // window[r] is the item of output local_first + r for tap q: row first_row + r + q.
                In window[R];
#pragma unroll
                for (int r = 0; r < R - 1; ++r) {
                    window[r] = column[r * pitch];
                }
                for (unsigned q = 0; q < phase_taps; ++q) {
                    window[R - 1] = column[(q + R - 1) * pitch];
                    multiply_add_and_slide<R>(window, phase[q], sum);
                }
            }
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const count_type output_r = tile_first + local_first + r;
                if (output_r < slot.outputs) {
                    const count_type index = slot.output_index(output_r, slots);
                    output[index] = rotated(sum[r], rotation, index);
                }
            }
        }
        __syncthreads(); // every read of the rows is done before the next tile is staged
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
    extern "C" __global__ void grcuda_fir_filter_##name(const In* input, const Tap* taps, Out* output, \
                                                         count_type outputs, count_type tap_count,  \
                                                         count_type decimation, Rotation rotation,  \
                                                         Slots slots) {                             \
        fir_filter(input, taps, output, outputs, tap_count, decimation, rotation, slots);          \
    }

FIR_FILTER_KERNEL(ccc, complex64, complex64, complex64)
FIR_FILTER_KERNEL(ccf, complex64, float, complex64)
FIR_FILTER_KERNEL(fff, float, float, float)

// Without decimation the tiled form has a kernel of its own, which takes the same parameters
// and ignores `decimation` (1), and whose registers are capped so that `blocks` blocks fit
// on a multiprocessor: six for complex samples (80 registers, where five blocks fit
// uncapped), ten for float (48, as uncapped). On the H200 at 2^22 outputs and 31 to 127 taps
// this kernel is 15-20% (ccf), 12-15% (ccc) and 6-16% (fff) faster than the decimating one
// run with decimation 1; the decimating kernel slowed down by 7-11% under the same cap, so
// it keeps its registers.
#define FIR_FILTER_TILED_KERNEL(name, In, Tap, Out, blocks)                                            \
    extern "C" __global__ void grcuda_fir_filter_tiled_##name(                                         \
        const In* input, const Tap* taps, Out* output, count_type outputs, count_type tap_count,       \
        count_type decimation, Rotation rotation, Slots slots) {                                       \
        fir_filter_tiled<false>(input, taps, output, outputs, tap_count, decimation, rotation, slots); \
    }                                                                                                  \
    extern "C" __global__ void __launch_bounds__(TILE_THREADS, blocks)                                 \
        grcuda_fir_filter_tiled_undecimated_##name(                                                    \
            const In* input, const Tap* taps, Out* output, count_type outputs,                         \
            count_type tap_count, count_type, Rotation rotation, Slots slots) {                        \
        fir_filter_tiled<true>(input, taps, output, outputs, tap_count, 1, rotation, slots);           \
    }

FIR_FILTER_TILED_KERNEL(ccc, complex64, complex64, complex64, 10)
FIR_FILTER_TILED_KERNEL(ccf, complex64, float, complex64, 10)
FIR_FILTER_TILED_KERNEL(fff, float, float, float, 16)

// One entry point per outputs per thread R that rows_tile() chooses: rows_ (R = 1) and
// rows3_ for every type, rows5_ for float samples only.
#define FIR_FILTER_ROWS_ENTRY(prefix, R, name, In, Tap, Out)                                        \
    extern "C" __global__ void prefix##name(const In* input, const Tap* taps, Out* output,          \
                                            count_type outputs, count_type tap_count,               \
                                            count_type decimation, Rotation rotation, Slots slots) { \
        fir_filter_rows<R>(input, taps, output, outputs, tap_count, decimation, rotation, slots);   \
    }
#define FIR_FILTER_ROWS_KERNEL(name, In, Tap, Out)                                                  \
    FIR_FILTER_ROWS_ENTRY(grcuda_fir_filter_rows_, 1, name, In, Tap, Out)                           \
    FIR_FILTER_ROWS_ENTRY(grcuda_fir_filter_rows3_, 3, name, In, Tap, Out)

FIR_FILTER_ROWS_KERNEL(ccc, complex64, complex64, complex64)
FIR_FILTER_ROWS_KERNEL(ccf, complex64, float, complex64)
FIR_FILTER_ROWS_KERNEL(fff, float, float, float)
FIR_FILTER_ROWS_ENTRY(grcuda_fir_filter_rows5_, 5, fff, float, float, float)

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

// Overlap-save in one kernel for FFT sizes the shared-memory FFT takes (up to 4096): each
// sequence's forward FFT, the product with the response, the inverse FFT (the forward one of
// the conjugates) and the extraction of its outputs happen in shared memory, so a sample is
// read once per segment that uses it and each output written once. Float samples (real taps)
// pack two consecutive segments into one sequence, one in the real and one in the imaginary
// part, which the real taps filter apart: sequence q then covers the segments 2q and 2q + 1.
// Segments are numbered from the call's first segment, whose start the host aligns to the
// stream (for float samples, to an even segment), so that every segment is transformed with
// the same partner in whatever call it is computed.
#define OVERLAP_SAVE_MAX_THREADS 256

namespace {

template <typename T>
struct SegmentsPerSequence;
template <>
struct SegmentsPerSequence<float> {
    static constexpr count_type value = 2;
};
template <>
struct SegmentsPerSequence<complex64> {
    static constexpr count_type value = 1;
};

// Item i of the segment whose first input item is `start`: zero past the segment's `length`
// and past the `available` input, as overlap_save_gather pads.
template <typename T>
__device__ inline T segment_item(const T* input, count_type available, count_type start,
                                 count_type i, count_type length) {
    return i < length && start + i < available ? input[start + i] : grcuda::zero<T>();
}

__device__ inline complex64 sequence_value(const float* input, count_type available,
                                           count_type start, count_type i, count_type step,
                                           count_type length) {
    return complex64{segment_item(input, available, start, i, length),
                     segment_item(input, available, start + step, i, length)};
}
__device__ inline complex64 sequence_value(const complex64* input, count_type available,
                                           count_type start, count_type i, count_type, count_type length) {
    return segment_item(input, available, start, i, length);
}

// The inverse transform's value n of sequence q as each of its segments' output: the
// conjugate of the forward transform of the conjugates.
__device__ inline float segment_output(complex64 value, count_type half, float) {
    return half == 0 ? value.real : -value.imag;
}
__device__ inline complex64 segment_output(complex64 value, count_type, complex64) {
    return complex64{value.real, -value.imag};
}

// Sequence group `group`: blockDim.x / (fft_size / 16) sequences, one per slice of the block.
// Output j is the full-rate output at position first + j * decimation, counted from the
// first segment's start, as overlap_save_extract defines it.
template <typename T, int fft_size>
__device__ __noinline__ void overlap_save_group(count_type group, const T* input, count_type available,
                                                const complex64* response, const complex64* twiddles,
                                                T* output, count_type outputs, count_type step,
                                                count_type length, count_type offset, count_type first,
                                                count_type decimation, Rotation rotation,
                                                count_type sequences) {
    extern __shared__ complex64 exchange[];
    constexpr count_type segments = SegmentsPerSequence<T>::value;
    constexpr int threads_per_sequence = fft_size / SHARED_FFT_VALUES;
    const int local = threadIdx.x / threads_per_sequence;
    const int t = threadIdx.x - local * threads_per_sequence;
    const count_type sequence = group * (blockDim.x / threads_per_sequence) + local;
    const bool active = sequence < sequences;
    const count_type start = sequence * segments * step;
    complex64* x = exchange + local * shared_fft_slice_values(fft_size);
    shared_fft<fft_size, false, true>(
        x, t, twiddles,
        [&](int i) {
            return active ? sequence_value(input, available, start, i, step, length)
                          : complex64{0.0f, 0.0f};
        },
        [&](int k, complex64 value) {
            const complex64 product = grcuda::multiply(value, response[k]);
            x[shared_fft_index(k)] = complex64{product.real, -product.imag};
        });
    shared_fft<fft_size, true, false>(
        x, t, twiddles, [&](int i) { return x[shared_fft_index(i)]; },
        [&](int n, complex64 value) {
            if (!active || count_type(n) < offset || count_type(n) - offset >= step) return;
#pragma unroll
            for (count_type half = 0; half < segments; half++) {
                const count_type position = start + half * step + (count_type(n) - offset);
                if (position < first) continue;
                const count_type distance = position - first;
                const count_type j = decimation == 1 ? distance : distance / decimation;
                if (j * decimation != distance || j >= outputs) continue;
                output[j] = rotated(segment_output(value, half, T()), rotation, j);
            }
        });
}

}  // namespace

// Overlap-save of segments of `fft_size` values, launched with blocks of
// max(fft_size / 16, 64) threads.
#define OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, fft_size)                                           \
    extern "C" __global__ void __launch_bounds__(OVERLAP_SAVE_MAX_THREADS, 3)                    \
        grcuda_overlap_save_segments_##name##_##fft_size(                                         \
            const T* input, count_type available, const complex64* response,                      \
            const complex64* twiddles, T* output, count_type outputs, count_type step,             \
            count_type length, count_type offset, count_type first, count_type decimation,         \
            Rotation rotation, count_type sequences) {                                             \
        const count_type per_block = blockDim.x / (fft_size / SHARED_FFT_VALUES);                  \
        const count_type groups = (sequences + per_block - 1) / per_block;                         \
        for (count_type group = blockIdx.x; group < groups; group += gridDim.x) {                  \
            overlap_save_group<T, fft_size>(group, input, available, response, twiddles, output,   \
                                            outputs, step, length, offset, first, decimation,      \
                                            rotation, sequences);                                  \
        }                                                                                          \
    }

#define OVERLAP_SAVE_SEGMENTS_KERNELS(name, T)                                                    \
    OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, 32)                                                     \
    OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, 64)                                                     \
    OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, 128)                                                    \
    OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, 256)                                                    \
    OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, 512)                                                    \
    OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, 1024)                                                   \
    OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, 2048)                                                   \
    OVERLAP_SAVE_SEGMENTS_KERNEL(name, T, 4096)

OVERLAP_SAVE_SEGMENTS_KERNELS(float32, float)
OVERLAP_SAVE_SEGMENTS_KERNELS(complex64, complex64)
