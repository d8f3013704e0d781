/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MULTIPLY_CONJUGATE_CC_H
#define INCLUDED_CUDA_MULTIPLY_CONJUGATE_CC_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief output = input 0 * conj(input 1), on the GPU (as blocks.multiply_conjugate_cc).
 * \ingroup cuda
 */
class CUDA_API multiply_conjugate_cc : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<multiply_conjugate_cc> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t vlen = 1, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MULTIPLY_CONJUGATE_CC_H */
