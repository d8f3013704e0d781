/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FFT_BATCH_H
#define INCLUDED_CUDA_FFT_BATCH_H

#include <cstddef>

namespace gr {
namespace cuda {

//! The number of transforms a call batches out of \p available, in whole \p multiple s
//! (the block's output multiple, which its output must keep): the largest power of two of
//! multiples not above it, so that a block's plan (grcuda_fft_plan_execute) makes cuFFT
//! handles for a few batch sizes only, whatever sizes GNU Radio's calls take; 0 when
//! fewer than \p multiple are available.
inline size_t fft_batch(size_t available, size_t multiple)
{
    const size_t multiples = available / multiple;
    if (multiples == 0) {
        return 0;
    }
    size_t batch = 1;
    while (batch * 2 <= multiples) {
        batch *= 2;
    }
    return batch * multiple;
}

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FFT_BATCH_H */
