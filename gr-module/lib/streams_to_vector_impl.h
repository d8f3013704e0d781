/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_STREAMS_TO_VECTOR_IMPL_H
#define INCLUDED_CUDA_STREAMS_TO_VECTOR_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/streams_to_vector.h>

namespace gr {
namespace cuda {

class streams_to_vector_impl : public cuda_sync_block<streams_to_vector>
{
public:
    streams_to_vector_impl(size_t itemsize, size_t num_streams, int device);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_STREAMS_TO_VECTOR_IMPL_H */
