/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FLOAT_TO_COMPLEX_H
#define INCLUDED_CUDA_FLOAT_TO_COMPLEX_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief output = input 0 + j input 1 (j 0 with one input), on the GPU (as
 * blocks.float_to_complex). \ingroup cuda
 */
class CUDA_API float_to_complex : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<float_to_complex> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t vlen = 1, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FLOAT_TO_COMPLEX_H */
