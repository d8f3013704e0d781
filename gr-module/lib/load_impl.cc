/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "load_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cstring>

namespace gr {
namespace cuda {

namespace {

//! The staging memory without use_cb, as much as the reference module's block uses.
constexpr size_t staging_bytes = 65536 * 8;
//! Each iteration is a pass over the items: 2^24 passes is already minutes per call.
constexpr uint64_t max_iterations = uint64_t{ 1 } << 24;

gr::io_signature::sptr port(size_t itemsize, bool use_cb)
{
    return use_cb ? gr::io_signature::make(1, 1, itemsize, cuda_buffer::type)
                  : gr::io_signature::make(1, 1, itemsize);
}

grcuda_memory* allocate(const grcuda_device* device, uint32_t kind)
{
    grcuda_memory* memory = nullptr;
    check(grcuda_memory_new(device, kind, staging_bytes, &memory),
          "cuda.load staging memory");
    return memory;
}

} // namespace

load::sptr load::make(size_t iterations, size_t itemsize, bool use_cb, int device)
{
    arguments::require_between("cuda.load", "iterations", iterations, 1, max_iterations);
    arguments::require_item_size("cuda.load", "itemsize", itemsize);
    return gnuradio::make_block_sptr<load_impl>(iterations, itemsize, use_cb, device);
}

load_impl::load_impl(size_t iterations, size_t itemsize, bool use_cb, int device)
    : gr::sync_block("load", port(itemsize, use_cb), port(itemsize, use_cb)),
      cuda_sync_block<load>(device),
      d_iterations(iterations),
      d_itemsize(itemsize)
{
    if (!use_cb) {
        d_host_staging.reset(allocate(this->device(), GRCUDA_MEMORY_PINNED_HOST));
        d_device_staging.reset(allocate(this->device(), GRCUDA_MEMORY_DEVICE));
    }
}

void load_impl::load_through_staging(const void* input, void* output, size_t bytes)
{
    void* host = grcuda_memory_address(d_host_staging.get());
    void* device_memory = grcuda_memory_address(d_device_staging.get());
    std::memcpy(host, input, bytes);
    check(grcuda_stream_copy_async(stream(), device_memory, host, bytes), "cuda.load");
    check(grcuda_load(stream(), device_memory, device_memory, bytes, d_iterations),
          "cuda.load");
    check(grcuda_stream_copy_async(stream(), host, device_memory, bytes), "cuda.load");
    check(grcuda_stream_synchronize(stream()), "cuda.load");
    std::memcpy(output, host, bytes);
}

int load_impl::work(int noutput_items,
                    gr_vector_const_void_star& input_items,
                    gr_vector_void_star& output_items)
{
    const size_t bytes = noutput_items * d_itemsize;
    if (!d_device_staging) {
        check(grcuda_load(stream(), input_items[0], output_items[0], bytes, d_iterations),
              "cuda.load");
        return noutput_items;
    }
    // Host ports: GNU Radio's buffers are neither device nor pinned memory, and the block
    // hands them back complete.
    const auto* input = static_cast<const char*>(input_items[0]);
    auto* output = static_cast<char*>(output_items[0]);
    for (size_t done = 0; done < bytes; done += staging_bytes) {
        load_through_staging(
            input + done, output + done, std::min(staging_bytes, bytes - done));
    }
    return noutput_items;
}

} // namespace cuda
} // namespace gr
