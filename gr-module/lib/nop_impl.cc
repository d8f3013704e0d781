/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "nop_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

nop::sptr nop::make(size_t sizeof_stream_item, int device)
{
    arguments::require_item_size("cuda.nop", "sizeof_stream_item", sizeof_stream_item);
    return gnuradio::make_block_sptr<nop_impl>(sizeof_stream_item, device);
}

nop_impl::nop_impl(size_t sizeof_stream_item, int device)
    : gr::sync_block("nop",
                     gr::io_signature::make(1, 1, sizeof_stream_item, cuda_buffer::type),
                     gr::io_signature::make(1, 1, sizeof_stream_item, cuda_buffer::type)),
      cuda_sync_block<nop>(device)
{
}

int nop_impl::work(int noutput_items, gr_vector_const_void_star&, gr_vector_void_star&)
{
    return noutput_items;
}

} // namespace cuda
} // namespace gr
