/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_PROBE_RATE_IMPL_H
#define INCLUDED_CUDA_PROBE_RATE_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/probe_rate.h>
#include <pmt/pmt.h>
#include <chrono>

namespace gr {
namespace cuda {

class probe_rate_impl : public cuda_sync_block<probe_rate>
{
public:
    probe_rate_impl(size_t itemsize,
                    double update_rate_ms,
                    double alpha,
                    const std::string& name,
                    int device);

    double rate() const override;
    void set_alpha(double alpha) override;
    void set_name(const std::string& name) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const double d_update_ms;
    // Set under d_setlock, which cuda_sync_block holds around work().
    double d_alpha;
    pmt::pmt_t d_name;
    double d_average = 0;
    uint64_t d_since_update = 0;
    std::chrono::steady_clock::time_point d_last_update;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_PROBE_RATE_IMPL_H */
