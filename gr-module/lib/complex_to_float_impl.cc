/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "complex_to_float_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

complex_to_float::sptr complex_to_float::make(size_t vlen, int device)
{
    arguments::require_elements_per_item(
        "cuda.complex_to_float", "vlen", vlen, sizeof(gr_complex));
    return gnuradio::make_block_sptr<complex_to_float_impl>(vlen, device);
}

complex_to_float_impl::complex_to_float_impl(size_t vlen, int device)
    : gr::sync_block(
          "complex_to_float",
          gr::io_signature::make(1, 1, sizeof(gr_complex) * vlen, cuda_buffer::type),
          gr::io_signature::make(1, 2, sizeof(float) * vlen, cuda_buffer::type)),
      cuda_sync_block<complex_to_float>(device),
      d_vlen(vlen)
{
}

int complex_to_float_impl::work(int noutput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    const size_t count = noutput_items * d_vlen;
    // As GNU Radio's: the imaginary parts only where output 1 is connected.
    const grcuda_status status =
        output_items.size() == 2
            ? grcuda_complex_to_float(
                  this->stream(), input_items[0], output_items[0], output_items[1], count)
            : grcuda_complex_to_real(
                  this->stream(), input_items[0], output_items[0], count);
    check(status, "cuda.complex_to_float");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
