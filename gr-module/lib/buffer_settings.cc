/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "buffer_settings.h"
#include <gnuradio/cuda/device.h>
#include <gnuradio/prefs.h>
#include <grcuda.h>
#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace gr {
namespace cuda {

namespace {

//! On a GPU, large enough for calls that hide a launch's CPU cost behind the GPU work; on
//! the simulated backend, where a call costs the same per item whatever its size, small:
//! its rings are host memory that a long run touches in full.
constexpr long gpu_ring_floor_bytes = 64L << 20;
constexpr long simulated_ring_floor_bytes = 1L << 20;
//! The share of free device memory one buffer's floor may take: 30 GPU blocks on an 8 GiB
//! card stay under half its memory.
constexpr uint64_t free_memory_share = 64;

} // namespace

uint32_t host_wait_mode()
{
    const char* variable = std::getenv("GRCUDA_HOST_WAIT");
    const bool from_variable = variable && *variable;
    const std::string mode =
        from_variable
            ? std::string(variable)
            : gr::prefs::singleton()->get_string("cuda", "host_wait", "adaptive");
    if (mode == "adaptive" || mode.empty()) {
        return GRCUDA_HOST_WAIT_ADAPTIVE;
    }
    if (mode == "spin") {
        return GRCUDA_HOST_WAIT_SPIN;
    }
    if (mode == "block") {
        return GRCUDA_HOST_WAIT_BLOCK;
    }
    const std::string where = from_variable ? "GRCUDA_HOST_WAIT" : "[cuda] host_wait";
    throw std::invalid_argument("gr-cuda: " + where + "=\"" + mode +
                                "\" is not a way to wait for the GPU: use adaptive (the "
                                "default), spin or block, or unset it");
}

size_t ring_floor_bytes()
{
    const long floor = gr::prefs::singleton()->get_long(
        "cuda",
        "ring_floor_bytes",
        simulated() ? simulated_ring_floor_bytes : gpu_ring_floor_bytes);
    if (floor < 0) {
        throw std::invalid_argument(
            "gr-cuda: [cuda] ring_floor_bytes=" + std::to_string(floor) +
            " is negative: use a size in bytes (0 sizes rings as "
            "GNU Radio asks)");
    }
    return static_cast<size_t>(floor);
}

size_t ring_share_bytes()
{
    return static_cast<size_t>(free_memory() / free_memory_share);
}

} // namespace cuda
} // namespace gr
