// SPDX-License-Identifier: GPL-3.0-or-later

// Shared by every grcuda kernel source: item types, arithmetic that matches the CPU backend,
// the grid-stride loops, the type lists kernels are instantiated for, and pointer groups.
//
// The sources are compiled at run time by NVRTC, which has no system headers, so nothing here
// includes anything: the built-in CUDA types (uint4, threadIdx, ...) are all that is used. The
// host passes every count as a 64-bit integer and every array as a device address; kernels
// never assume that the grid covers the work, so any grid size is correct and the host picks
// one for speed only.

#pragma once

typedef unsigned long long count_type;

// A complex float laid out as std::complex<float> / numpy complex64 / GNU Radio gr_complex.
// Aligned to 8 bytes so that one item is one 64-bit load; the host checks the alignment.
struct __align__(8) complex64 {
    float real;
    float imag;
};

namespace grcuda {

// Integer arithmetic wraps like C on two's-complement machines (and like Rust's
// wrapping_mul/wrapping_add, which the CPU backend uses): 16-bit operands are promoted to int,
// where their product cannot overflow, and 32-bit ones are computed unsigned, where overflow is
// defined, then converted back.
__device__ inline short multiply(short a, short b) { return (short)((int)a * (int)b); }
__device__ inline int multiply(int a, int b) { return (int)((unsigned int)a * (unsigned int)b); }
__device__ inline float multiply(float a, float b) { return a * b; }
__device__ inline complex64 multiply(complex64 a, complex64 b) {
    return complex64{a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real};
}

__device__ inline short add(short a, short b) { return (short)((int)a + (int)b); }
__device__ inline int add(int a, int b) { return (int)((unsigned int)a + (unsigned int)b); }
__device__ inline float add(float a, float b) { return a + b; }
__device__ inline complex64 add(complex64 a, complex64 b) {
    return complex64{a.real + b.real, a.imag + b.imag};
}

__device__ inline short subtract(short a, short b) { return (short)((int)a - (int)b); }
__device__ inline int subtract(int a, int b) { return (int)((unsigned int)a - (unsigned int)b); }
__device__ inline float subtract(float a, float b) { return a - b; }
__device__ inline complex64 subtract(complex64 a, complex64 b) {
    return complex64{a.real - b.real, a.imag - b.imag};
}

// a * conj(b), as volk_32fc_x2_multiply_conjugate_32fc computes it.
__device__ inline complex64 multiply_conjugate(complex64 a, complex64 b) {
    return complex64{a.real * b.real + a.imag * b.imag, a.imag * b.real - a.real * b.imag};
}

// Scaling by a real factor (window functions).
__device__ inline float scale(float a, float factor) { return a * factor; }
__device__ inline complex64 scale(complex64 a, float factor) {
    return complex64{a.real * factor, a.imag * factor};
}

// Filters' multiply-adds: sum + sample * tap as explicit fused multiply-adds (a complex
// product as four, real part first), so that the CPU backend, which does the same with
// mul_add in the same order, rounds alike.
__device__ inline float multiply_add(float sample, float tap, float sum) { return __fmaf_rn(sample, tap, sum); }
__device__ inline complex64 multiply_add(complex64 sample, float tap, complex64 sum) {
    return complex64{__fmaf_rn(sample.real, tap, sum.real), __fmaf_rn(sample.imag, tap, sum.imag)};
}
__device__ inline complex64 multiply_add(complex64 sample, complex64 tap, complex64 sum) {
    float real = __fmaf_rn(sample.real, tap.real, sum.real);
    real = __fmaf_rn(-sample.imag, tap.imag, real);
    float imag = __fmaf_rn(sample.real, tap.imag, sum.imag);
    imag = __fmaf_rn(sample.imag, tap.real, imag);
    return complex64{real, imag};
}

template <typename T>
__device__ inline T zero();
template <>
__device__ inline float zero<float>() { return 0.0f; }
template <>
__device__ inline complex64 zero<complex64>() { return complex64{0.0f, 0.0f}; }

}  // namespace grcuda

// Visits every index in [0, count) once across the whole grid.
#define GRID_STRIDE_LOOP(index, count)                                                        \
    for (count_type index = (count_type)blockIdx.x * blockDim.x + threadIdx.x; index < (count); \
         index += (count_type)gridDim.x * blockDim.x)

// Items each thread of an elementwise kernel takes per step of its grid-stride loop; the host
// launches count / ITEMS_PER_THREAD threads for these kernels (launch.rs has the same number).
// A thread reads all the items of a step before it writes any: with one 4-byte read per thread
// in flight, a full GPU keeps too few bytes in flight to use its memory bandwidth (on the H200,
// multiply_const_ff at 2^22 items ran at 79% of the copy kernel's rate with one item per
// thread, 101% with four), and the compiler cannot hoist the next index's reads above this
// index's write itself, since an output may be an input. The copy kernel, which moves 16-byte
// units, keeps one unit per thread: four made it 5% slower.
#define ITEMS_PER_THREAD 4

// The loop of the elementwise kernels: calls step(first, stride) for each step of each thread,
// which covers the indices first + k * stride (k < ITEMS_PER_THREAD) that are below count.
// Every index in [0, count) is in exactly one step of one thread.
template <typename Step>
__device__ inline void for_each_step(count_type count, Step step) {
    const count_type stride = (count_type)gridDim.x * blockDim.x;
    for (count_type first = (count_type)blockIdx.x * blockDim.x + threadIdx.x; first < count;
         first += ITEMS_PER_THREAD * stride) {
        step(first, stride);
    }
}

