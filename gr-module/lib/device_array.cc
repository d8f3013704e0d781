/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "device_array.h"
#include <gnuradio/cuda/device.h>
#include <cstring>
#include <memory>

namespace gr {
namespace cuda {

namespace {

using memory_handle = std::unique_ptr<grcuda_memory, void (*)(grcuda_memory*)>;

memory_handle allocate(const grcuda_device* device,
                       uint32_t kind,
                       size_t bytes,
                       const std::string& owner)
{
    grcuda_memory* memory = nullptr;
    check(grcuda_memory_new(device, kind, bytes, &memory), owner.c_str());
    return memory_handle(memory, grcuda_memory_free);
}

} // namespace

device_array::device_array(const grcuda_device* device,
                           const grcuda_stream* stream,
                           std::string owner)
    : d_device(device), d_stream(stream), d_owner(std::move(owner))
{
}

device_array::~device_array()
{
    // A failure means the context is gone (process exit), and the work with it.
    const grcuda_status finished = grcuda_stream_synchronize(d_stream);
    static_cast<void>(finished);
    grcuda_memory_free(d_memory);
}

void device_array::wait_for_stream() const
{
    check(grcuda_stream_synchronize(d_stream), d_owner.c_str());
}

void device_array::reserve(size_t bytes)
{
    if (bytes <= d_bytes) {
        return;
    }
    wait_for_stream();
    memory_handle memory = allocate(d_device, GRCUDA_MEMORY_DEVICE, bytes, d_owner);
    check(grcuda_stream_memset_async(
              d_stream, grcuda_memory_address(memory.get()), 0, bytes),
          d_owner.c_str());
    grcuda_memory_free(d_memory);
    d_memory = memory.release();
    d_bytes = bytes;
}

void device_array::assign(const void* values, size_t bytes)
{
    wait_for_stream();
    if (bytes == 0) {
        grcuda_memory_free(d_memory);
        d_memory = nullptr;
        d_bytes = 0;
        return;
    }
    if (bytes != d_bytes) {
        grcuda_memory_free(d_memory);
        d_memory = nullptr;
        d_bytes = 0;
        d_memory = allocate(d_device, GRCUDA_MEMORY_DEVICE, bytes, d_owner).release();
        d_bytes = bytes;
    }
    // Copies to the device start from pinned memory; the staging is freed once the copy
    // is done.
    memory_handle staging = allocate(d_device, GRCUDA_MEMORY_PINNED_HOST, bytes, d_owner);
    std::memcpy(grcuda_memory_address(staging.get()), values, bytes);
    check(grcuda_stream_copy_async(
              d_stream, data(), grcuda_memory_address(staging.get()), bytes),
          d_owner.c_str());
    wait_for_stream();
}

void* device_array::data() const
{
    return d_memory ? grcuda_memory_address(d_memory) : nullptr;
}

} // namespace cuda
} // namespace gr
