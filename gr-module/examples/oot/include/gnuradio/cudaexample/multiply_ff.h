/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDAEXAMPLE_MULTIPLY_FF_H
#define INCLUDED_CUDAEXAMPLE_MULTIPLY_FF_H

#include <gnuradio/cudaexample/api.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cudaexample {

/*!
 * \brief out = in * k for floats, on the GPU, written in the reference gr-cuda module's
 * C++ style: the gr::cuda_block mixin and a kernel launched on d_stream, with
 * wait_for_inputs() / mark_outputs_ready() around it (\p manual_sync) or without them, as
 * the reference's automatically synchronised blocks are written (docs/PORTING.md).
 * \ingroup cudaexample
 */
class CUDAEXAMPLE_API multiply_ff : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<multiply_ff> sptr;

    static sptr make(float k, bool manual_sync = true);

    virtual float k() const = 0;
    virtual void set_k(float k) = 0;
};

} // namespace cudaexample
} // namespace gr

#endif /* INCLUDED_CUDAEXAMPLE_MULTIPLY_FF_H */
