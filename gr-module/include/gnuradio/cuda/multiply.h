/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MULTIPLY_H
#define INCLUDED_CUDA_MULTIPLY_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief output = product of the inputs, on the GPU (as blocks.multiply_XX).
 * \ingroup cuda
 *
 * The number of inputs comes from the connections, as in GNU Radio. With vlen > 1 each
 * item is a vector of vlen values.
 */
template <class T>
class CUDA_API multiply : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<multiply<T>> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t vlen = 1, int device = default_device);
};

typedef multiply<float> multiply_ff;
typedef multiply<gr_complex> multiply_cc;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MULTIPLY_H */
