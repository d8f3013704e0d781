/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_HEAD_H
#define INCLUDED_CUDA_HEAD_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>
#include <cstdint>

namespace gr {
namespace cuda {

/*!
 * \brief Passes the first nitems items (copied in GPU memory), then ends the flowgraph.
 * \ingroup cuda
 */
class CUDA_API head : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<head> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr
    make(size_t sizeof_stream_item, uint64_t nitems, int device = default_device);

    //! Passes nitems items again.
    virtual void reset() = 0;
    virtual void set_length(uint64_t nitems) = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_HEAD_H */
