/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "probe_rate_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/io_signature.h>
#include <cmath>

namespace gr {
namespace cuda {

probe_rate::sptr probe_rate::make(size_t itemsize,
                                  double update_rate_ms,
                                  double alpha,
                                  const std::string& name,
                                  int device)
{
    arguments::require_item_size("cuda.probe_rate", "itemsize", itemsize);
    arguments::require_positive("cuda.probe_rate", "update_rate_ms", update_rate_ms);
    arguments::require_fraction("cuda.probe_rate", "alpha", alpha);
    return gnuradio::make_block_sptr<probe_rate_impl>(
        itemsize, update_rate_ms, alpha, name, device);
}

// The output signature names cuda_buffer although the block has no outputs: see
// null_sink.
probe_rate_impl::probe_rate_impl(size_t itemsize,
                                 double update_rate_ms,
                                 double alpha,
                                 const std::string& name,
                                 int device)
    : gr::sync_block("probe_rate",
                     gr::io_signature::make(1, 1, itemsize, cuda_buffer::type),
                     gr::io_signature::make(0, 0, itemsize, cuda_buffer::type)),
      cuda_sync_block<probe_rate>(device),
      d_update_ms(update_rate_ms),
      d_alpha(alpha),
      d_name(pmt::intern(name)),
      d_last_update(std::chrono::steady_clock::now())
{
    message_port_register_out(pmt::mp("rate"));
}

double probe_rate_impl::rate() const { return d_average; }

void probe_rate_impl::set_alpha(double alpha)
{
    arguments::require_fraction("cuda.probe_rate", "alpha", alpha);
    gr::thread::scoped_lock guard(d_setlock);
    d_alpha = alpha;
}

void probe_rate_impl::set_name(const std::string& name)
{
    gr::thread::scoped_lock guard(d_setlock);
    d_name = pmt::intern(name);
}

int probe_rate_impl::work(int noutput_items,
                          gr_vector_const_void_star&,
                          gr_vector_void_star&)
{
    d_since_update += noutput_items;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed_ms =
        std::chrono::duration<double, std::milli>(now - d_last_update).count();
    if (elapsed_ms < d_update_ms) {
        return noutput_items;
    }
    const double now_rate = d_since_update * 1e3 / elapsed_ms;
    d_since_update = 0;
    d_last_update = now;
    // Start the average afresh when it is unset or has gone non-finite.
    d_average = (d_average == 0 || !std::isfinite(d_average))
                    ? now_rate
                    : now_rate * d_alpha + d_average * (1 - d_alpha);
    pmt::pmt_t rates = pmt::make_dict();
    rates = pmt::dict_add(rates, pmt::mp("rate_avg"), pmt::mp(d_average));
    rates = pmt::dict_add(rates, pmt::mp("rate_now"), pmt::mp(now_rate));
    if (!pmt::symbol_to_string(d_name).empty()) {
        rates = pmt::dict_add(rates, pmt::mp("name"), d_name);
    }
    message_port_pub(pmt::mp("rate"), pmt::cons(rates, pmt::PMT_NIL));
    return noutput_items;
}

} // namespace cuda
} // namespace gr
