/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FFT_H
#define INCLUDED_CUDA_FFT_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief FFT of vectors of fft_size items on the GPU (cuFFT), as fft.fft_vcc / fft_vfc.
 * \ingroup cuda
 *
 * Input: vectors of fft_size complex items (float items with real_input). Output: vectors
 * of fft_size complex bins, not normalised. A window, when given, has fft_size taps and
 * multiplies the input. With shift, a forward transform's output is fft-shifted (DC in
 * the middle) and an inverse transform's input is shifted back first, as fft_vcc does.
 */
class CUDA_API fft : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<fft> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t fft_size,
                     bool forward = true,
                     const std::vector<float>& window = {},
                     bool shift = false,
                     bool real_input = false,
                     int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FFT_H */
