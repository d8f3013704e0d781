/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "quadrature_demod_cf_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

quadrature_demod_cf::sptr quadrature_demod_cf::make(float gain, int device)
{
    arguments::require_finite("cuda.quadrature_demod_cf", "gain", gain);
    return gnuradio::make_block_sptr<quadrature_demod_cf_impl>(gain, device);
}

quadrature_demod_cf_impl::quadrature_demod_cf_impl(float gain, int device)
    : gr::sync_block("quadrature_demod_cf",
                     gr::io_signature::make(1, 1, sizeof(gr_complex), cuda_buffer::type),
                     gr::io_signature::make(1, 1, sizeof(float), cuda_buffer::type)),
      cuda_sync_block<quadrature_demod_cf>(device),
      d_gain(gain)
{
    set_history(2); // as GNU Radio's: each output looks at the previous input
}

void quadrature_demod_cf_impl::set_gain(float gain)
{
    arguments::require_finite("cuda.quadrature_demod_cf", "gain", gain);
    gr::thread::scoped_lock guard(d_setlock);
    d_gain = gain;
}

float quadrature_demod_cf_impl::gain() const { return d_gain; }

int quadrature_demod_cf_impl::work(int noutput_items,
                                   gr_vector_const_void_star& input_items,
                                   gr_vector_void_star& output_items)
{
    check(grcuda_quadrature_demod_cf(
              this->stream(), input_items[0], output_items[0], noutput_items, d_gain),
          "cuda.quadrature_demod_cf");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
