/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The process's device handles, one per device ordinal. GNU Radio may create and destroy
// blocks and buffers many times per process; those of one device share one handle (and
// so one CUDA primary context), which is never freed, so that objects destroyed late in
// interpreter shutdown still find it. libgrcuda's own messages go to GNU Radio's logger
// from the moment the device is opened.

#include "settings.h"
#include <gnuradio/cuda/device.h>
#include <gnuradio/logger.h>
#include <cstdlib>
#include <map>
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

struct opened_device {
    grcuda_device* handle = nullptr;
    grcuda_device_info info{};
};

//! The devices of the process: the default device, opened first, sets the backend and
//! the count; the others are opened when a block first asks for them. Never freed.
struct process_devices {
    uint32_t backend = GRCUDA_BACKEND_AUTO; // the default device's: _CUDA or _SIMULATED
    int count = 0;
    int default_ordinal = 0;
    std::mutex mutex; // guards opened
    std::map<int, opened_device> opened;
};

void log_opened(const grcuda_device_info& info,
                uint32_t requested_backend,
                const std::string& backend_source)
{
    gr::logger& logger = module_logger();
    if (info.backend == GRCUDA_BACKEND_SIMULATED) {
        // Chosen automatically, libgrcuda has just said why, in one line.
        if (requested_backend == GRCUDA_BACKEND_SIMULATED) {
            logger.info("using the simulated backend ({} = simulated): {} (device {})",
                        backend_source,
                        info.name,
                        info.ordinal);
        }
    } else {
        logger.info("using {} (device {}, compute capability {}.{})",
                    info.name,
                    info.ordinal,
                    info.compute_capability_major,
                    info.compute_capability_minor);
    }
}

opened_device open_device(int ordinal, uint32_t backend)
{
    opened_device opened;
    check(grcuda_device_open(ordinal, backend, &opened.handle),
          ("gr-cuda: opening device " + std::to_string(ordinal)).c_str());
    check(grcuda_device_get_info(opened.handle, &opened.info),
          "gr-cuda: describing the device");
    return opened;
}

process_devices& open_process_devices()
{
    static process_devices devices;
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
        const uint32_t requested = requested_backend(backend_source);
        const opened_device first = open_device(requested_ordinal(), requested);
        log_opened(first.info, requested, backend_source);
        devices.backend = first.info.backend;
        devices.default_ordinal = first.info.ordinal;
        check(grcuda_device_count(devices.backend, &devices.count),
              "gr-cuda: counting the devices");
        devices.opened.emplace(first.info.ordinal, first);
    });
    return devices;
}

//! device(\p ordinal)'s entry, opened on first use.
const opened_device& opened(int ordinal)
{
    process_devices& devices = open_process_devices();
    if (ordinal == default_device) {
        ordinal = devices.default_ordinal;
    }
    if (ordinal < 0 || ordinal >= devices.count) {
        const bool on_simulated = devices.backend == GRCUDA_BACKEND_SIMULATED;
        throw std::invalid_argument(
            "gr-cuda: device " + std::to_string(ordinal) + " is refused: the " +
            (on_simulated ? "simulated backend" : "machine") + " has " +
            std::to_string(devices.count) + (on_simulated ? " device(s)" : " GPU(s)") +
            ", ordinals 0 to " + std::to_string(devices.count - 1) +
            (on_simulated ? " (GRCUDA_SIMULATED_DEVICES sets how many)" : "") +
            "; use one of them, or -1 for the default device ([cuda] device / "
            "GRCUDA_DEVICE, now " +
            std::to_string(devices.default_ordinal) + ")");
    }
    std::lock_guard<std::mutex> guard(devices.mutex);
    auto found = devices.opened.find(ordinal);
    if (found == devices.opened.end()) {
        const opened_device device = open_device(ordinal, devices.backend);
        log_opened(device.info, devices.backend, "the default device's backend");
        found = devices.opened.emplace(ordinal, device).first;
    }
    return found->second;
}

} // namespace

const grcuda_device* device(int ordinal) { return opened(ordinal).handle; }

int device_count() { return open_process_devices().count; }

bool simulated() { return open_process_devices().backend == GRCUDA_BACKEND_SIMULATED; }

int device_ordinal(int ordinal) { return opened(ordinal).info.ordinal; }

std::string kernel_cache_directory()
{
    open_process_devices();
    const char* directory = grcuda_kernel_cache_directory();
    return directory ? directory : "";
}

uint64_t free_memory(int ordinal)
{
    uint64_t bytes = 0;
    check(grcuda_device_free_memory(device(ordinal), &bytes),
          "gr-cuda: reading free device memory");
    return bytes;
}

} // namespace cuda
} // namespace gr
