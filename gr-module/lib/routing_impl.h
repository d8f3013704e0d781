/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_ROUTING_IMPL_H
#define INCLUDED_CUDA_ROUTING_IMPL_H

// Blocks that only move items between ports: tee, fft_shift, streams_to_vector,
// vector_to_streams.

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/streams_to_vector.h>
#include <gnuradio/cuda/tee.h>

namespace gr {
namespace cuda {

class tee_impl : public cuda_sync_block<tee>
{
public:
    tee_impl(size_t itemsize, bool gpu);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
    const bool d_gpu;
};

class fft_shift_impl : public cuda_sync_block<fft_shift>
{
public:
    explicit fft_shift_impl(size_t fft_size);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_size;
};

class streams_to_vector_impl : public cuda_sync_block<streams_to_vector>
{
public:
    streams_to_vector_impl(size_t itemsize, size_t num_streams);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
};

class vector_to_streams_impl : public cuda_sync_block<vector_to_streams>
{
public:
    vector_to_streams_impl(size_t itemsize, size_t num_streams);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_ROUTING_IMPL_H */
