/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "complex_to_mag_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

complex_to_mag::sptr complex_to_mag::make(size_t vlen, int device)
{
    arguments::require_elements_per_item(
        "cuda.complex_to_mag", "vlen", vlen, sizeof(gr_complex));
    return gnuradio::make_block_sptr<complex_to_mag_impl>(vlen, device);
}

complex_to_mag_impl::complex_to_mag_impl(size_t vlen, int device)
    : gr::sync_block(
          "complex_to_mag",
          gr::io_signature::make(1, 1, sizeof(gr_complex) * vlen, cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(float) * vlen, cuda_buffer::type)),
      cuda_sync_block<complex_to_mag>(device),
      d_vlen(vlen)
{
}

int complex_to_mag_impl::work(int noutput_items,
                              gr_vector_const_void_star& input_items,
                              gr_vector_void_star& output_items)
{
    check(grcuda_complex_to_mag(
              stream(), input_items[0], output_items[0], noutput_items * d_vlen),
          "cuda.complex_to_mag");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
