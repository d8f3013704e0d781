/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_TEE_H
#define INCLUDED_CUDA_TEE_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Copies its input to two outputs: the way to feed GPU and CPU blocks from one
 * output. \ingroup cuda
 *
 * GNU Radio 3.10 gives each output one transfer type, so one output cannot feed GPU and
 * CPU blocks. With gpu=true the tee's ports are in GPU memory: put it after a GPU block
 * and connect GPU blocks to one output and CPU blocks to the other. With gpu=false its
 * ports are in host memory: put it after a CPU block in the same way.
 */
class CUDA_API tee : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<tee> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t itemsize, bool gpu = true, int device = default_device);
};

} // namespace cuda
} // namespace gr

// This header declared fft_shift before each block had a header of its own;
// code that includes it for fft_shift keeps compiling.
#include <gnuradio/cuda/fft_shift.h>

#endif /* INCLUDED_CUDA_TEE_H */
