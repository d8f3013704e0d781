/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "stream_to_vector_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

stream_to_vector::sptr
stream_to_vector::make(size_t itemsize, size_t nitems_per_block, int device)
{
    arguments::require_item_size("cuda.stream_to_vector", "itemsize", itemsize);
    arguments::require_elements_per_item(
        "cuda.stream_to_vector", "nitems_per_block", nitems_per_block, itemsize);
    return gnuradio::make_block_sptr<stream_to_vector_impl>(
        itemsize, nitems_per_block, device);
}

stream_to_vector_impl::stream_to_vector_impl(size_t itemsize,
                                             size_t nitems_per_block,
                                             int device)
    : gr::sync_decimator(
          "stream_to_vector",
          gr::io_signature::make(1, 1, itemsize, cuda_buffer::type),
          gr::io_signature::make(1, 1, itemsize * nitems_per_block, cuda_buffer::type),
          nitems_per_block),
      cuda_sync_block<stream_to_vector>(device),
      d_output_itemsize(itemsize * nitems_per_block)
{
}

// The items are laid out the same in both ports; only their boundaries differ.
int stream_to_vector_impl::work(int noutput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    check(
        grcuda_copy(
            stream(), input_items[0], output_items[0], noutput_items * d_output_itemsize),
        "cuda.stream_to_vector");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
