/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_TEE_IMPL_H
#define INCLUDED_CUDA_TEE_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/tee.h>

namespace gr {
namespace cuda {

class tee_impl : public cuda_sync_block<tee>
{
public:
    tee_impl(size_t itemsize, bool gpu, int device);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
    const bool d_gpu;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_TEE_IMPL_H */
