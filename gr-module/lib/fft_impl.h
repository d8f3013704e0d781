/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FFT_IMPL_H
#define INCLUDED_CUDA_FFT_IMPL_H

#include "device_array.h"
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/fft.h>
#include <array>
#include <memory>

namespace gr {
namespace cuda {

class fft_impl : public cuda_sync_block<fft>
{
public:
    fft_impl(size_t fft_size,
             bool forward,
             const std::vector<float>& window,
             bool shift,
             bool real_input,
             int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    //! Transforms `vectors` vectors (a power of two, so the plan makes few cuFFT
    //! handles).
    void transform(const void* input, void* output, size_t vectors);
    //! Makes the scratch arrays hold at least `vectors` vectors.
    void reserve(size_t vectors);

    const size_t d_size;
    const bool d_forward;
    const bool d_shift;
    const bool d_real_input;
    //! The block's FFT plan, on its stream; a member that frees itself, so that a
    //! constructor step that throws after making it does not leak it.
    std::unique_ptr<grcuda_fft_plan, void (*)(grcuda_fft_plan*)> d_plan{
        nullptr, grcuda_fft_plan_free
    };
    device_array d_window;                 // fft_size taps, or none
    std::array<device_array, 2> d_scratch; // complex vectors between the steps
    device_array d_zeros;                  // imaginary parts of real input
    size_t d_capacity = 0;                 // vectors each scratch array holds
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FFT_IMPL_H */
