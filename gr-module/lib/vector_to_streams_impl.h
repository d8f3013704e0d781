/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_VECTOR_TO_STREAMS_IMPL_H
#define INCLUDED_CUDA_VECTOR_TO_STREAMS_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/vector_to_streams.h>

namespace gr {
namespace cuda {

class vector_to_streams_impl : public cuda_sync_block<vector_to_streams>
{
public:
    vector_to_streams_impl(size_t itemsize, size_t num_streams, int device);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_VECTOR_TO_STREAMS_IMPL_H */
