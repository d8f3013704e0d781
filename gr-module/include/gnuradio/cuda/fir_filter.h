/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FIR_FILTER_H
#define INCLUDED_CUDA_FIR_FILTER_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_decimator.h>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief Decimating FIR filter on the GPU, as filter.fir_filter_ccc/ccf/fff.
 * \ingroup cuda
 *
 * Output j is the dot product of the reversed taps with the input from item j *
 * decimation on (history: the previous taps - 1 items, zero at the start). Up to
 * grcuda_fir_filter_direct_tap_limit() taps (which depends on the types and the
 * decimation) it computes one dot product per output; beyond, overlap-save convolution
 * (shared-memory FFTs, cuFFT for more than 2049 taps), which needs a longer history (one
 * FFT segment). set_taps() takes effect at the start of the next work() call, as in GNU
 * Radio.
 */
template <class IN_T, class OUT_T, class TAP_T>
class CUDA_API fir_filter : virtual public gr::sync_decimator
{
public:
    typedef std::shared_ptr<fir_filter<IN_T, OUT_T, TAP_T>> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr
    make(int decimation, const std::vector<TAP_T>& taps, int device = default_device);

    virtual void set_taps(const std::vector<TAP_T>& taps) = 0;
    virtual std::vector<TAP_T> taps() const = 0;
};

typedef fir_filter<gr_complex, gr_complex, gr_complex> fir_filter_ccc;
typedef fir_filter<gr_complex, gr_complex, float> fir_filter_ccf;
typedef fir_filter<float, float, float> fir_filter_fff;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FIR_FILTER_H */
