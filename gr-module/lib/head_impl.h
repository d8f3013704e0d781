/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_HEAD_IMPL_H
#define INCLUDED_CUDA_HEAD_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/head.h>

namespace gr {
namespace cuda {

class head_impl : public cuda_sync_block<head>
{
public:
    head_impl(size_t sizeof_stream_item, uint64_t nitems, int device);

    void reset() override;
    void set_length(uint64_t nitems) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
    uint64_t d_length; // set under d_setlock, which cuda_sync_block holds around work()
    uint64_t d_passed = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_HEAD_IMPL_H */
