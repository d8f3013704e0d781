/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_NOP_H
#define INCLUDED_CUDA_NOP_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Passes items through without touching them (its output holds whatever the
 * memory held): measures the buffers' own overhead.
 * \ingroup cuda
 */
class CUDA_API nop : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<nop> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t sizeof_stream_item, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_NOP_H */
