/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "complex_to_mag_impl.h"
#include "arguments.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

template <class Interface, grcuda_status (*Launch)(const grcuda_stream*, const void*, void*, size_t)>
magnitude_impl<Interface, Launch>::magnitude_impl(const char* name, size_t vlen)
    : gr::sync_block(name,
                     gr::io_signature::make(1, 1, sizeof(gr_complex) * vlen, cuda_buffer::type),
                     gr::io_signature::make(1, 1, sizeof(float) * vlen, cuda_buffer::type)),
      d_vlen(vlen)
{
}

template <class Interface, grcuda_status (*Launch)(const grcuda_stream*, const void*, void*, size_t)>
int magnitude_impl<Interface, Launch>::work(int noutput_items,
                                            gr_vector_const_void_star& input_items,
                                            gr_vector_void_star& output_items)
{
    check(Launch(this->stream(), input_items[0], output_items[0], noutput_items * d_vlen),
          this->name().c_str());
    return noutput_items;
}

using complex_to_mag_impl = magnitude_impl<complex_to_mag, grcuda_complex_to_mag>;
using complex_to_mag_squared_impl =
    magnitude_impl<complex_to_mag_squared, grcuda_complex_to_mag_squared>;

complex_to_mag::sptr complex_to_mag::make(size_t vlen)
{
    arguments::require_elements_per_item("cuda.complex_to_mag", "vlen", vlen, sizeof(gr_complex));
    return gnuradio::make_block_sptr<complex_to_mag_impl>("complex_to_mag", vlen);
}

complex_to_mag_squared::sptr complex_to_mag_squared::make(size_t vlen)
{
    arguments::require_elements_per_item(
        "cuda.complex_to_mag_squared", "vlen", vlen, sizeof(gr_complex));
    return gnuradio::make_block_sptr<complex_to_mag_squared_impl>("complex_to_mag_squared", vlen);
}

} // namespace cuda
} // namespace gr
