/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_STREAM_TO_VECTOR_H
#define INCLUDED_CUDA_STREAM_TO_VECTOR_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_decimator.h>

namespace gr {
namespace cuda {

/*!
 * \brief Groups nitems_per_block items into one vector item, in GPU memory.
 * \ingroup cuda
 */
class CUDA_API stream_to_vector : virtual public gr::sync_decimator
{
public:
    typedef std::shared_ptr<stream_to_vector> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr
    make(size_t itemsize, size_t nitems_per_block, int device = default_device);
};

} // namespace cuda
} // namespace gr

// This header declared vector_to_stream before each block had a header of its own;
// code that includes it for vector_to_stream keeps compiling.
#include <gnuradio/cuda/vector_to_stream.h>

#endif /* INCLUDED_CUDA_STREAM_TO_VECTOR_H */
