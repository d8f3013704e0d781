/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// One output port per channel, as GNU Radio's hier block: after the shared filter bank
// and transform (polyphase_channelizer_block.h), a tiled scatter copies channel map[o] of
// each step into output o.

#include "pfb_channelizer_ccf_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <stdexcept>
#include <string>

namespace gr {
namespace cuda {

namespace {
const char* const block_name = "cuda.pfb_channelizer_ccf";
} // namespace

pfb_channelizer_ccf::sptr pfb_channelizer_ccf::make(unsigned numchans,
                                                    const std::vector<float>& taps,
                                                    float oversample_rate,
                                                    int device)
{
    channelizer_arguments::check(block_name, numchans, taps, oversample_rate);
    return gnuradio::make_block_sptr<pfb_channelizer_ccf_impl>(
        numchans, taps, oversample_rate, device);
}

pfb_channelizer_ccf_impl::pfb_channelizer_ccf_impl(unsigned numchans,
                                                   const std::vector<float>& taps,
                                                   float oversample_rate,
                                                   int device)
    : gr::block(
          "pfb_channelizer_ccf",
          gr::io_signature::make(1, 1, sizeof(gr_complex), cuda_buffer::type),
          gr::io_signature::make(1, numchans, sizeof(gr_complex), cuda_buffer::type)),
      polyphase_channelizer_block(block_name, numchans, oversample_rate, false, device),
      d_offsets(this->device(), stream(), std::string(block_name) + " output offsets")
{
    start_with(taps);
}

void pfb_channelizer_ccf_impl::install_output_offsets(
    const gr_vector_void_star& output_items)
{
    const uint64_t first = reinterpret_cast<uint64_t>(output_items[0]);
    bool same = d_installed_offsets.size() == output_items.size();
    for (size_t port = 0; same && port < output_items.size(); port++) {
        same = d_installed_offsets[port] ==
               reinterpret_cast<uint64_t>(output_items[port]) - first;
    }
    if (same) {
        return;
    }
    d_installed_offsets.resize(output_items.size());
    for (size_t port = 0; port < output_items.size(); port++) {
        d_installed_offsets[port] =
            reinterpret_cast<uint64_t>(output_items[port]) - first;
    }
    d_offsets.assign(d_installed_offsets);
}

int pfb_channelizer_ccf_impl::general_work(int noutput_items,
                                           gr_vector_int& ninput_items,
                                           gr_vector_const_void_star& input_items,
                                           gr_vector_void_star& output_items)
{
    return this->run_work(input_items, [&]() -> int {
        if (install_changes()) {
            return 0;
        }
        if (d_channel_map.size() < output_items.size()) {
            // The setter and check_topology() refuse such maps; ending the flowgraph
            // beats a kernel reading past the map.
            throw std::logic_error("the channel map has " +
                                   std::to_string(d_channel_map.size()) +
                                   " entries for " + std::to_string(output_items.size()) +
                                   " connected outputs");
        }
        const size_t steps = steps_for(noutput_items, ninput_items[0]);
        if (steps == 0) {
            return 0;
        }
        install_output_offsets(output_items);
        const void* spectra = channelize(input_items[0], steps, nullptr);
        check(grcuda_pfb_channelizer_scatter_cc(stream(),
                                                spectra,
                                                d_map.data_as<const int>(),
                                                d_offsets.data_as<const uint64_t>(),
                                                output_items[0],
                                                output_items.size(),
                                                d_channels,
                                                steps),
              block_name);
        return static_cast<int>(steps);
    });
}

} // namespace cuda
} // namespace gr
