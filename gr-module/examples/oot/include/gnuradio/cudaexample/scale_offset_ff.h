/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDAEXAMPLE_SCALE_OFFSET_FF_H
#define INCLUDED_CUDAEXAMPLE_SCALE_OFFSET_FF_H

#include <gnuradio/cudaexample/api.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cudaexample {

/*!
 * \brief out = in * scale + offset for floats, on the GPU.
 * \ingroup cudaexample
 *
 * Input and output are gr-cuda buffers (device memory): connected to CPU blocks, GNU
 * Radio copies the data to and from the GPU; connected to gr-cuda blocks (or GPU blocks
 * of any module built on gr-cuda), the data stays on the GPU.
 */
class CUDAEXAMPLE_API scale_offset_ff : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<scale_offset_ff> sptr;

    static sptr make(float scale, float offset);

    virtual float scale() const = 0;
    virtual void set_scale(float scale) = 0;
    virtual float offset() const = 0;
    virtual void set_offset(float offset) = 0;
};

} // namespace cudaexample
} // namespace gr

#endif /* INCLUDED_CUDAEXAMPLE_SCALE_OFFSET_FF_H */
