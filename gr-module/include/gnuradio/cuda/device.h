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

//! The `device` argument of every GPU block that asks for the default device.
constexpr int default_device = -1;

/*!
 * \brief A device of this process's backend, opened on first use and kept open for the
 * rest of the process.
 *
 * \p ordinal is a CUDA device ordinal, or default_device for the default device: ordinal
 * [cuda] device / $GRCUDA_DEVICE (0 when unset). The backend is the one [cuda] backend /
 * $GRCUDA_BACKEND chooses for the default device (cuda, simulated, or auto: the GPU when
 * there is one); every device of the process is of that backend. Logs once per device
 * which it is. Throws std::invalid_argument when $GRCUDA_DEVICE is not a non-negative
 * integer or \p ordinal is not a device of the backend (the message says which there
 * are), and std::runtime_error with the library's message when no device can be opened.
 */
CUDA_API const grcuda_device* device(int ordinal = default_device);

//! How many devices the process's backend has.
CUDA_API int device_count();

//! Whether the process's backend is the simulated one (host memory, CPU kernels).
CUDA_API bool simulated();

//! The CUDA ordinal of device(\p ordinal), for libraries that run on the same GPU (CuPy,
//! PyTorch): \p ordinal itself, or the default device's for default_device.
CUDA_API int device_ordinal(int ordinal = default_device);

//! Free memory of device(\p ordinal) in bytes now (the simulated backend accounts its
//! own, per device).
CUDA_API uint64_t free_memory(int ordinal = default_device);

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
