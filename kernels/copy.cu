// SPDX-License-Identifier: GPL-3.0-or-later

// Copy: output[i] = input[i] for `count` units of one width (1 to 16 bytes).
//
// The host turns a byte count into units of the widest width that divides both addresses and
// the size, so large aligned copies move 16 bytes per thread step. The ranges must not overlap.

#include "grcuda_common.cuh"

#define COPY_KERNEL(bytes, Unit)                                                              \
    extern "C" __global__ void grcuda_copy_unit##bytes(const Unit* input, Unit* output,      \
                                                       count_type count) {                   \
        GRID_STRIDE_LOOP(i, count) { output[i] = input[i]; }                                  \
    }

FOR_EACH_MOVE_UNIT(COPY_KERNEL)
