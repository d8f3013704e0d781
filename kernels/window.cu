// SPDX-License-Identifier: GPL-3.0-or-later

// Window: output[i] = input[i] * window[i mod length] for float32 and complex64 vectors of
// `length` items, with a float32 window; `count` is length times the number of vectors.
// Output may equal input.

#include "grcuda_common.cuh"

#define WINDOW_KERNEL(name, T)                                                                 \
    extern "C" __global__ void grcuda_window_##name(const T* input, const float* window,      \
                                                    T* output, count_type length,              \
                                                    count_type count) {                        \
        write_each_item(output, count,                                                         \
                        [&](count_type i) { return grcuda::scale(input[i], window[i % length]); }); \
    }

WINDOW_KERNEL(float32, float)
WINDOW_KERNEL(complex64, complex64)
