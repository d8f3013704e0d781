/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MULTIPLY_IMPL_H
#define INCLUDED_CUDA_MULTIPLY_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/multiply.h>

namespace gr {
namespace cuda {

template <class T>
class multiply_impl : public cuda_sync_block<multiply<T>>
{
public:
    multiply_impl(size_t vlen, int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_vlen;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MULTIPLY_IMPL_H */
