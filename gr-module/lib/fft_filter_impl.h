/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FFT_FILTER_IMPL_H
#define INCLUDED_CUDA_FFT_FILTER_IMPL_H

#include "filter_block.h"
#include <gnuradio/cuda/fft_filter.h>

namespace gr {
namespace cuda {

template <class IN_T, class OUT_T, class TAP_T>
class fft_filter_impl : public filter_block<fft_filter<IN_T, OUT_T, TAP_T>, IN_T, TAP_T>
{
public:
    fft_filter_impl(int decimation,
                    const std::vector<TAP_T>& taps,
                    int nthreads,
                    int device);

    void set_nthreads(int n) override;
    int nthreads() const override;

private:
    int d_nthreads; // kept for compatibility; cuFFT uses no CPU threads
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FFT_FILTER_IMPL_H */
