/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "vector_to_stream_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

vector_to_stream::sptr
vector_to_stream::make(size_t itemsize, size_t nitems_per_block, int device)
{
    arguments::require_item_size("cuda.vector_to_stream", "itemsize", itemsize);
    arguments::require_elements_per_item(
        "cuda.vector_to_stream", "nitems_per_block", nitems_per_block, itemsize);
    return gnuradio::make_block_sptr<vector_to_stream_impl>(
        itemsize, nitems_per_block, device);
}

vector_to_stream_impl::vector_to_stream_impl(size_t itemsize,
                                             size_t nitems_per_block,
                                             int device)
    : gr::sync_interpolator(
          "vector_to_stream",
          gr::io_signature::make(1, 1, itemsize * nitems_per_block, cuda_buffer::type),
          gr::io_signature::make(1, 1, itemsize, cuda_buffer::type),
          nitems_per_block),
      cuda_sync_block<vector_to_stream>(device),
      d_output_itemsize(itemsize)
{
}

// The items are laid out the same in both ports; only their boundaries differ.
int vector_to_stream_impl::work(int noutput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    check(
        grcuda_copy(
            stream(), input_items[0], output_items[0], noutput_items * d_output_itemsize),
        "cuda.vector_to_stream");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
