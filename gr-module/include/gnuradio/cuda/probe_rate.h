/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_PROBE_RATE_H
#define INCLUDED_CUDA_PROBE_RATE_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>
#include <string>

namespace gr {
namespace cuda {

/*!
 * \brief Measures the item rate of a GPU stream without touching the data; publishes
 * {rate_avg, rate_now[, name]} on message port "rate" every update_rate_ms.
 * \ingroup cuda
 */
class CUDA_API probe_rate : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<probe_rate> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t itemsize,
                     double update_rate_ms = 500.0,
                     double alpha = 0.0001,
                     const std::string& name = "",
                     int device = default_device);

    //! The averaged rate in items per second.
    virtual double rate() const = 0;
    virtual void set_alpha(double alpha) = 0;
    virtual void set_name(const std::string& name) = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_PROBE_RATE_H */
