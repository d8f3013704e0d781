/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "scale_offset_ff_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>

namespace gr {
namespace cudaexample {

using gr::cuda::check;

scale_offset_ff::sptr scale_offset_ff::make(float scale, float offset)
{
    return gnuradio::make_block_sptr<scale_offset_ff_impl>(scale, offset);
}

// Both ports name gr-cuda's buffer type: GNU Radio then gives this block device memory on
// both sides and inserts the host<->device copies where it meets CPU blocks.
scale_offset_ff_impl::scale_offset_ff_impl(float scale, float offset)
    : gr::sync_block(
          "scale_offset_ff",
          gr::io_signature::make(1, 1, sizeof(float), gr::cuda::cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(float), gr::cuda::cuda_buffer::type)),
      d_scale(scale),
      d_offset(offset)
{
    const size_t bytes = d_chunk_items * sizeof(float);
    grcuda_memory* memory = nullptr;
    check(grcuda_memory_new(this->device(), GRCUDA_MEMORY_DEVICE, bytes, &memory),
          "cudaexample.scale_offset_ff: device memory");
    d_ones.reset(memory);
    check(grcuda_memory_new(this->device(), GRCUDA_MEMORY_DEVICE, bytes, &memory),
          "cudaexample.scale_offset_ff: device memory");
    d_offsets.reset(memory);

    // The ones, once: written in pinned host memory, copied on this block's stream.
    check(grcuda_memory_new(this->device(), GRCUDA_MEMORY_PINNED_HOST, bytes, &memory),
          "cudaexample.scale_offset_ff: pinned memory");
    const memory_ptr staging(memory);
    std::fill_n(
        static_cast<float*>(grcuda_memory_address(staging.get())), d_chunk_items, 1.0f);
    check(grcuda_stream_copy_async(this->stream(),
                                   grcuda_memory_address(d_ones.get()),
                                   grcuda_memory_address(staging.get()),
                                   bytes),
          "cudaexample.scale_offset_ff: copying to the GPU");
    check(grcuda_stream_synchronize(this->stream()),
          "cudaexample.scale_offset_ff: copying to the GPU");
}

// Nothing may still use the arrays when they are freed: stop() waited for the stream, but
// a block may also be destroyed without having run.
scale_offset_ff_impl::~scale_offset_ff_impl()
{
    if (grcuda_stream_synchronize(this->stream()) != GRCUDA_STATUS_OK) {
        const char* message = grcuda_last_error_message(); // a destructor must not throw
        d_logger->error("waiting for the stream: {}",
                        message ? message : "unknown error");
    }
}

float scale_offset_ff_impl::scale() const { return d_scale; }

void scale_offset_ff_impl::set_scale(float scale)
{
    gr::thread::scoped_lock guard(d_setlock);
    d_scale = scale;
}

float scale_offset_ff_impl::offset() const { return d_offset; }

// Only marks the array stale: work() refills it on the stream, so kernels enqueued before
// still read the old offset and the CPU never writes memory the GPU may be reading.
void scale_offset_ff_impl::set_offset(float offset)
{
    gr::thread::scoped_lock guard(d_setlock);
    d_offset = offset;
    d_offsets_stale = true;
}

int scale_offset_ff_impl::work(int noutput_items,
                               gr_vector_const_void_star& input_items,
                               gr_vector_void_star& output_items)
{
    // Device addresses: enqueue work on them, never read or write them here.
    const float* in = static_cast<const float*>(input_items[0]);
    float* out = static_cast<float*>(output_items[0]);
    const size_t n = static_cast<size_t>(noutput_items);
    const grcuda_stream* stream = this->stream();
    void* offsets = grcuda_memory_address(d_offsets.get());

    if (d_offsets_stale) {
        check(grcuda_multiply_const_ff(stream,
                                       grcuda_memory_address(d_ones.get()),
                                       offsets,
                                       d_chunk_items,
                                       d_offset),
              "cudaexample.scale_offset_ff");
        d_offsets_stale = false;
    }
    // out = in * scale, then out += offset, d_chunk_items at a time.
    check(grcuda_multiply_const_ff(stream, in, out, n, d_scale),
          "cudaexample.scale_offset_ff");
    for (size_t done = 0; done < n; done += d_chunk_items) {
        const size_t count = std::min(d_chunk_items, n - done);
        const void* const terms[2] = { out + done, offsets };
        check(grcuda_add_ff(stream, terms, 2, out + done, count),
              "cudaexample.scale_offset_ff");
    }
    // Returning does not wait for the GPU: gr-cuda's buffer orders readers after this
    // work.
    return noutput_items;
}

} // namespace cudaexample
} // namespace gr
