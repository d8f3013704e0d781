/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FFT_FILTER_H
#define INCLUDED_CUDA_FFT_FILTER_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_decimator.h>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief Decimating FIR filter by overlap-save convolution through cuFFT, as
 * filter.fft_filter_ccc/ccf/fff.
 * \ingroup cuda
 *
 * The output is GNU Radio's fir_filter output (and its fft_filter's), computed in whole
 * segments as GNU Radio's fft_filter does (its output multiple is one segment), so it is
 * the same bit for bit however the scheduler splits the stream. nthreads is kept for
 * compatibility: cuFFT needs no CPU threads.
 */
template <class IN_T, class OUT_T, class TAP_T>
class CUDA_API fft_filter : virtual public gr::sync_decimator
{
public:
    typedef std::shared_ptr<fft_filter<IN_T, OUT_T, TAP_T>> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(int decimation,
                     const std::vector<TAP_T>& taps,
                     int nthreads = 1,
                     int device = default_device);

    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    virtual std::vector<TAP_T> taps() const = 0;
    virtual void set_nthreads(int n) = 0;
    virtual int nthreads() const = 0;
};

typedef fft_filter<gr_complex, gr_complex, gr_complex> fft_filter_ccc;
typedef fft_filter<gr_complex, gr_complex, float> fft_filter_ccf;
typedef fft_filter<float, float, float> fft_filter_fff;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FFT_FILTER_H */
