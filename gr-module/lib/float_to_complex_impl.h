/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FLOAT_TO_COMPLEX_IMPL_H
#define INCLUDED_CUDA_FLOAT_TO_COMPLEX_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/float_to_complex.h>

namespace gr {
namespace cuda {

class float_to_complex_impl : public cuda_sync_block<float_to_complex>
{
public:
    float_to_complex_impl(size_t vlen, int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_vlen;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FLOAT_TO_COMPLEX_IMPL_H */
