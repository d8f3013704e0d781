/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MULTIPLY_CONJUGATE_CC_IMPL_H
#define INCLUDED_CUDA_MULTIPLY_CONJUGATE_CC_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/multiply_conjugate_cc.h>

namespace gr {
namespace cuda {

class multiply_conjugate_cc_impl : public cuda_sync_block<multiply_conjugate_cc>
{
public:
    multiply_conjugate_cc_impl(size_t vlen, int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_vlen;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MULTIPLY_CONJUGATE_CC_IMPL_H */
