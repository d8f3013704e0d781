/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_CUDA_ERROR_H
#define INCLUDED_CUDA_CUDA_ERROR_H

// The reference gr-cuda module's error checks (docs/PORTING.md), in the global namespace
// as there: check_cuda_errors(status, context, logger) logs the failure when given a
// logger and throws std::runtime_error("<context>: <error name> -- <description>");
// throw_on_cuda_error(context, status) always throws.
//
// This module needs no CUDA headers: its own calls return grcuda_status, which the
// overloads here check. The CUDA runtime and driver overloads (cudaError_t, CUresult)
// exist where the including code has CUDA's headers on its include path, as a block that
// calls the CUDA runtime does (find_package(CUDAToolkit), CUDA::cudart); their
// definitions call cudaGetErrorName/cuGetErrorName, so such a block links the runtime or
// the driver, as it does for its other CUDA calls.

#include <gnuradio/logger.h>
#include <grcuda.h>
#include <memory>
#include <stdexcept>
#include <string>

namespace gr {
namespace cuda {
namespace error_detail {

[[noreturn]] inline void raise(const char* context,
                               const char* name,
                               const char* description,
                               const std::shared_ptr<gr::logger>& logger)
{
    const std::string message = std::string(context) + ": " + name + " -- " +
                                (description != nullptr ? description : "");
    if (logger) {
        logger->error("{}", message);
    }
    throw std::runtime_error(message);
}

//! No CUDA runtime or driver status type without CUDA's headers (see the top).
template <typename Status>
constexpr bool needs_cuda_headers = false;

} // namespace error_detail
} // namespace cuda
} // namespace gr

//! Throws (after logging to \p logger, if given) when \p status is not GRCUDA_STATUS_OK.
inline void check_cuda_errors(grcuda_status status,
                              const char* context = "gr-cuda operation failed",
                              const std::shared_ptr<gr::logger>& logger = nullptr)
{
    if (status != GRCUDA_STATUS_OK) {
        gr::cuda::error_detail::raise(
            context, grcuda_status_name(status), grcuda_last_error_message(), logger);
    }
}

//! Always throws: call it when \p status is a failure.
[[noreturn]] inline void throw_on_cuda_error(const char* context, grcuda_status status)
{
    gr::cuda::error_detail::raise(
        context, grcuda_status_name(status), grcuda_last_error_message(), nullptr);
}

#if __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>

inline void check_cuda_errors(cudaError_t status,
                              const char* context = "CUDA operation failed",
                              const std::shared_ptr<gr::logger>& logger = nullptr)
{
    if (status != cudaSuccess) {
        gr::cuda::error_detail::raise(
            context, cudaGetErrorName(status), cudaGetErrorString(status), logger);
    }
}

[[noreturn]] inline void throw_on_cuda_error(const char* context, cudaError_t status)
{
    gr::cuda::error_detail::raise(
        context, cudaGetErrorName(status), cudaGetErrorString(status), nullptr);
}
#endif

#if __has_include(<cuda.h>)
#include <cuda.h>

inline void check_cuda_errors(CUresult status,
                              const char* context = "CUDA driver operation failed",
                              const std::shared_ptr<gr::logger>& logger = nullptr)
{
    if (status != CUDA_SUCCESS) {
        const char* name = nullptr;
        const char* description = nullptr;
        cuGetErrorName(status, &name);
        cuGetErrorString(status, &description);
        gr::cuda::error_detail::raise(
            context, name != nullptr ? name : "CUDA_ERROR_UNKNOWN", description, logger);
    }
}
#endif

#if !__has_include(<cuda_runtime_api.h>) || !__has_include(<cuda.h>)
//! Any other status type: a CUDA runtime or driver status whose headers this compilation
//! does not have.
template <typename Status>
void check_cuda_errors(Status,
                       const char* = nullptr,
                       const std::shared_ptr<gr::logger>& = nullptr)
{
    static_assert(
        gr::cuda::error_detail::needs_cuda_headers<Status>,
        "check_cuda_errors(cudaError_t or CUresult) needs CUDA's headers: "
        "find_package(CUDAToolkit) and link the block's library to CUDA::cudart "
        "(runtime) or CUDA::cuda_driver (driver); gr-cuda's own calls return "
        "grcuda_status, which check_cuda_errors takes without CUDA");
}
#endif

#endif /* INCLUDED_CUDA_CUDA_ERROR_H */
