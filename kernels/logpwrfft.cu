// SPDX-License-Identifier: GPL-3.0-or-later

// GNU Radio's logpwrfft chain in two kernels around one batched cuFFT.
//
// grcuda_logpwrfft_frames_*: the FFT input. Frame f is the `length` items that start at
// input[f * stride] (the vector stream_to_vector_decimator keeps), each multiplied by its
// window tap and made complex, as fft_vcc / fft_vfc do before their transform.
//
// grcuda_logpwrfft_power / _average: from the spectra, 10 * log10(max(power, FLT_MIN)) +
// offset per bin, as complex_to_mag_squared, single_pole_iir_filter_ff and nlog10_ff do.
// With `rotation` > 0, output bin j reads spectrum bin (j + rotation) mod length: fft_vcc's
// shift after its transform, done here as an index so that the FFT input needs no shift
// (which for odd lengths would be a phase ramp and change the rounding). `state` holds
// single_pole_iir_filter_ff's previous output per bin (a float, as GNU Radio keeps it):
// _power is the filter with alpha = 1 (y = x exactly, one thread per item), _average the
// filter with any alpha, one thread per bin running through the frames in order, in double
// precision with separate multiply and add roundings as the CPU computes y = alpha * x +
// (1 - alpha) * y_prev. Either way the state after the call is the last frame's output, so
// output does not depend on how the stream is split into calls.

#include "grcuda_common.cuh"

namespace {

__device__ inline complex64 windowed(float x, float tap) { return complex64{x * tap, 0.0f}; }
__device__ inline complex64 windowed(complex64 x, float tap) {
    return complex64{x.real * tap, x.imag * tap};
}

__device__ inline float power(complex64 x) {
    return __fadd_rn(__fmul_rn(x.real, x.real), __fmul_rn(x.imag, x.imag));
}

// nlog10_ff's lower bound: the smallest normal float, so silence gives a finite level.
__device__ inline float decibels(float power, float offset) {
    return 10.0f * log10f(fmaxf(power, 1.17549435e-38f)) + offset;
}

__device__ inline count_type source_bin(count_type position, count_type rotation,
                                        count_type length) {
    const count_type source = position + rotation;
    return source >= length ? source - length : source;
}

}  // namespace

#define LOGPWRFFT_FRAMES_KERNEL(name, T)                                                       \
    extern "C" __global__ void grcuda_logpwrfft_frames_##name(                                  \
        const T* input, count_type stride, const float* window, complex64* output,             \
        count_type length, count_type count) {                                                 \
        GRID_STRIDE_LOOP(i, count) {                                                           \
            const count_type frame = i / length;                                               \
            const count_type position = i - frame * length;                                    \
            output[i] = windowed(input[frame * stride + position], window[position]);          \
        }                                                                                      \
    }

LOGPWRFFT_FRAMES_KERNEL(float32, float)
LOGPWRFFT_FRAMES_KERNEL(complex64, complex64)

extern "C" __global__ void grcuda_logpwrfft_power(const complex64* spectrum, float* output,
                                                  float* state, count_type length,
                                                  count_type rotation, count_type frames,
                                                  float offset) {
    const count_type count = length * frames;
    GRID_STRIDE_LOOP(i, count) {
        const count_type frame = i / length;
        const count_type position = i - frame * length;
        const float value = power(spectrum[frame * length + source_bin(position, rotation, length)]);
        output[i] = decibels(value, offset);
        if (frame + 1 == frames) {
            state[position] = value;
        }
    }
}

// Frames whose spectrum a thread of _average loads at once: the loads do not depend on the
// running average, so they go out together instead of costing a memory latency per frame.
#define AVERAGE_FRAMES_IN_FLIGHT 8

extern "C" __global__ void grcuda_logpwrfft_average(const complex64* spectrum, float* output,
                                                    float* state, count_type length,
                                                    count_type rotation, count_type frames,
                                                    float offset, double alpha,
                                                    double one_minus_alpha) {
    GRID_STRIDE_LOOP(position, length) {
        const count_type source = source_bin(position, rotation, length);
        float previous = state[position];
        for (count_type first = 0; first < frames; first += AVERAGE_FRAMES_IN_FLIGHT) {
            float values[AVERAGE_FRAMES_IN_FLIGHT];
#pragma unroll
            for (int f = 0; f < AVERAGE_FRAMES_IN_FLIGHT; f++) {
                values[f] = first + f < frames ? power(spectrum[(first + f) * length + source]) : 0.0f;
            }
#pragma unroll
            for (int f = 0; f < AVERAGE_FRAMES_IN_FLIGHT; f++) {
                if (first + f < frames) {
                    previous = (float)__dadd_rn(__dmul_rn(alpha, (double)values[f]),
                                                __dmul_rn(one_minus_alpha, (double)previous));
                    output[(first + f) * length + position] = decibels(previous, offset);
                }
            }
        }
        state[position] = previous;
    }
}
