/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_THROTTLE_IMPL_H
#define INCLUDED_CUDA_THROTTLE_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/throttle.h>
#include <chrono>

namespace gr {
namespace cuda {

class throttle_impl : public cuda_sync_block<throttle>
{
public:
    throttle_impl(size_t itemsize, double sample_rate, int device);

    double sample_rate() const override;
    void set_sample_rate(double rate) override;
    bool start() override;

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
    // Set under d_setlock, which cuda_sync_block holds around work().
    double d_rate;
    std::chrono::steady_clock::time_point d_start;
    uint64_t d_passed = 0;
    //! When the items passed so far are due: general_work() sleeps until then.
    std::chrono::steady_clock::time_point d_due;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_THROTTLE_IMPL_H */
