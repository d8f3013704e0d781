/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_VECTOR_TO_STREAMS_H
#define INCLUDED_CUDA_VECTOR_TO_STREAMS_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Splits vectors of num_streams items into num_streams outputs, on the GPU.
 * \ingroup cuda
 */
class CUDA_API vector_to_streams : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<vector_to_streams> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t itemsize, size_t num_streams, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_VECTOR_TO_STREAMS_H */
