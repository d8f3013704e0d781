// SPDX-License-Identifier: GPL-3.0-or-later

// FFT shifts of complex64 vectors: each vector of `length` items is rotated left by
// `rotation` items, output[j] = input[(j + rotation) mod length] within each vector.
// numpy.fft.fftshift is the rotation by ceil(length / 2) (the zero-frequency bin moves to
// the middle), numpy.fft.ifftshift the rotation by floor(length / 2) (it moves back); the
// two differ for odd lengths. `count` is length times the number of vectors and
// rotation < length. Input and output must not overlap: items move between threads.

#include "grcuda_common.cuh"

extern "C" __global__ void grcuda_fft_shift(const complex64* input, complex64* output,
                                            count_type length, count_type rotation,
                                            count_type count) {
    write_each_item(output, count, [&](count_type i) {
        const count_type position = i % length;
        const count_type vector_start = i - position;
        count_type source = position + rotation;
        if (source >= length) {
            source -= length;
        }
        return input[vector_start + source];
    });
}
