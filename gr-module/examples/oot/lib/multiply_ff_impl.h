/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDAEXAMPLE_MULTIPLY_FF_IMPL_H
#define INCLUDED_CUDAEXAMPLE_MULTIPLY_FF_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cudaexample/multiply_ff.h>

namespace gr {
namespace cudaexample {

// The reference module's style: a GNU Radio sync block plus the gr::cuda_block mixin,
// which gives it d_stream. Such a block may synchronise itself (its work() waits for its
// inputs and marks its outputs) or leave that to gr-cuda's buffers; scale_offset_ff shows
// gr-cuda's own base, whose work() waits for nothing on the host.
class multiply_ff_impl : public multiply_ff, public cuda_block
{
public:
    multiply_ff_impl(float k, bool manual_sync);

    float k() const override { return d_k; }
    void set_k(float k) override { d_k = k; }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    float d_k; // replaced whole by set_k(); work() reads it once per call
    const bool d_manual_sync;
};

} // namespace cudaexample
} // namespace gr

#endif /* INCLUDED_CUDAEXAMPLE_MULTIPLY_FF_IMPL_H */
