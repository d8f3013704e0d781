/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MULTIPLY_CONST_IMPL_H
#define INCLUDED_CUDA_MULTIPLY_CONST_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/multiply_const.h>

namespace gr {
namespace cuda {

template <class T>
class multiply_const_impl : public cuda_sync_block<multiply_const<T>>
{
public:
    multiply_const_impl(T k, size_t vlen, int device);

    T k() const override;
    void set_k(T k) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    T d_k; // set under d_setlock, which cuda_sync_block holds around work()
    const size_t d_vlen;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MULTIPLY_CONST_IMPL_H */
