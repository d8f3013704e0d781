/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_PFB_CHANNELIZER_VECTOR_CCF_IMPL_H
#define INCLUDED_CUDA_PFB_CHANNELIZER_VECTOR_CCF_IMPL_H

#include "polyphase_channelizer_block.h"
#include <gnuradio/cuda/pfb_channelizer_vector_ccf.h>
#include <vector>

namespace gr {
namespace cuda {

class pfb_channelizer_vector_ccf_impl
    : public polyphase_channelizer_block<pfb_channelizer_vector_ccf>
{
public:
    pfb_channelizer_vector_ccf_impl(unsigned numchans,
                                    const std::vector<float>& taps,
                                    float oversample_rate,
                                    int device);

    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_PFB_CHANNELIZER_VECTOR_CCF_IMPL_H */
