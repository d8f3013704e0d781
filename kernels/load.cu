// SPDX-License-Identifier: GPL-3.0-or-later

// Synthetic GPU load, for benchmarks: output[i] = input[i] for `bytes` bytes, each byte read
// and written `iterations` times. The accesses are volatile so that the compiler keeps every
// repetition rather than folding them into one copy. Output may equal input.

#include "grcuda_common.cuh"

extern "C" __global__ void grcuda_load(const unsigned char* input, unsigned char* output,
                                       count_type bytes, count_type iterations) {
    const volatile unsigned char* source = input;
    volatile unsigned char* destination = output;
    GRID_STRIDE_LOOP(i, bytes) {
        for (count_type repetition = 0; repetition < iterations; repetition++) {
            destination[i] = source[i];
        }
    }
}
