// SPDX-License-Identifier: GPL-3.0-or-later

// Multiply by a constant: output[i] = input[i] * constant, for int16, int32, float32 and
// complex64. The constant has the item type; integers wrap like C. Output may equal input.

#include "grcuda_common.cuh"

#define MULTIPLY_CONST_KERNEL(name, T)                                                         \
    extern "C" __global__ void grcuda_multiply_const_##name(const T* input, T* output,         \
                                                            count_type count, T constant) {    \
        write_each_item(output, count,                                                         \
                        [&](count_type i) { return grcuda::multiply(input[i], constant); });   \
    }

FOR_EACH_ARITHMETIC_TYPE(MULTIPLY_CONST_KERNEL)
