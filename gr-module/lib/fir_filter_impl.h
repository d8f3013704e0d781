/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FIR_FILTER_IMPL_H
#define INCLUDED_CUDA_FIR_FILTER_IMPL_H

#include "filter_block.h"
#include <gnuradio/cuda/fir_filter.h>

namespace gr {
namespace cuda {

template <class IN_T, class OUT_T, class TAP_T>
class fir_filter_impl : public filter_block<fir_filter<IN_T, OUT_T, TAP_T>, IN_T, TAP_T>
{
public:
    fir_filter_impl(int decimation, const std::vector<TAP_T>& taps, int device);
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FIR_FILTER_IMPL_H */
