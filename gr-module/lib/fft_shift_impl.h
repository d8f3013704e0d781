/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FFT_SHIFT_IMPL_H
#define INCLUDED_CUDA_FFT_SHIFT_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/fft_shift.h>

namespace gr {
namespace cuda {

class fft_shift_impl : public cuda_sync_block<fft_shift>
{
public:
    fft_shift_impl(size_t fft_size, int device);
    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_size;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FFT_SHIFT_IMPL_H */
