/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_NULL_SOURCE_IMPL_H
#define INCLUDED_CUDA_NULL_SOURCE_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/null_source.h>

namespace gr {
namespace cuda {

class null_source_impl : public cuda_sync_block<null_source>
{
public:
    null_source_impl(size_t sizeof_stream_item,
                     size_t num_outputs,
                     bool memset,
                     int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
    const bool d_memset;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_NULL_SOURCE_IMPL_H */
