/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_ADD_IMPL_H
#define INCLUDED_CUDA_ADD_IMPL_H

#include <gnuradio/cuda/add.h>
#include <gnuradio/cuda/cuda_block.h>

namespace gr {
namespace cuda {

template <class T>
class add_impl : public cuda_sync_block<add<T>>
{
public:
    add_impl(size_t num_inputs, size_t vlen, int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_vlen;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_ADD_IMPL_H */
