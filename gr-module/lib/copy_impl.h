/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_COPY_IMPL_H
#define INCLUDED_CUDA_COPY_IMPL_H

#include <gnuradio/cuda/copy.h>
#include <gnuradio/cuda/cuda_block.h>

namespace gr {
namespace cuda {

class copy_impl : public cuda_sync_block<copy>
{
public:
    copy_impl(size_t itemsize, int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_COPY_IMPL_H */
