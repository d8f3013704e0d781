// SPDX-License-Identifier: GPL-3.0-or-later

// Add: output[i] = inputs[0][i] + inputs[1][i] + ... + inputs[input_count - 1][i], summed left
// to right, for int16, int32, float32 and complex64; integers wrap like C.
//
// One launch takes up to POINTER_GROUP_SIZE input addresses by value (no device-side pointer
// array to allocate or upload). For more inputs the host enqueues further passes on the same
// stream whose first input is the output itself, which keeps the left-to-right order of the
// sum. Output may be one of the inputs of its pass: each thread reads index i of every input
// before it writes index i of the output.

#include "grcuda_common.cuh"

#define ADD_KERNEL(name, T)                                                                    \
    extern "C" __global__ void grcuda_add_##name(PointerGroup<const T*> inputs,               \
                                                 unsigned int input_count, T* output,          \
                                                 count_type count) {                           \
        combine_arrays(inputs, input_count, output, count,                                     \
                       [](T a, T b) { return grcuda::add(a, b); });                            \
    }

FOR_EACH_ARITHMETIC_TYPE(ADD_KERNEL)
