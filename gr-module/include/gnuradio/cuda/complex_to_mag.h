/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_COMPLEX_TO_MAG_H
#define INCLUDED_CUDA_COMPLEX_TO_MAG_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief |input| (complex to float), on the GPU, as blocks.complex_to_mag.
 * \ingroup cuda
 */
class CUDA_API complex_to_mag : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<complex_to_mag> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t vlen = 1, int device = default_device);
};

} // namespace cuda
} // namespace gr

// This header declared complex_to_mag_squared before each block had a header of its own;
// code that includes it for complex_to_mag_squared keeps compiling.
#include <gnuradio/cuda/complex_to_mag_squared.h>

#endif /* INCLUDED_CUDA_COMPLEX_TO_MAG_H */
