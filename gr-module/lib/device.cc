/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The process-wide device handle. GNU Radio may create and destroy blocks and buffers
// many times per process; they all share one device handle (and so one CUDA primary
// context), which is never freed, so that objects destroyed late in interpreter shutdown
// still find it. libgrcuda's own messages go to GNU Radio's logger from the moment the
// device is opened.

#include "settings.h"
#include <gnuradio/cuda/device.h>
#include <gnuradio/logger.h>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>

namespace gr {
namespace cuda {

void check(grcuda_status status, const char* what)
{
    if (status == GRCUDA_STATUS_OK) {
        return;
    }
    const char* message = grcuda_last_error_message();
    throw std::runtime_error(std::string(what) + ": " +
                             (message ? message : grcuda_status_name(status)));
}

namespace {

gr::logger& module_logger()
{
    static gr::logger logger("gr-cuda");
    return logger;
}

//! libgrcuda's messages (grcuda_set_log_callback()), through GNU Radio's logger.
void forward_to_logger(uint32_t level, const char* message, void* /* context */)
{
    if (level == GRCUDA_LOG_WARNING) {
        module_logger().warn("{}", message);
    } else {
        module_logger().info("{}", message);
    }
}

struct shared_device {
    grcuda_device* handle = nullptr;
    grcuda_device_info info{};
};

const shared_device& open_shared_device()
{
    static shared_device shared;
    static std::once_flag opened;
    std::call_once(opened, [] {
        if (grcuda_abi_version() != GRCUDA_ABI_VERSION) {
            throw std::runtime_error(
                "gr-cuda was built against grcuda ABI " +
                std::to_string(GRCUDA_ABI_VERSION) + " but loaded libgrcuda with ABI " +
                std::to_string(grcuda_abi_version()) +
                ": reinstall gr-cuda and libgrcuda from the same source");
        }
        grcuda_set_log_callback(forward_to_logger, nullptr);
        pass_kernel_cache_directory();
        pass_host_ring_cache_limit();
        std::string backend_source;
        const uint32_t backend = requested_backend(backend_source);
        check(grcuda_device_open(requested_ordinal(), backend, &shared.handle),
              "gr-cuda: opening the device");
        check(grcuda_device_get_info(shared.handle, &shared.info),
              "gr-cuda: describing the device");
        gr::logger& logger = module_logger();
        if (shared.info.backend == GRCUDA_BACKEND_SIMULATED) {
            // Chosen automatically, libgrcuda has just said why, in one line.
            if (backend == GRCUDA_BACKEND_SIMULATED) {
                logger.info("using the simulated backend ({} = simulated): {}",
                            backend_source,
                            shared.info.name);
            }
        } else {
            logger.info("using {} (device {}, compute capability {}.{})",
                        shared.info.name,
                        shared.info.ordinal,
                        shared.info.compute_capability_major,
                        shared.info.compute_capability_minor);
        }
    });
    return shared;
}

} // namespace

const grcuda_device* device() { return open_shared_device().handle; }

bool simulated() { return open_shared_device().info.backend == GRCUDA_BACKEND_SIMULATED; }

int device_ordinal() { return open_shared_device().info.ordinal; }

std::string kernel_cache_directory()
{
    open_shared_device();
    const char* directory = grcuda_kernel_cache_directory();
    return directory ? directory : "";
}

uint64_t free_memory()
{
    uint64_t bytes = 0;
    check(grcuda_device_free_memory(device(), &bytes),
          "gr-cuda: reading free device memory");
    return bytes;
}

} // namespace cuda
} // namespace gr
