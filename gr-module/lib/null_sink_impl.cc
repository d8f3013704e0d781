/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "null_sink_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

null_sink::sptr null_sink::make(size_t sizeof_stream_item, size_t num_inputs, int device)
{
    arguments::require_item_size(
        "cuda.null_sink", "sizeof_stream_item", sizeof_stream_item);
    arguments::require_ports("cuda.null_sink", "num_inputs", num_inputs);
    return gnuradio::make_block_sptr<null_sink_impl>(
        sizeof_stream_item, num_inputs, device);
}

// The output signature names cuda_buffer although a sink has no outputs: GNU Radio 3.10
// takes the type of a sink's input buffer from its *output* signature when the upstream
// block is a CPU block (block::replace_buffer), and would otherwise hand this block host
// memory.
null_sink_impl::null_sink_impl(size_t sizeof_stream_item, size_t num_inputs, int device)
    : gr::sync_block(
          "null_sink",
          gr::io_signature::make(1, num_inputs, sizeof_stream_item, cuda_buffer::type),
          gr::io_signature::make(0, 0, sizeof_stream_item, cuda_buffer::type)),
      cuda_sync_block<null_sink>(device)
{
}

int null_sink_impl::work(int noutput_items,
                         gr_vector_const_void_star&,
                         gr_vector_void_star&)
{
    return noutput_items;
}

} // namespace cuda
} // namespace gr
