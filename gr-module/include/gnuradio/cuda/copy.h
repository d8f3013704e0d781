/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_COPY_H
#define INCLUDED_CUDA_COPY_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Copies items from input to output in GPU memory.
 * \ingroup cuda
 *
 * Next to CPU blocks it moves data between host and GPU: GNU Radio makes the edge a
 * host-to-device or device-to-host buffer and the buffer does the transfer.
 */
class CUDA_API copy : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<copy> sptr;

    /*!
     * \param itemsize bytes per item
     * \param device the GPU the block runs on (a CUDA ordinal), or default_device
     */
    static sptr make(size_t itemsize, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_COPY_H */
