/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_ADD_H
#define INCLUDED_CUDA_ADD_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>
#include <cstdint>

namespace gr {
namespace cuda {

/*!
 * \brief output = sum of num_inputs inputs, on the GPU (as blocks.add_XX).
 * \ingroup cuda
 *
 * Integer sums wrap as in C. With vlen > 1 each item is a vector of vlen values.
 */
template <class T>
class CUDA_API add : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<add<T>> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t num_inputs, size_t vlen = 1, int device = default_device);
};

typedef add<std::int16_t> add_ss;
typedef add<std::int32_t> add_ii;
typedef add<float> add_ff;
typedef add<gr_complex> add_cc;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_ADD_H */
