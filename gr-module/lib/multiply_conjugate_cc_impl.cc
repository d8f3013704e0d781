/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "multiply_conjugate_cc_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

multiply_conjugate_cc::sptr multiply_conjugate_cc::make(size_t vlen, int device)
{
    arguments::require_elements_per_item(
        "cuda.multiply_conjugate_cc", "vlen", vlen, sizeof(gr_complex));
    return gnuradio::make_block_sptr<multiply_conjugate_cc_impl>(vlen, device);
}

multiply_conjugate_cc_impl::multiply_conjugate_cc_impl(size_t vlen, int device)
    : gr::sync_block(
          "multiply_conjugate_cc",
          gr::io_signature::make(2, 2, sizeof(gr_complex) * vlen, cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(gr_complex) * vlen, cuda_buffer::type)),
      cuda_sync_block<multiply_conjugate_cc>(device),
      d_vlen(vlen)
{
}

int multiply_conjugate_cc_impl::work(int noutput_items,
                                     gr_vector_const_void_star& input_items,
                                     gr_vector_void_star& output_items)
{
    check(grcuda_multiply_conjugate_cc(this->stream(),
                                       input_items[0],
                                       input_items[1],
                                       output_items[0],
                                       noutput_items * d_vlen),
          "cuda.multiply_conjugate_cc");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
