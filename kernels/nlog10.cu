// SPDX-License-Identifier: GPL-3.0-or-later

// output[i] = factor * log10(input[i]) + offset on float32, like GNU Radio's nlog10_ff, which
// first clamps its input to the smallest normal float: zero, negative and subnormal inputs
// give factor * log10(FLT_MIN) + offset (-379.3 for factor 10, offset 0), so silence stays a
// finite level through averaging and plots. Infinity is clamped to FLT_MAX (GNU Radio's VOLK
// logarithm gives a finite value there too; nlog10_cupy clamps the same way); NaN stays NaN.
// Output may equal input.

#include "grcuda_common.cuh"

// FLT_MIN and FLT_MAX (NVRTC has no <cfloat>).
constexpr float smallest_normal = 1.17549435e-38f;
constexpr float largest_finite = 3.40282347e+38f;

extern "C" __global__ void grcuda_nlog10(const float* input, float* output, count_type count,
                                         float factor, float offset) {
    write_each_item(output, count, [&](count_type i) {
        const float x = input[i];
        // Comparisons rather than fminf/fmaxf, which would turn NaN into a bound.
        const float clamped = x < smallest_normal ? smallest_normal : (x > largest_finite ? largest_finite : x);
        return factor * log10f(clamped) + offset;
    });
}
