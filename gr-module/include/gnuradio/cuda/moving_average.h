/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MOVING_AVERAGE_H
#define INCLUDED_CUDA_MOVING_AVERAGE_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Moving sum of length items times scale, on the GPU (as
 * blocks.moving_average_XX). \ingroup cuda
 *
 * The running sum starts afresh at least every max_iter outputs, as GNU Radio's does, so
 * it rounds as GNU Radio's; with vlen > 1 each lane of the vectors is averaged on its
 * own. Setters take effect at the next work(), which returns 0 to let the history change.
 */
template <class T>
class CUDA_API moving_average : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<moving_average<T>> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(int length,
                     T scale,
                     int max_iter = 4096,
                     unsigned int vlen = 1,
                     int device = default_device);

    virtual int length() const = 0;
    virtual T scale() const = 0;
    virtual void set_length_and_scale(int length, T scale) = 0;
    virtual void set_length(int length) = 0;
    virtual void set_scale(T scale) = 0;
};

typedef moving_average<float> moving_average_ff;
typedef moving_average<gr_complex> moving_average_cc;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MOVING_AVERAGE_H */
