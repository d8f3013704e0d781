// SPDX-License-Identifier: GPL-3.0-or-later

// Complex magnitude and squared magnitude: complex64 in, float32 out, like GNU Radio's
// complex_to_mag and complex_to_mag_squared (sqrt(re^2 + im^2), no overflow-avoiding hypot).

#include "grcuda_common.cuh"

extern "C" __global__ void grcuda_magnitude(const complex64* input, float* output,
                                            count_type count) {
    write_each_item(output, count, [&](count_type i) {
        const complex64 x = input[i];
        return sqrtf(x.real * x.real + x.imag * x.imag);
    });
}

extern "C" __global__ void grcuda_magnitude_squared(const complex64* input, float* output,
                                                    count_type count) {
    write_each_item(output, count, [&](count_type i) {
        const complex64 x = input[i];
        return x.real * x.real + x.imag * x.imag;
    });
}
