/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "streams_to_vector_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

streams_to_vector::sptr
streams_to_vector::make(size_t itemsize, size_t num_streams, int device)
{
    arguments::require_item_size("cuda.streams_to_vector", "itemsize", itemsize);
    arguments::require_ports_in_item(
        "cuda.streams_to_vector", "num_streams", num_streams, itemsize);
    return gnuradio::make_block_sptr<streams_to_vector_impl>(
        itemsize, num_streams, device);
}

streams_to_vector_impl::streams_to_vector_impl(size_t itemsize,
                                               size_t num_streams,
                                               int device)
    : gr::sync_block(
          "streams_to_vector",
          gr::io_signature::make(num_streams, num_streams, itemsize, cuda_buffer::type),
          gr::io_signature::make(1, 1, itemsize * num_streams, cuda_buffer::type)),
      cuda_sync_block<streams_to_vector>(device),
      d_itemsize(itemsize)
{
}

int streams_to_vector_impl::work(int noutput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    check(grcuda_interleave(stream(),
                            input_items.data(),
                            input_items.size(),
                            output_items[0],
                            noutput_items,
                            d_itemsize),
          "cuda.streams_to_vector");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
