/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_CONJUGATE_CC_H
#define INCLUDED_CUDA_CONJUGATE_CC_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief output = conj(input), on the GPU (as blocks.conjugate_cc).
 * \ingroup cuda
 */
class CUDA_API conjugate_cc : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<conjugate_cc> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_CONJUGATE_CC_H */
