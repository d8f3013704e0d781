// SPDX-License-Identifier: GPL-3.0-or-later

// FFT shift of complex64 vectors: each vector of `length` items is rotated so that the zero
// frequency bin moves to the middle, exactly as numpy.fft.fftshift along the last axis:
// output[j] = input[(j + ceil(length / 2)) mod length] within each vector. For odd lengths
// this is not its own inverse (numpy's ifftshift is). `count` is length times the number of
// vectors. Input and output must not overlap: items move between threads.

#include "grcuda_common.cuh"

extern "C" __global__ void grcuda_fft_shift(const complex64* input, complex64* output,
                                            count_type length, count_type count) {
    const count_type rotation = length - length / 2;
    GRID_STRIDE_LOOP(i, count) {
        const count_type position = i % length;
        const count_type vector_start = i - position;
        count_type source = position + rotation;
        if (source >= length) {
            source -= length;
        }
        output[i] = input[vector_start + source];
    }
}
