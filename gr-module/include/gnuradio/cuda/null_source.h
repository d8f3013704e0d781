/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_NULL_SOURCE_H
#define INCLUDED_CUDA_NULL_SOURCE_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief An endless source of items in GPU memory: zeros, or whatever the memory held.
 * \ingroup cuda
 *
 * \param sizeof_stream_item bytes per item
 * \param num_outputs number of output ports
 * \param memset zero the items (false skips the memory traffic, for benchmarks)
 * \param device the GPU the block runs on (a CUDA ordinal), or default_device
 */
class CUDA_API null_source : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<null_source> sptr;
    static sptr make(size_t sizeof_stream_item,
                     size_t num_outputs = 1,
                     bool memset = true,
                     int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_NULL_SOURCE_H */
