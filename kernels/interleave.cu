// SPDX-License-Identifier: GPL-3.0-or-later

// Interleave and de-interleave streams of items of any size (streams_to_vector and
// vector_to_streams): with S streams, interleaved[item * S + stream] = streams[stream][item].
//
// Items are moved as `item_units` units of one width (see FOR_EACH_MOVE_UNIT). One launch
// handles a group of up to POINTER_GROUP_SIZE streams, streams first_stream to
// first_stream + group_size - 1 of stream_count; the host launches one group after another.
// Both kernels take the same parameters, in the same order. Consecutive threads touch
// consecutive units of the interleaved array, the side whose accesses would otherwise be
// strided. The interleaved array must not overlap any stream; when de-interleaving, the
// streams must not overlap each other either.

#include "grcuda_common.cuh"

// Where unit `index` of a launch's work lives: its stream within the group, its offset in
// that stream, and its offset in the interleaved array, all in units.
struct UnitPosition {
    unsigned int stream;
    count_type stream_offset;
    count_type interleaved_offset;
};

__device__ inline UnitPosition locate(count_type index, unsigned int group_size,
                                      count_type item_units, count_type stream_count,
                                      count_type first_stream) {
    const count_type unit = index % item_units;
    const count_type rest = index / item_units;
    const unsigned int stream = (unsigned int)(rest % group_size);
    const count_type item = rest / group_size;
    UnitPosition position;
    position.stream = stream;
    position.stream_offset = item * item_units + unit;
    position.interleaved_offset = (item * stream_count + first_stream + stream) * item_units + unit;
    return position;
}

template <typename Unit>
__device__ void interleave(const PointerGroup<const Unit*>& streams, unsigned int group_size,
                           Unit* interleaved, count_type items, count_type item_units,
                           count_type stream_count, count_type first_stream) {
    const count_type total = items * group_size * item_units;
    GRID_STRIDE_LOOP(i, total) {
        const UnitPosition p = locate(i, group_size, item_units, stream_count, first_stream);
        interleaved[p.interleaved_offset] = select_pointer(streams, p.stream)[p.stream_offset];
    }
}

template <typename Unit>
__device__ void deinterleave(const PointerGroup<Unit*>& streams, unsigned int group_size,
                             const Unit* interleaved, count_type items, count_type item_units,
                             count_type stream_count, count_type first_stream) {
    const count_type total = items * group_size * item_units;
    GRID_STRIDE_LOOP(i, total) {
        const UnitPosition p = locate(i, group_size, item_units, stream_count, first_stream);
        select_pointer(streams, p.stream)[p.stream_offset] = interleaved[p.interleaved_offset];
    }
}

#define INTERLEAVE_KERNELS(bytes, Unit)                                                        \
    extern "C" __global__ void grcuda_interleave_unit##bytes(                                  \
        PointerGroup<const Unit*> streams, unsigned int group_size, Unit* interleaved,         \
        count_type items, count_type item_units, count_type stream_count,                      \
        count_type first_stream) {                                                             \
        interleave(streams, group_size, interleaved, items, item_units, stream_count,          \
                   first_stream);                                                              \
    }                                                                                          \
    extern "C" __global__ void grcuda_deinterleave_unit##bytes(                                \
        PointerGroup<Unit*> streams, unsigned int group_size, const Unit* interleaved,         \
        count_type items, count_type item_units, count_type stream_count,                      \
        count_type first_stream) {                                                             \
        deinterleave(streams, group_size, interleaved, items, item_units, stream_count,        \
                     first_stream);                                                            \
    }

FOR_EACH_MOVE_UNIT(INTERLEAVE_KERNELS)
