/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "copy_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

copy::sptr copy::make(size_t itemsize) { return gnuradio::make_block_sptr<copy_impl>(itemsize); }

copy_impl::copy_impl(size_t itemsize)
    : gr::sync_block("copy",
                     gr::io_signature::make(1, 1, itemsize, cuda_buffer::type),
                     gr::io_signature::make(1, 1, itemsize, cuda_buffer::type)),
      d_itemsize(itemsize)
{
}

int copy_impl::work(int noutput_items,
                    gr_vector_const_void_star& input_items,
                    gr_vector_void_star& output_items)
{
    check(grcuda_stream_copy_async(
              stream(), output_items[0], input_items[0], noutput_items * d_itemsize),
          "cuda.copy");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
