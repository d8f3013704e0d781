/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_NLOG10_FF_H
#define INCLUDED_CUDA_NLOG10_FF_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief output = n * log10(input) + k, on the GPU, as blocks.nlog10_ff.
 * \ingroup cuda
 */
class CUDA_API nlog10_ff : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<nlog10_ff> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr
    make(float n = 1.0, size_t vlen = 1, float k = 0.0, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_NLOG10_FF_H */
