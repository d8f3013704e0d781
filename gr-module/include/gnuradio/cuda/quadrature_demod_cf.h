/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_QUADRATURE_DEMOD_CF_H
#define INCLUDED_CUDA_QUADRATURE_DEMOD_CF_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief output = gain * angle(input[i] * conj(input[i - 1])), on the GPU (as
 * analog.quadrature_demod_cf, with its fast_atan2f).
 * \ingroup cuda
 */
class CUDA_API quadrature_demod_cf : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<quadrature_demod_cf> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(float gain, int device = default_device);

    virtual void set_gain(float gain) = 0;
    virtual float gain() const = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_QUADRATURE_DEMOD_CF_H */
