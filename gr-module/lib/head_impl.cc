/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "head_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>

namespace gr {
namespace cuda {

head::sptr head::make(size_t sizeof_stream_item, uint64_t nitems, int device)
{
    arguments::require_item_size("cuda.head", "sizeof_stream_item", sizeof_stream_item);
    return gnuradio::make_block_sptr<head_impl>(sizeof_stream_item, nitems, device);
}

head_impl::head_impl(size_t sizeof_stream_item, uint64_t nitems, int device)
    : gr::sync_block("head",
                     gr::io_signature::make(1, 1, sizeof_stream_item, cuda_buffer::type),
                     gr::io_signature::make(1, 1, sizeof_stream_item, cuda_buffer::type)),
      cuda_sync_block<head>(device),
      d_itemsize(sizeof_stream_item),
      d_length(nitems)
{
}

void head_impl::reset()
{
    gr::thread::scoped_lock guard(d_setlock);
    d_passed = 0;
}

void head_impl::set_length(uint64_t nitems)
{
    gr::thread::scoped_lock guard(d_setlock);
    d_length = nitems;
}

int head_impl::work(int noutput_items,
                    gr_vector_const_void_star& input_items,
                    gr_vector_void_star& output_items)
{
    if (d_passed >= d_length) {
        return WORK_DONE;
    }
    const uint64_t n = std::min<uint64_t>(d_length - d_passed, noutput_items);
    check(grcuda_copy(stream(), input_items[0], output_items[0], n * d_itemsize),
          "cuda.head");
    d_passed += n;
    return static_cast<int>(n);
}

} // namespace cuda
} // namespace gr
