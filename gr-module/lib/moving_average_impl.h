/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MOVING_AVERAGE_IMPL_H
#define INCLUDED_CUDA_MOVING_AVERAGE_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/moving_average.h>

namespace gr {
namespace cuda {

template <class T>
class moving_average_impl : public cuda_sync_block<moving_average<T>>
{
public:
    moving_average_impl(int length, T scale, int max_iter, unsigned int vlen, int device);

    int length() const override;
    T scale() const override;
    void set_length_and_scale(int length, T scale) override;
    void set_length(int length) override;
    void set_scale(T scale) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    // All under d_setlock, which cuda_sync_block holds around work(); the new values wait
    // for the next work(), as GNU Radio's block has them.
    int d_length;
    T d_scale;
    const int d_max_iter;
    const unsigned int d_vlen;
    int d_new_length;
    T d_new_scale;
    bool d_updated = false;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MOVING_AVERAGE_IMPL_H */
