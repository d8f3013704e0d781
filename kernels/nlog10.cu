// SPDX-License-Identifier: GPL-3.0-or-later

// output[i] = factor * log10(input[i]) + offset on float32, like GNU Radio's nlog10_ff.
// Zero gives -infinity and negative input NaN, as log10f does; no clamping.
// Output may equal input.

#include "grcuda_common.cuh"

extern "C" __global__ void grcuda_nlog10(const float* input, float* output, count_type count,
                                         float factor, float offset) {
    write_each_item(output, count, [&](count_type i) { return factor * log10f(input[i]) + offset; });
}
