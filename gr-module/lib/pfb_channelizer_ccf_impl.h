/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_PFB_CHANNELIZER_CCF_IMPL_H
#define INCLUDED_CUDA_PFB_CHANNELIZER_CCF_IMPL_H

#include "device_array.h"
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/pfb_channelizer_ccf.h>
#include <cstdint>
#include <memory>

namespace gr {
namespace cuda {

class pfb_channelizer_ccf_impl : public cuda_block<pfb_channelizer_ccf>
{
public:
    pfb_channelizer_ccf_impl(unsigned numchans,
                             const std::vector<float>& taps,
                             float oversample_rate);

    void set_taps(const std::vector<float>& taps) override;
    std::vector<std::vector<float>> taps() const override;
    void set_channel_map(const std::vector<int>& map) override;
    std::vector<int> channel_map() const override;

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    //! Uploads what the setters stored; returns whether the taps changed.
    bool install_changes(size_t outputs);
    //! Uploads the outputs' addresses relative to output 0 when they changed.
    void install_output_offsets(const gr_vector_void_star& output_items);
    //! Moves the tags of the consumed input as the hier block's two blocks move them.
    void propagate_tags(int consumed);

    const unsigned d_channels;
    const float d_oversample_rate;
    const unsigned d_step_advance;  // numchans / oversample_rate
    std::vector<float> d_prototype; // padded to a multiple of numchans
    std::vector<int> d_channel_map;
    bool d_taps_updated = false;
    bool d_map_updated = false;
    size_t d_taps_per_branch = 0;
    std::vector<uint64_t> d_installed_offsets;
    std::unique_ptr<grcuda_fft_plan, void (*)(grcuda_fft_plan*)> d_plan{
        nullptr, grcuda_fft_plan_free
    };
    device_array d_taps;
    device_array d_map;
    device_array d_offsets;
    device_array d_spectra;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_PFB_CHANNELIZER_CCF_IMPL_H */
