/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FFT_BATCH_H
#define INCLUDED_CUDA_FFT_BATCH_H

#include <cstddef>

namespace gr {
namespace cuda {

//! The number of transforms a call batches out of \p available (at least 1): the largest
//! power of two not above it, so that a block's plan (grcuda_fft_plan_execute) makes
//! cuFFT handles for a few batch sizes only, whatever sizes GNU Radio's calls take.
inline size_t fft_batch(size_t available)
{
    size_t batch = 1;
    while (batch * 2 <= available) {
        batch *= 2;
    }
    return batch;
}

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FFT_BATCH_H */
