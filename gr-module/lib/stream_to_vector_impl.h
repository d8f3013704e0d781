/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_STREAM_TO_VECTOR_IMPL_H
#define INCLUDED_CUDA_STREAM_TO_VECTOR_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/stream_to_vector.h>

namespace gr {
namespace cuda {

//! Both reshaping blocks: the bytes are the same, only the item boundaries change.
template <class Interface>
class reshape_impl : public cuda_sync_block<Interface>
{
public:
    reshape_impl(size_t itemsize, size_t nitems_per_block);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    size_t d_output_itemsize;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_STREAM_TO_VECTOR_IMPL_H */
