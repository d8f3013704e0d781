/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FREQ_XLATING_FIR_FILTER_H
#define INCLUDED_CUDA_FREQ_XLATING_FIR_FILTER_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_decimator.h>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief Frequency translation, FIR filter and decimation in one GPU block, as
 * filter.freq_xlating_fir_filter_ccc/ccf.
 * \ingroup cuda
 *
 * As GNU Radio's block: the taps are moved up to center_freq (a band-pass filter), the
 * input filtered and decimated, and the output rotated down by center_freq. The
 * rotation's phase is computed in double precision per output, where GNU Radio's rotator
 * multiplies a float phase by a float increment every output. A new center frequency or
 * new taps (set_center_freq(), set_taps(), a message on the "freq" port: a dict or pair
 * holding "freq") take effect at the next work() call, which tags its first output with
 * "freq", and the phase is adjusted for the filter's delay as GNU Radio adjusts it.
 */
template <class IN_T, class OUT_T, class TAP_T>
class CUDA_API freq_xlating_fir_filter : virtual public gr::sync_decimator
{
public:
    typedef std::shared_ptr<freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(int decimation,
                     const std::vector<TAP_T>& taps,
                     double center_freq,
                     double sampling_freq,
                     int device = default_device);

    virtual void set_center_freq(double center_freq) = 0;
    virtual double center_freq() const = 0;
    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    virtual std::vector<TAP_T> taps() const = 0;
};

typedef freq_xlating_fir_filter<gr_complex, gr_complex, gr_complex>
    freq_xlating_fir_filter_ccc;
typedef freq_xlating_fir_filter<gr_complex, gr_complex, float>
    freq_xlating_fir_filter_ccf;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FREQ_XLATING_FIR_FILTER_H */