// Visits every index in [0, count) once across the whole grid: value(i) (the reads and the
// arithmetic) for each index of a step, then store(i, value) for each. The same thread reads
// and then writes each index, so output item i may overwrite input item i.
template <typename Value, typename Store>
__device__ inline void for_each_item(count_type count, Value value, Store store) {
    for_each_step(count, [&](count_type first, count_type stride) {
        decltype(value(first)) values[ITEMS_PER_THREAD];
#pragma unroll
        for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
            if (first + k * stride < count) {
                values[k] = value(first + k * stride);
            }
        }
#pragma unroll
        for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
            if (first + k * stride < count) {
                store(first + k * stride, values[k]);
            }
        }
    });
}

// output[i] = value(i) for every i in [0, count), as for_each_item computes it.
template <typename Out, typename Value>
__device__ inline void write_each_item(Out* output, count_type count, Value value) {
    for_each_item(count, value, [output](count_type i, Out item) { output[i] = item; });
}

// Staging a tile of device memory into shared memory: each thread's stage_item() copies are
// asynchronous (cp.async, compute capability 8.0 and newer), all in flight at once and
// holding no registers, where a loop of loads and stores waits out the memory's latency once
// per item. wait_for_staged_items() waits for the calling thread's copies; a __syncthreads()
// after it publishes every thread's.

// *shared = *global, or zero where !valid.
template <typename T>
__device__ inline void stage_item(T* shared, const T* global, bool valid) {
#if __CUDA_ARCH__ >= 800
    const unsigned address = (unsigned)__cvta_generic_to_shared(shared);
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(address), "l"(global),
                 "n"((int)sizeof(T)), "r"(valid ? (int)sizeof(T) : 0)
                 : "memory");
#else
    *shared = valid ? *global : T();
#endif
}

__device__ inline void wait_for_staged_items() {
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// Instantiates MACRO(name, type) for the arithmetic item types. The names are the kernel name
// suffixes the host builds from its Element trait.
#define FOR_EACH_ARITHMETIC_TYPE(MACRO) \
    MACRO(int16, short)                 \
    MACRO(int32, int)                   \
    MACRO(float32, float)               \
    MACRO(complex64, complex64)

// Instantiates MACRO(bytes, type) for the units that byte-moving kernels copy in one step.
// The host picks the widest unit that divides every address and size involved.
#define FOR_EACH_MOVE_UNIT(MACRO)   \
    MACRO(1, unsigned char)         \
    MACRO(2, unsigned short)        \
    MACRO(4, unsigned int)          \
    MACRO(8, unsigned long long)    \
    MACRO(16, uint4)

// How many arrays one launch of a many-array kernel (add, interleave, deinterleave) takes, by
// value in its parameter block. The host splits larger sets into passes.
#define POINTER_GROUP_SIZE 16

template <typename Pointer>
struct PointerGroup {
    Pointer pointers[POINTER_GROUP_SIZE];
};

// Pointer `index` of a group. Indexing a by-value parameter array with a run-time index makes
// the compiler copy the whole array to local memory; comparing against every constant index
// (an unrolled loop of predicated moves) keeps it in parameter space and registers.
template <typename Pointer>
__device__ inline Pointer select_pointer(const PointerGroup<Pointer>& group, unsigned int index) {
    Pointer chosen = group.pointers[0];
#pragma unroll
    for (unsigned int i = 1; i < POINTER_GROUP_SIZE; ++i) {
        if (i == index) {
            chosen = group.pointers[i];
        }
    }
    return chosen;
}

// output[i] = combine(...combine(combine(inputs[0][i], inputs[1][i]), inputs[2][i])...) over the
// first input_count pointers: the many-input kernels (add, multiply). Output may be one of
// the inputs: each thread reads index i of every input before it writes index i. A step reads
// input by input, all its items of one input at once: whether an input is used is a branch,
// and reads behind a branch wait for the combines before it.
template <typename T, typename Combine>
__device__ void combine_arrays(const PointerGroup<const T*>& inputs, unsigned int input_count,
                               T* output, count_type count, Combine combine) {
    for_each_step(count, [&](count_type first, count_type stride) {
        T totals[ITEMS_PER_THREAD];
#pragma unroll
        for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
            if (first + k * stride < count) {
                totals[k] = inputs.pointers[0][first + k * stride];
            }
        }
        // Unrolled over constant indices, so that the pointers stay out of local memory (see
        // select_pointer); input_count is the same for every thread, so nothing diverges.
#pragma unroll
        for (unsigned int input = 1; input < POINTER_GROUP_SIZE; ++input) {
            if (input < input_count) {
                T items[ITEMS_PER_THREAD];
#pragma unroll
                for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
                    if (first + k * stride < count) {
                        items[k] = inputs.pointers[input][first + k * stride];
                    }
                }
#pragma unroll
                for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
                    if (first + k * stride < count) {
                        totals[k] = combine(totals[k], items[k]);
                    }
                }
            }
        }
#pragma unroll
        for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
            if (first + k * stride < count) {
                output[first + k * stride] = totals[k];
            }
        }
    });
}
