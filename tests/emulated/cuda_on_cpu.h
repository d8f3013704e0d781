// SPDX-License-Identifier: GPL-3.0-or-later

// The CUDA dialect of kernels/*.cu on the CPU, for tests without a GPU: a kernel compiled
// as host C++ runs one block at a time, each CUDA thread a std::thread, __syncthreads a
// std::barrier of the block's threads. The threads run concurrently, so what a kernel
// shares through shared memory must be ordered by its barriers as on a GPU. Shared memory
// is a fresh allocation of exactly the launch's dynamic size per block, filled with a
// pattern, so that an address sanitizer catches reads past it and nothing may rely on its
// contents; static `__shared__` arrays become function statics. Code behind
// `__CUDA_ARCH__` (asynchronous copies) takes its portable branch.
//
// tests/emulated_kernels.rs rewrites each `extern __shared__ T name[];` of a kernel
// source into `T* name = reinterpret_cast<T*>(emulated_shared_memory);` before compiling
// it.

#pragma once

#include <algorithm>
#include <barrier>
#include <cmath>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

#define __device__
#define __global__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
#define __restrict__ __restrict
// A block's static shared arrays: one per function, which the block's threads share
// (blocks run one at a time).
#define __shared__ static

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};
inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

struct alignas(16) float4 {
    float x, y, z, w;
};
struct alignas(8) float2 {
    float x, y;
};
struct alignas(16) uint4 {
    unsigned x, y, z, w;
};

inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline float __log10f(float a) { return std::log10(a); }
template <typename T>
inline T __ldg(const T* address)
{
    return *address;
}
inline void sincos(double angle, double* sine, double* cosine)
{
    *sine = std::sin(angle);
    *cosine = std::cos(angle);
}
using std::max;
using std::min;

inline std::barrier<>* emulated_block_barrier;
inline void __syncthreads() { emulated_block_barrier->arrive_and_wait(); }

inline unsigned char* emulated_shared_memory;

// Runs kernel() as a grid of `blocks` blocks of `threads` threads with `shared_bytes` of
// dynamic shared memory.
inline void launch(unsigned blocks,
                   unsigned threads,
                   std::size_t shared_bytes,
                   const std::function<void()>& kernel)
{
    gridDim.x = blocks;
    blockDim.x = threads;
    for (unsigned block = 0; block < blocks; ++block) {
        std::vector<unsigned char> shared(shared_bytes, 0xcd);
        emulated_shared_memory = shared.data();
        std::barrier<> barrier(threads);
        emulated_block_barrier = &barrier;
        std::vector<std::thread> block_threads;
        for (unsigned thread = 0; thread < threads; ++thread) {
            block_threads.emplace_back([&kernel, block, thread] {
                blockIdx.x = block;
                threadIdx.x = thread;
                kernel();
            });
        }
        for (std::thread& running : block_threads) {
            running.join();
        }
    }
}
