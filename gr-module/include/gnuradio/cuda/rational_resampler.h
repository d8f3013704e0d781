/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_RATIONAL_RESAMPLER_H
#define INCLUDED_CUDA_RATIONAL_RESAMPLER_H

#include <gnuradio/block.h>
#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief Rational resampling polyphase FIR filter, on the GPU (as
 * filter.rational_resampler_XXX).
 * \ingroup cuda
 *
 * Output rate = input rate * interpolation / decimation. Empty taps are designed as GNU
 * Radio 3.10 designs them (a Kaiser low-pass for fractional_bw, 0.4 when it is <= 0, with
 * interpolation and decimation first divided by their GCD).
 */
template <class SAMPLE_T, class TAP_T>
class CUDA_API rational_resampler : virtual public gr::block
{
public:
    typedef std::shared_ptr<rational_resampler<SAMPLE_T, TAP_T>> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(unsigned interpolation,
                     unsigned decimation,
                     const std::vector<TAP_T>& taps = std::vector<TAP_T>(),
                     float fractional_bw = 0.0,
                     int device = default_device);

    virtual unsigned interpolation() const = 0;
    virtual unsigned decimation() const = 0;
    //! Replaces the taps from the next work() call on (padded with zeros to a multiple
    //! of interpolation, as GNU Radio does).
    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    virtual std::vector<TAP_T> taps() const = 0;
};

typedef rational_resampler<gr_complex, gr_complex> rational_resampler_ccc;
typedef rational_resampler<gr_complex, float> rational_resampler_ccf;
typedef rational_resampler<float, float> rational_resampler_fff;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_RATIONAL_RESAMPLER_H */
