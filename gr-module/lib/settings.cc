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
constexpr long gpu_ring_floor_bytes = 128L << 20;
constexpr long simulated_ring_floor_bytes = 1L << 20;
constexpr long default_ring_calls = 2;
//! Beyond these a setting is a typo: a floor larger than any GPU's memory, or calls so
//! many that each is a sliver of its ring.
constexpr long long most_ring_floor_bytes = 1LL << 40;
constexpr long long most_ring_calls = 1024;
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

//! \p text as a whole number no larger than \p most, or -1 where it is anything else
//! (empty, signed, fractional, other characters, too large).
long long whole_number(const std::string& text, long long most)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
        return -1;
    }
    long long number = 0;
    for (const char digit : text) {
        number = number * 10 + (digit - '0');
        if (number > most) {
            return -1;
        }
    }
    return number;
}

//! The [cuda] preference \p option as a whole number from \p least to \p most, \p
//! fallback where it is not set; anything else is refused, naming what to use instead (\p
//! advice), rather than read as 0 as gr::prefs' get_long would.
long long counted_preference(const char* option,
                             long long fallback,
                             long long least,
                             long long most,
                             const std::string& advice)
{
    const std::string text = gr::prefs::singleton()->get_string("cuda", option, "");
    if (text.empty()) {
        return fallback;
    }
    const long long number = whole_number(text, most);
    if (number < least) {
        throw std::invalid_argument(std::string("gr-cuda: [cuda] ") + option + "=\"" +
                                    text + "\" is refused: " + advice + ", or unset it");
    }
    return number;
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
    const long long ordinal = whole_number(device.value, INT_MAX);
    if (ordinal < 0) {
        throw std::invalid_argument("gr-cuda: " + device.source + "=\"" + device.value +
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
    const long long fallback =
        simulated() ? simulated_ring_floor_bytes : gpu_ring_floor_bytes;
    return static_cast<size_t>(counted_preference(
        "ring_floor_bytes",
        fallback,
        0,
        most_ring_floor_bytes,
        "use a whole number of bytes up to 2^40, such as " + std::to_string(fallback) +
            " (the default here; 0 sizes rings as GNU Radio asks)"));
}

size_t ring_calls()
{
    return static_cast<size_t>(counted_preference(
        "ring_calls",
        default_ring_calls,
        2,
        most_ring_calls,
        "use a whole number of calls from 2 to " + std::to_string(most_ring_calls) +
            " (the default is " + std::to_string(default_ring_calls) + ")"));
}

size_t ring_share_bytes(int ordinal)
{
    return static_cast<size_t>(free_memory(ordinal) / free_memory_share);
}

void pass_host_ring_cache_limit()
{
    // Unset, libgrcuda's own default holds.
    const char* option = "host_ring_cache_bytes";
    if (gr::prefs::singleton()->get_string("cuda", option, "").empty()) {
        return;
    }
    grcuda_set_host_ring_cache_limit(static_cast<size_t>(
        counted_preference(option,
                           0,
                           0,
                           most_ring_floor_bytes,
                           "use a whole number of bytes up to 2^40 (0 keeps none)")));
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
