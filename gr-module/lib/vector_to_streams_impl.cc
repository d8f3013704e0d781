/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "vector_to_streams_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

vector_to_streams::sptr
vector_to_streams::make(size_t itemsize, size_t num_streams, int device)
{
    arguments::require_item_size("cuda.vector_to_streams", "itemsize", itemsize);
    arguments::require_ports_in_item(
        "cuda.vector_to_streams", "num_streams", num_streams, itemsize);
    return gnuradio::make_block_sptr<vector_to_streams_impl>(
        itemsize, num_streams, device);
}

vector_to_streams_impl::vector_to_streams_impl(size_t itemsize,
                                               size_t num_streams,
                                               int device)
    : gr::sync_block(
          "vector_to_streams",
          gr::io_signature::make(1, 1, itemsize * num_streams, cuda_buffer::type),
          gr::io_signature::make(num_streams, num_streams, itemsize, cuda_buffer::type)),
      cuda_sync_block<vector_to_streams>(device),
      d_itemsize(itemsize)
{
}

int vector_to_streams_impl::work(int noutput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    check(grcuda_deinterleave(stream(),
                              input_items[0],
                              output_items.data(),
                              output_items.size(),
                              noutput_items,
                              d_itemsize),
          "cuda.vector_to_streams");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
