// SPDX-License-Identifier: GPL-3.0-or-later

// Complex magnitude and squared magnitude: complex64 in, float32 out, like GNU Radio's
// complex_to_mag and complex_to_mag_squared (sqrt(re^2 + im^2), no overflow-avoiding hypot).

#include "grcuda_common.cuh"

extern "C" __global__ void grcuda_magnitude(const complex64* input, float* output,
                                            count_type count) {
    GRID_STRIDE_LOOP(i, count) {
        const complex64 x = input[i];
        output[i] = sqrtf(x.real * x.real + x.imag * x.imag);
    }
}

extern "C" __global__ void grcuda_magnitude_squared(const complex64* input, float* output,
                                                    count_type count) {
    GRID_STRIDE_LOOP(i, count) {
        const complex64 x = input[i];
        output[i] = x.real * x.real + x.imag * x.imag;
    }
}
