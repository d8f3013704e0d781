/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "fft_shift_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

fft_shift::sptr fft_shift::make(size_t fft_size, int device)
{
    arguments::require_elements_per_item(
        "cuda.fft_shift", "fft_size", fft_size, sizeof(gr_complex));
    return gnuradio::make_block_sptr<fft_shift_impl>(fft_size, device);
}

fft_shift_impl::fft_shift_impl(size_t fft_size, int device)
    : gr::sync_block(
          "fft_shift",
          gr::io_signature::make(1, 1, fft_size * sizeof(gr_complex), cuda_buffer::type),
          gr::io_signature::make(1, 1, fft_size * sizeof(gr_complex), cuda_buffer::type)),
      cuda_sync_block<fft_shift>(device),
      d_size(fft_size)
{
}

int fft_shift_impl::work(int noutput_items,
                         gr_vector_const_void_star& input_items,
                         gr_vector_void_star& output_items)
{
    check(grcuda_fft_shift_cc(
              stream(), input_items[0], output_items[0], d_size, noutput_items),
          "cuda.fft_shift");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
