/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fft_filter_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

template <class IN_T, class OUT_T, class TAP_T>
typename fft_filter<IN_T, OUT_T, TAP_T>::sptr fft_filter<IN_T, OUT_T, TAP_T>::make(
    int decimation, const std::vector<TAP_T>& taps, int nthreads, int device)
{
    const std::string block = arguments::filter_name<IN_T, TAP_T>("cuda.fft_filter");
    arguments::require_at_least_one(block, "decimation", decimation);
    arguments::require_taps(block, "taps", taps);
    arguments::require_at_least_one(block, "nthreads", nthreads);
    return gnuradio::make_block_sptr<fft_filter_impl<IN_T, OUT_T, TAP_T>>(
        decimation, taps, nthreads, device);
}

template <class IN_T, class OUT_T, class TAP_T>
fft_filter_impl<IN_T, OUT_T, TAP_T>::fft_filter_impl(int decimation,
                                                     const std::vector<TAP_T>& taps,
                                                     int nthreads,
                                                     int device)
    : gr::sync_decimator("fft_filter",
                         gr::io_signature::make(1, 1, sizeof(IN_T), cuda_buffer::type),
                         gr::io_signature::make(1, 1, sizeof(OUT_T), cuda_buffer::type),
                         decimation),
      filter_block<fft_filter<IN_T, OUT_T, TAP_T>, IN_T, TAP_T>(
          "cuda.fft_filter", decimation, taps, GRCUDA_FIR_FFT_WHOLE_SEGMENTS, device),
      d_nthreads(nthreads)
{
}

template <class IN_T, class OUT_T, class TAP_T>
void fft_filter_impl<IN_T, OUT_T, TAP_T>::set_nthreads(int n)
{
    arguments::require_at_least_one(
        arguments::filter_name<IN_T, TAP_T>("cuda.fft_filter"), "nthreads", n);
    d_nthreads = n;
}

template <class IN_T, class OUT_T, class TAP_T>
int fft_filter_impl<IN_T, OUT_T, TAP_T>::nthreads() const
{
    return d_nthreads;
}

template class fft_filter<gr_complex, gr_complex, gr_complex>;
template class fft_filter<gr_complex, gr_complex, float>;
template class fft_filter<float, float, float>;

} // namespace cuda
} // namespace gr
