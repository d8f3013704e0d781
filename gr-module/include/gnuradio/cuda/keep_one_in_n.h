/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_KEEP_ONE_IN_N_H
#define INCLUDED_CUDA_KEEP_ONE_IN_N_H

#include <gnuradio/block.h>
#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>

namespace gr {
namespace cuda {

/*!
 * \brief Keep the last item of every n, on the GPU (as blocks.keep_one_in_n).
 * \ingroup cuda
 *
 * Tags move as GNU Radio's block moves them: every tag of the consumed input, its offset
 * multiplied by the float 1/n.
 */
class CUDA_API keep_one_in_n : virtual public gr::block
{
public:
    typedef std::shared_ptr<keep_one_in_n> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t itemsize, int n, int device = default_device);

    virtual void set_n(int n) = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_KEEP_ONE_IN_N_H */
