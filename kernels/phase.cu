// SPDX-License-Identifier: GPL-3.0-or-later

// Phase: GNU Radio's quadrature_demod_cf (the angle between consecutive samples, times a
// gain) and rotator_cc (multiply by a unit phasor whose angle grows by a fixed increment).
//
// quadrature_demod reads count + 1 input items (the block's history of 2): output i is
// gain * fast_atan2f(input[i + 1] * conj(input[i])), as GNU Radio computes it.
//
// rotator computes each sample's angle in double precision from the call's start phase,
// which the host carries across calls, so the output does not depend on how the stream is
// split into calls and does not drift: angle i = start_phase + i * increment, brought into
// [-pi, pi] before the float sine and cosine.

#include "fast_atan2.cuh"
#include "grcuda_common.cuh"

extern "C" __global__ void grcuda_quadrature_demod(const complex64* input, float* output,
                                                   count_type count, float gain) {
    write_each_item(output, count, [&](count_type i) {
        const complex64 product = grcuda::multiply_conjugate(input[i + 1], input[i]);
        return gain * grcuda::fast_atan2f(product.imag, product.real);
    });
}

extern "C" __global__ void grcuda_rotator(const complex64* input, complex64* output,
                                          count_type count, double start_phase,
                                          double increment) {
    const double two_pi = 6.283185307179586476925286766559;
    write_each_item(output, count, [&](count_type i) {
        double angle = fma((double)i, increment, start_phase);
        angle -= two_pi * rint(angle / two_pi);
        float sine, cosine;
        sincosf((float)angle, &sine, &cosine);
        return grcuda::multiply(input[i], complex64{cosine, sine});
    });
}
