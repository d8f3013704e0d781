/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_RATE_IMPL_H
#define INCLUDED_CUDA_RATE_IMPL_H

// Blocks about item rates: throttle and probe_rate.

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/throttle.h>
#include <pmt/pmt.h>
#include <chrono>

namespace gr {
namespace cuda {

class throttle_impl : public cuda_sync_block<throttle>
{
public:
    throttle_impl(size_t itemsize, double sample_rate);

    double sample_rate() const override;
    void set_sample_rate(double rate) override;
    bool start() override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_itemsize;
    // Set under d_setlock, which GNU Radio also holds around work().
    double d_rate;
    std::chrono::steady_clock::time_point d_start;
    uint64_t d_passed = 0;
};

class probe_rate_impl : public cuda_sync_block<probe_rate>
{
public:
    probe_rate_impl(size_t itemsize, double update_rate_ms, double alpha, const std::string& name);

    double rate() const override;
    void set_alpha(double alpha) override;
    void set_name(const std::string& name) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const double d_update_ms;
    // Set under d_setlock, which GNU Radio also holds around work().
    double d_alpha;
    pmt::pmt_t d_name;
    double d_average = 0;
    uint64_t d_since_update = 0;
    std::chrono::steady_clock::time_point d_last_update;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_RATE_IMPL_H */
