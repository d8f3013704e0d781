/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_NLOG10_FF_IMPL_H
#define INCLUDED_CUDA_NLOG10_FF_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/nlog10_ff.h>

namespace gr {
namespace cuda {

class nlog10_ff_impl : public cuda_sync_block<nlog10_ff>
{
public:
    nlog10_ff_impl(float n, size_t vlen, float k, int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const float d_n;
    const size_t d_vlen;
    const float d_k;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_NLOG10_FF_IMPL_H */
