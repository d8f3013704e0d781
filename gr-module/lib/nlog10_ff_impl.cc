/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "nlog10_ff_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

nlog10_ff::sptr nlog10_ff::make(float n, size_t vlen, float k, int device)
{
    arguments::require_finite("cuda.nlog10_ff", "n", n);
    arguments::require_elements_per_item("cuda.nlog10_ff", "vlen", vlen, sizeof(float));
    arguments::require_finite("cuda.nlog10_ff", "k", k);
    return gnuradio::make_block_sptr<nlog10_ff_impl>(n, vlen, k, device);
}

nlog10_ff_impl::nlog10_ff_impl(float n, size_t vlen, float k, int device)
    : gr::sync_block(
          "nlog10_ff",
          gr::io_signature::make(1, 1, sizeof(float) * vlen, cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(float) * vlen, cuda_buffer::type)),
      cuda_sync_block<nlog10_ff>(device),
      d_n(n),
      d_vlen(vlen),
      d_k(k)
{
}

int nlog10_ff_impl::work(int noutput_items,
                         gr_vector_const_void_star& input_items,
                         gr_vector_void_star& output_items)
{
    check(
        grcuda_nlog10_ff(
            stream(), input_items[0], output_items[0], noutput_items * d_vlen, d_n, d_k),
        "cuda.nlog10_ff");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
