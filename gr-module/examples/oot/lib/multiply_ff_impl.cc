/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "multiply_ff_impl.h"
#include <gnuradio/cuda/cuda_block_helper.h>
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/cuda_error.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cudaexample {

multiply_ff::sptr multiply_ff::make(float k, bool manual_sync)
{
    return gnuradio::make_block_sptr<multiply_ff_impl>(k, manual_sync);
}

multiply_ff_impl::multiply_ff_impl(float k, bool manual_sync)
    : gr::sync_block(
          "multiply_ff",
          gr::io_signature::make(1, 1, sizeof(float), gr::cuda::cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(float), gr::cuda::cuda_buffer::type)),
      d_k(k),
      d_manual_sync(manual_sync)
{
}

// The reference's kernels are nvcc-compiled and launched on d_stream; this module has no
// nvcc at build time, so the kernel is libgrcuda's (NVRTC-compiled at run time), launched
// on the libgrcuda stream that d_stream is.
int multiply_ff_impl::work(int noutput_items,
                           gr_vector_const_void_star& input_items,
                           gr_vector_void_star& output_items)
{
    if (d_manual_sync) {
        gr::cuda::wait_for_inputs(detail(), d_stream);
    }
    check_cuda_errors(grcuda_multiply_const_ff(libgrcuda_stream(),
                                               input_items[0],
                                               output_items[0],
                                               static_cast<size_t>(noutput_items),
                                               d_k),
                      "cudaexample.multiply_ff",
                      d_logger);
    if (d_manual_sync) {
        gr::cuda::mark_outputs_ready(detail(), d_stream);
    }
    return noutput_items;
}

} // namespace cudaexample
} // namespace gr
