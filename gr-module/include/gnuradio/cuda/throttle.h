/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_THROTTLE_H
#define INCLUDED_CUDA_THROTTLE_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Passes items (copied in GPU memory) no faster than sample_rate items per second.
 * \ingroup cuda
 */
class CUDA_API throttle : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<throttle> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t itemsize, double sample_rate, int device = default_device);

    virtual double sample_rate() const = 0;
    //! Sets the rate (finite, > 0) and restarts the clock.
    virtual void set_sample_rate(double rate) = 0;
};

} // namespace cuda
} // namespace gr

// This header declared probe_rate before each block had a header of its own;
// code that includes it for probe_rate keeps compiling.
#include <gnuradio/cuda/probe_rate.h>

#endif /* INCLUDED_CUDA_THROTTLE_H */
