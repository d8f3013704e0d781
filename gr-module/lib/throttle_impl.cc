/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "throttle_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <boost/date_time/posix_time/posix_time_types.hpp>
#include <boost/thread/thread.hpp>
#include <algorithm>

namespace gr {
namespace cuda {

throttle::sptr throttle::make(size_t itemsize, double sample_rate, int device)
{
    arguments::require_item_size("cuda.throttle", "itemsize", itemsize);
    arguments::require_positive("cuda.throttle", "sample_rate", sample_rate);
    return gnuradio::make_block_sptr<throttle_impl>(itemsize, sample_rate, device);
}

throttle_impl::throttle_impl(size_t itemsize, double sample_rate, int device)
    : gr::sync_block("throttle",
                     gr::io_signature::make(1, 1, itemsize, cuda_buffer::type),
                     gr::io_signature::make(1, 1, itemsize, cuda_buffer::type)),
      cuda_sync_block<throttle>(device),
      d_itemsize(itemsize),
      d_rate(sample_rate),
      d_start(std::chrono::steady_clock::now())
{
}

double throttle_impl::sample_rate() const { return d_rate; }

void throttle_impl::set_sample_rate(double rate)
{
    arguments::require_positive("cuda.throttle", "sample_rate", rate);
    gr::thread::scoped_lock guard(d_setlock);
    d_rate = rate;
    d_start = std::chrono::steady_clock::now();
    d_passed = 0;
}

bool throttle_impl::start()
{
    d_start = std::chrono::steady_clock::now();
    d_passed = 0;
    return cuda_sync_block<throttle>::start();
}

int throttle_impl::general_work(int noutput_items,
                                gr_vector_int& ninput_items,
                                gr_vector_const_void_star& input_items,
                                gr_vector_void_star& output_items)
{
    const int produced = cuda_sync_block<throttle>::general_work(
        noutput_items, ninput_items, input_items, output_items);
    // After work(), outside d_setlock, so that set_sample_rate() need not wait for the
    // sleep; one that stop() interrupts, as GNU Radio's thread sleeps.
    const auto remaining = d_due - std::chrono::steady_clock::now();
    if (remaining.count() > 0) {
        boost::this_thread::sleep(boost::posix_time::microseconds(
            std::chrono::duration_cast<std::chrono::microseconds>(remaining).count()));
    }
    return produced;
}

int throttle_impl::work(int noutput_items,
                        gr_vector_const_void_star& input_items,
                        gr_vector_void_star& output_items)
{
    // At most a tenth of a second's worth per call keeps the output smooth.
    const auto n = std::max<int>(1, std::min<double>(noutput_items, d_rate / 10));
    check(grcuda_copy(stream(), input_items[0], output_items[0], n * d_itemsize),
          "cuda.throttle");
    d_passed += n;
    // Up to a billion seconds (the nanoseconds of longer ones overflow): at a tiny rate
    // the next item is that far away.
    const double due = std::min(d_passed / d_rate, 1e9);
    d_due = d_start + std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::duration<double>(due));
    return n;
}

} // namespace cuda
} // namespace gr
