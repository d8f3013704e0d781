/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Must not compile without CUDA's headers: a CUDA runtime status checked as the
// reference's blocks check it (lib/CMakeLists.txt checks the compiler's message). The
// enum stands for cudaError_t, which only CUDA's headers declare.

#include <gnuradio/cuda/cuda_error.h>

enum runtime_status { runtime_success };

void check(runtime_status status) { check_cuda_errors(status, "cudaMalloc"); }
