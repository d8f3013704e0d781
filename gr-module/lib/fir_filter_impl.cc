/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fir_filter_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

template <class IN_T, class OUT_T, class TAP_T>
typename fir_filter<IN_T, OUT_T, TAP_T>::sptr fir_filter<IN_T, OUT_T, TAP_T>::make(
    int decimation, const std::vector<TAP_T>& taps, int device)
{
    const std::string block = arguments::filter_name<IN_T, TAP_T>("cuda.fir_filter");
    arguments::require_at_least_one(block, "decimation", decimation);
    arguments::require_taps(block, "taps", taps);
    return gnuradio::make_block_sptr<fir_filter_impl<IN_T, OUT_T, TAP_T>>(
        decimation, taps, device);
}

template <class IN_T, class OUT_T, class TAP_T>
fir_filter_impl<IN_T, OUT_T, TAP_T>::fir_filter_impl(int decimation,
                                                     const std::vector<TAP_T>& taps,
                                                     int device)
    : gr::sync_decimator("fir_filter",
                         gr::io_signature::make(1, 1, sizeof(IN_T), cuda_buffer::type),
                         gr::io_signature::make(1, 1, sizeof(OUT_T), cuda_buffer::type),
                         decimation),
      filter_block<fir_filter<IN_T, OUT_T, TAP_T>, IN_T, TAP_T>(
          "cuda.fir_filter", decimation, taps, GRCUDA_FIR_AUTOMATIC, device)
{
}

template class fir_filter<gr_complex, gr_complex, gr_complex>;
template class fir_filter<gr_complex, gr_complex, float>;
template class fir_filter<float, float, float>;

} // namespace cuda
} // namespace gr
