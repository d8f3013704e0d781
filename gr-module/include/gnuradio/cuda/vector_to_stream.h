/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_VECTOR_TO_STREAM_H
#define INCLUDED_CUDA_VECTOR_TO_STREAM_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_interpolator.h>

namespace gr {
namespace cuda {

/*!
 * \brief Splits each vector item into nitems_per_block items, in GPU memory.
 * \ingroup cuda
 */
class CUDA_API vector_to_stream : virtual public gr::sync_interpolator
{
public:
    typedef std::shared_ptr<vector_to_stream> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr
    make(size_t itemsize, size_t nitems_per_block, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_VECTOR_TO_STREAM_H */
