/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "null_source_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

null_source::sptr
null_source::make(size_t sizeof_stream_item, size_t num_outputs, bool memset, int device)
{
    arguments::require_item_size(
        "cuda.null_source", "sizeof_stream_item", sizeof_stream_item);
    arguments::require_ports("cuda.null_source", "num_outputs", num_outputs);
    return gnuradio::make_block_sptr<null_source_impl>(
        sizeof_stream_item, num_outputs, memset, device);
}

null_source_impl::null_source_impl(size_t sizeof_stream_item,
                                   size_t num_outputs,
                                   bool memset,
                                   int device)
    : gr::sync_block(
          "null_source",
          gr::io_signature::make(0, 0, 0),
          gr::io_signature::make(1, num_outputs, sizeof_stream_item, cuda_buffer::type)),
      cuda_sync_block<null_source>(device),
      d_itemsize(sizeof_stream_item),
      d_memset(memset)
{
}

int null_source_impl::work(int noutput_items,
                           gr_vector_const_void_star&,
                           gr_vector_void_star& output_items)
{
    if (d_memset) {
        for (void* output : output_items) {
            check(grcuda_stream_memset_async(
                      stream(), output, 0, noutput_items * d_itemsize),
                  "cuda.null_source");
        }
    }
    return noutput_items;
}

} // namespace cuda
} // namespace gr
