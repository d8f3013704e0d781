/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_QUADRATURE_DEMOD_CF_IMPL_H
#define INCLUDED_CUDA_QUADRATURE_DEMOD_CF_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/quadrature_demod_cf.h>

namespace gr {
namespace cuda {

class quadrature_demod_cf_impl : public cuda_sync_block<quadrature_demod_cf>
{
public:
    quadrature_demod_cf_impl(float gain, int device);

    void set_gain(float gain) override;
    float gain() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    float d_gain; // set under d_setlock, which cuda_sync_block holds around work()
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_QUADRATURE_DEMOD_CF_IMPL_H */
