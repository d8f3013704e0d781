/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_NULL_SINK_H
#define INCLUDED_CUDA_NULL_SINK_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Consumes items in GPU memory and does nothing with them.
 * \ingroup cuda
 *
 * \param sizeof_stream_item bytes per item
 * \param num_inputs number of input ports
 * \param device the GPU the block runs on (a CUDA ordinal), or default_device
 */
class CUDA_API null_sink : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<null_sink> sptr;
    static sptr
    make(size_t sizeof_stream_item, size_t num_inputs = 1, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_NULL_SINK_H */
