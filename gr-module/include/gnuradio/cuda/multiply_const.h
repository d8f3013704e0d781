/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_MULTIPLY_CONST_H
#define INCLUDED_CUDA_MULTIPLY_CONST_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>
#include <cstdint>

namespace gr {
namespace cuda {

/*!
 * \brief output = input * k, on the GPU (as blocks.multiply_const_XX).
 * \ingroup cuda
 *
 * Integer products wrap as in C. With vlen > 1 each item is a vector of vlen values.
 */
template <class T>
class CUDA_API multiply_const : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<multiply_const<T>> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(T k, size_t vlen = 1, int device = default_device);

    virtual T k() const = 0;
    virtual void set_k(T k) = 0;
};

typedef multiply_const<std::int16_t> multiply_const_ss;
typedef multiply_const<std::int32_t> multiply_const_ii;
typedef multiply_const<float> multiply_const_ff;
typedef multiply_const<gr_complex> multiply_const_cc;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_MULTIPLY_CONST_H */
