/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_COMPLEX_TO_FLOAT_H
#define INCLUDED_CUDA_COMPLEX_TO_FLOAT_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Real part to output 0 and, when connected, imaginary part to output 1, on the
 * GPU (as blocks.complex_to_float). \ingroup cuda
 */
class CUDA_API complex_to_float : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<complex_to_float> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t vlen = 1, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_COMPLEX_TO_FLOAT_H */
