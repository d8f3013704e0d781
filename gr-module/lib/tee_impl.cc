/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "tee_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <cstring>

namespace gr {
namespace cuda {

tee::sptr tee::make(size_t itemsize, bool gpu, int device)
{
    arguments::require_item_size("cuda.tee", "itemsize", itemsize);
    return gnuradio::make_block_sptr<tee_impl>(itemsize, gpu, device);
}

tee_impl::tee_impl(size_t itemsize, bool gpu, int device)
    : gr::sync_block("tee",
                     gpu ? gr::io_signature::make(1, 1, itemsize, cuda_buffer::type)
                         : gr::io_signature::make(1, 1, itemsize),
                     gpu ? gr::io_signature::make(2, 2, itemsize, cuda_buffer::type)
                         : gr::io_signature::make(2, 2, itemsize)),
      cuda_sync_block<tee>(device),
      d_itemsize(itemsize),
      d_gpu(gpu)
{
}

int tee_impl::work(int noutput_items,
                   gr_vector_const_void_star& input_items,
                   gr_vector_void_star& output_items)
{
    const size_t bytes = noutput_items * d_itemsize;
    for (void* output : output_items) {
        if (d_gpu) {
            check(grcuda_copy(stream(), input_items[0], output, bytes), "cuda.tee");
        } else {
            std::memcpy(output, input_items[0], bytes);
        }
    }
    return noutput_items;
}

} // namespace cuda
} // namespace gr
