/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_STREAMS_TO_VECTOR_H
#define INCLUDED_CUDA_STREAMS_TO_VECTOR_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Interleaves num_streams inputs into vectors of num_streams items, on the GPU.
 * \ingroup cuda
 */
class CUDA_API streams_to_vector : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<streams_to_vector> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t itemsize, size_t num_streams, int device = default_device);
};

} // namespace cuda
} // namespace gr

// This header declared vector_to_streams before each block had a header of its own;
// code that includes it for vector_to_streams keeps compiling.
#include <gnuradio/cuda/vector_to_streams.h>

#endif /* INCLUDED_CUDA_STREAMS_TO_VECTOR_H */
