/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The process-wide device handle. GNU Radio may create and destroy blocks and buffers
// many times per process; they all share one device handle (and so one CUDA primary
// context), which is never freed, so that objects destroyed late in interpreter shutdown
// still find it. libgrcuda's own messages go to GNU Radio's logger from the moment the
// device is opened.

#include <gnuradio/cuda/device.h>
#include <gnuradio/logger.h>
#include <climits>
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

//! The ordinal $GRCUDA_DEVICE names: unset or empty is 0 (as an empty GRCUDA_BACKEND is
//! auto); anything but a non-negative integer is refused rather than read as 0, which
//! would run on another GPU than the one asked for.
int requested_ordinal()
{
    const char* text = std::getenv("GRCUDA_DEVICE");
    if (!text || !*text) {
        return 0;
    }
    const std::string value(text);
    long long ordinal = 0;
    for (const char digit : value) {
        if (digit < '0' || digit > '9' || ordinal > INT_MAX) {
            break;
        }
        ordinal = ordinal * 10 + (digit - '0');
    }
    if (value.find_first_not_of("0123456789") != std::string::npos || ordinal > INT_MAX) {
        throw std::invalid_argument("gr-cuda: GRCUDA_DEVICE=\"" + value +
                                    "\" is not a CUDA device ordinal: use a non-negative "
                                    "integer such as 0, or unset it");
    }
    return static_cast<int>(ordinal);
}

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

//! Whether the user asked for the simulated backend ($GRCUDA_BACKEND=simulated);
//! otherwise libgrcuda chose it and said why.
bool simulated_on_request()
{
    const char* backend = std::getenv("GRCUDA_BACKEND");
    return backend && std::string(backend) == "simulated";
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
        check(
            grcuda_device_open(requested_ordinal(), GRCUDA_BACKEND_AUTO, &shared.handle),
            "gr-cuda: opening the CUDA device");
        check(grcuda_device_get_info(shared.handle, &shared.info),
              "gr-cuda: describing the CUDA device");
        gr::logger& logger = module_logger();
        if (shared.info.backend == GRCUDA_BACKEND_SIMULATED) {
            // Chosen automatically, libgrcuda has just said why, in one line.
            if (simulated_on_request()) {
                logger.info("using the simulated backend (GRCUDA_BACKEND=simulated): {}",
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

uint64_t free_memory()
{
    uint64_t bytes = 0;
    check(grcuda_device_free_memory(device(), &bytes),
          "gr-cuda: reading free device memory");
    return bytes;
}

} // namespace cuda
} // namespace gr
