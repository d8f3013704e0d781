/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_COMPLEX_TO_ARG_H
#define INCLUDED_CUDA_COMPLEX_TO_ARG_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief output = angle of the input in radians, on the GPU (as blocks.complex_to_arg).
 * \ingroup cuda
 *
 * The angle is GNU Radio's fast_atan2f, table for table.
 */
class CUDA_API complex_to_arg : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<complex_to_arg> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t vlen = 1, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_COMPLEX_TO_ARG_H */
