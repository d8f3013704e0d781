/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "settings.h"
#include <gnuradio/cuda/device.h>
#include <gnuradio/prefs.h>
#include <grcuda.h>
#include <algorithm>
#include <climits>
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
constexpr long default_ring_calls = 2;
//! The share of free device memory one buffer's floor may take: 30 GPU blocks on an 8 GiB
//! card stay under half its memory.
constexpr uint64_t free_memory_share = 64;

//! A setting and where it came from: gr-cuda's variable where set and not empty, else the
//! [cuda] preference (or GR_CONF_CUDA_<OPTION>), else \p fallback.
struct setting {
    std::string value;
    std::string source;
};

setting lookup(const char* variable, const char* option, const char* fallback)
{
    const char* text = std::getenv(variable);
    if (text && *text) {
        return { text, variable };
    }
    return { gr::prefs::singleton()->get_string("cuda", option, fallback),
             std::string("[cuda] ") + option };
}

} // namespace

uint32_t requested_backend(std::string& source)
{
    const setting backend = lookup("GRCUDA_BACKEND", "backend", "auto");
    source = backend.source;
    if (backend.value == "auto" || backend.value.empty()) {
        return GRCUDA_BACKEND_AUTO;
    }
    if (backend.value == "cuda") {
        return GRCUDA_BACKEND_CUDA;
    }
    if (backend.value == "simulated") {
        return GRCUDA_BACKEND_SIMULATED;
    }
    throw std::invalid_argument("gr-cuda: " + backend.source + "=\"" + backend.value +
                                "\" is not a backend: use cuda, simulated or auto (the "
                                "default), or unset it");
}

int requested_ordinal()
{
    // Anything but a non-negative integer is refused rather than read as 0, which would
    // run on another GPU than the one asked for.
    const setting device = lookup("GRCUDA_DEVICE", "device", "0");
    const std::string& value = device.value;
    long long ordinal = 0;
    for (const char digit : value) {
        if (digit < '0' || digit > '9' || ordinal > INT_MAX) {
            break;
        }
        ordinal = ordinal * 10 + (digit - '0');
    }
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos ||
        ordinal > INT_MAX) {
        throw std::invalid_argument("gr-cuda: " + device.source + "=\"" + value +
                                    "\" is not a CUDA device ordinal: use a non-negative "
                                    "integer such as 0, or unset it");
    }
    return static_cast<int>(ordinal);
}

uint32_t host_wait_mode()
{
    const setting wait = lookup("GRCUDA_HOST_WAIT", "host_wait", "adaptive");
    const std::string& mode = wait.value;
    if (mode == "adaptive" || mode.empty()) {
        return GRCUDA_HOST_WAIT_ADAPTIVE;
    }
    if (mode == "spin") {
        return GRCUDA_HOST_WAIT_SPIN;
    }
    if (mode == "block") {
        return GRCUDA_HOST_WAIT_BLOCK;
    }
    throw std::invalid_argument("gr-cuda: " + wait.source + "=\"" + mode +
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

size_t ring_calls()
{
    const long calls =
        gr::prefs::singleton()->get_long("cuda", "ring_calls", default_ring_calls);
    if (calls < 2) {
        throw std::invalid_argument(
            "gr-cuda: [cuda] ring_calls=" + std::to_string(calls) +
            " is too few: a ring must hold at least 2 calls of its writer (the default "
            "is " +
            std::to_string(default_ring_calls) + ")");
    }
    return static_cast<size_t>(calls);
}

size_t ring_share_bytes()
{
    return static_cast<size_t>(free_memory() / free_memory_share);
}

void pass_kernel_cache_directory()
{
    const setting directory = lookup("GRCUDA_KERNEL_CACHE", "kernel_cache", "");
    // libgrcuda reads $GRCUDA_KERNEL_CACHE itself; nothing set keeps its default.
    if (directory.value.empty() || directory.source == "GRCUDA_KERNEL_CACHE") {
        return;
    }
    if (grcuda_set_kernel_cache_directory(directory.value.c_str()) != GRCUDA_STATUS_OK) {
        throw std::invalid_argument("gr-cuda: " + directory.source + "=\"" +
                                    directory.value +
                                    "\" is not a kernel cache folder (" +
                                    grcuda_last_error_message() + "), or unset it");
    }
}

} // namespace cuda
} // namespace gr
