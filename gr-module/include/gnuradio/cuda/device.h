/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_DEVICE_H
#define INCLUDED_CUDA_DEVICE_H

#include <gnuradio/cuda/api.h>
#include <grcuda.h>
#include <string>

namespace gr {
namespace cuda {

/*!
 * \brief The device every block and buffer of this process uses.
 *
 * Opened on first use: ordinal $GRCUDA_DEVICE (default 0) on the backend $GRCUDA_BACKEND
 * chooses (cuda, simulated, or auto: the GPU when there is one). Logs once which it is.
 * Throws std::invalid_argument when $GRCUDA_DEVICE is not a non-negative integer, and
 * std::runtime_error with the library's message when no device can be opened.
 */
CUDA_API const grcuda_device* device();

//! Whether device() is the simulated backend (host memory, CPU kernels).
CUDA_API bool simulated();

//! The CUDA ordinal of device(), for libraries that run on the same GPU (CuPy, PyTorch).
CUDA_API int device_ordinal();

//! Free memory of device() in bytes now (the simulated backend accounts its own).
CUDA_API uint64_t free_memory();

/*!
 * The folder of libgrcuda's kernel cache, where the kernels compiled for the GPU are kept
 * for later processes: $GRCUDA_KERNEL_CACHE, else the kernel_cache option of GNU Radio's
 * [cuda] preferences, else $XDG_CACHE_HOME/grcuda/kernels or ~/.cache/grcuda/kernels;
 * empty when there is none.
 */
CUDA_API std::string kernel_cache_directory();

//! Throws std::runtime_error("<what>: <message>") when \p status is not GRCUDA_STATUS_OK.
CUDA_API void check(grcuda_status status, const char* what);

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_DEVICE_H */
