/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "float_to_complex_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

float_to_complex::sptr float_to_complex::make(size_t vlen, int device)
{
    arguments::require_elements_per_item(
        "cuda.float_to_complex", "vlen", vlen, sizeof(gr_complex));
    return gnuradio::make_block_sptr<float_to_complex_impl>(vlen, device);
}

float_to_complex_impl::float_to_complex_impl(size_t vlen, int device)
    : gr::sync_block(
          "float_to_complex",
          gr::io_signature::make(1, 2, sizeof(float) * vlen, cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(gr_complex) * vlen, cuda_buffer::type)),
      cuda_sync_block<float_to_complex>(device),
      d_vlen(vlen)
{
}

int float_to_complex_impl::work(int noutput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    // As GNU Radio's: with one input the imaginary parts are 0.
    const void* imag = input_items.size() == 2 ? input_items[1] : nullptr;
    check(grcuda_float_to_complex(this->stream(),
                                  input_items[0],
                                  imag,
                                  output_items[0],
                                  noutput_items * d_vlen),
          "cuda.float_to_complex");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
