// SPDX-License-Identifier: GPL-3.0-or-later

// The elementwise operations of GNU Radio's math and type-conversion blocks: multiply N
// arrays (multiply_XX), multiply by the conjugate, conjugate, the parts of complex numbers
// (complex_to_float/real/imag/arg), building complex numbers (float_to_complex), and the
// strided copy of keep_one_in_n. Each output item depends on the input items of its own
// index only (keep_one_in_n: of index i * n), so every kernel is one grid-stride loop with
// coalesced accesses (for_each_item); output may equal an input of the same type.

#include "fast_atan2.cuh"
#include "grcuda_common.cuh"

// output[i] = op(input[i]).
template <typename In, typename Out, typename Operation>
__device__ void map(const In* input, Out* output, count_type count, Operation operation) {
    write_each_item(output, count, [&](count_type i) { return operation(input[i]); });
}

// output[i] = op(first[i], second[i]).
template <typename First, typename Second, typename Out, typename Operation>
__device__ void zip(const First* first, const Second* second, Out* output, count_type count,
                    Operation operation) {
    write_each_item(output, count, [&](count_type i) { return operation(first[i], second[i]); });
}

#define MULTIPLY_KERNEL(name, T)                                                               \
    extern "C" __global__ void grcuda_multiply_##name(PointerGroup<const T*> inputs,          \
                                                      unsigned int input_count, T* output,     \
                                                      count_type count) {                      \
        combine_arrays(inputs, input_count, output, count,                                     \
                       [](T a, T b) { return grcuda::multiply(a, b); });                       \
    }

FOR_EACH_ARITHMETIC_TYPE(MULTIPLY_KERNEL)

extern "C" __global__ void grcuda_multiply_conjugate(const complex64* first,
                                                     const complex64* second, complex64* output,
                                                     count_type count) {
    zip(first, second, output, count,
        [](complex64 a, complex64 b) { return grcuda::multiply_conjugate(a, b); });
}

extern "C" __global__ void grcuda_conjugate(const complex64* input, complex64* output,
                                            count_type count) {
    map(input, output, count, [](complex64 x) { return complex64{x.real, -x.imag}; });
}

extern "C" __global__ void grcuda_complex_to_real(const complex64* input, float* output,
                                                  count_type count) {
    map(input, output, count, [](complex64 x) { return x.real; });
}

extern "C" __global__ void grcuda_complex_to_imag(const complex64* input, float* output,
                                                  count_type count) {
    map(input, output, count, [](complex64 x) { return x.imag; });
}

extern "C" __global__ void grcuda_complex_to_arg(const complex64* input, float* output,
                                                 count_type count) {
    map(input, output, count, [](complex64 x) { return grcuda::fast_atan2f(x.imag, x.real); });
}

extern "C" __global__ void grcuda_complex_to_float(const complex64* input, float* real,
                                                   float* imag, count_type count) {
    for_each_item(
        count, [&](count_type i) { return input[i]; },
        [&](count_type i, complex64 x) {
            real[i] = x.real;
            imag[i] = x.imag;
        });
}

extern "C" __global__ void grcuda_float_to_complex(const float* real, const float* imag,
                                                   complex64* output, count_type count) {
    zip(real, imag, output, count, [](float re, float im) { return complex64{re, im}; });
}

// GNU Radio's float_to_complex with one input: the imaginary parts are 0.
extern "C" __global__ void grcuda_float_to_complex_real(const float* real, complex64* output,
                                                        count_type count) {
    map(real, output, count, [](float re) { return complex64{re, 0.0f}; });
}

// output item j = input item j * n, for items of units_per_item units; input starts at the
// first kept item. Most items are one unit (the host picks the widest unit that divides the
// item size), which spares the 64-bit division.
template <typename Unit>
__device__ void keep_one_in_n(const Unit* input, Unit* output, count_type items,
                              count_type units_per_item, count_type n) {
    if (units_per_item == 1) {
        write_each_item(output, items, [&](count_type j) { return input[j * n]; });
        return;
    }
    write_each_item(output, items * units_per_item, [&](count_type i) {
        const count_type item = i / units_per_item;
        return input[(item * n) * units_per_item + (i - item * units_per_item)];
    });
}

#define KEEP_ONE_IN_N_KERNEL(bytes, Unit)                                                      \
    extern "C" __global__ void grcuda_keep_one_in_n_unit##bytes(                               \
        const Unit* input, Unit* output, count_type items, count_type units_per_item,          \
        count_type n) {                                                                        \
        keep_one_in_n(input, output, items, units_per_item, n);                                \
    }

FOR_EACH_MOVE_UNIT(KEEP_ONE_IN_N_KERNEL)
