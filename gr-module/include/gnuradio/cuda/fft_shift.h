/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FFT_SHIFT_H
#define INCLUDED_CUDA_FFT_SHIFT_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief Swaps the halves of each vector (fftshift), on the GPU.
 * \ingroup cuda
 */
class CUDA_API fft_shift : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<fft_shift> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(size_t fft_size, int device = default_device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FFT_SHIFT_H */
