/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_LOAD_H
#define INCLUDED_CUDA_LOAD_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief A synthetic GPU load for benchmarks: copies its input to its output with a
 * kernel that reads and writes every byte \p iterations times.
 * \ingroup cuda
 *
 * With \p use_cb (the default) its ports are cuda_buffers and the kernel works on them in
 * place of the buffers; without, its ports are GNU Radio's host buffers and each call
 * moves the items to the GPU and back itself, through staging memory of its own, so that
 * a benchmark compares the custom buffers with explicit copies.
 */
class CUDA_API load : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<load> sptr;

    /*!
     * \param iterations times each byte is copied (at least 1)
     * \param itemsize bytes per item
     * \param use_cb ports in cuda_buffers (true) or host buffers with explicit copies
     * \param device the GPU the block runs on (a CUDA ordinal), or default_device
     */
    static sptr make(size_t iterations,
                     size_t itemsize,
                     bool use_cb = true,
                     int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_LOAD_H */
