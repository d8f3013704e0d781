/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// One vector output of numchans channels per step. With the identity channel map the
// shared filter bank and transform (polyphase_channelizer_block.h) write the output ring
// directly: two launches per call. Another map transforms in the block's own array and
// gathers each vector in map order into the output.

#include "pfb_channelizer_vector_ccf_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>

namespace gr {
namespace cuda {

namespace {
const char* const block_name = "cuda.pfb_channelizer_vector_ccf";
} // namespace

pfb_channelizer_vector_ccf::sptr pfb_channelizer_vector_ccf::make(
    unsigned numchans, const std::vector<float>& taps, float oversample_rate, int device)
{
    channelizer_arguments::check(block_name, numchans, taps, oversample_rate);
    return gnuradio::make_block_sptr<pfb_channelizer_vector_ccf_impl>(
        numchans, taps, oversample_rate, device);
}

pfb_channelizer_vector_ccf_impl::pfb_channelizer_vector_ccf_impl(
    unsigned numchans, const std::vector<float>& taps, float oversample_rate, int device)
    : gr::block(
          "pfb_channelizer_vector_ccf",
          gr::io_signature::make(1, 1, sizeof(gr_complex), cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(gr_complex) * numchans, cuda_buffer::type)),
      polyphase_channelizer_block(block_name, numchans, oversample_rate, true, device)
{
    start_with(taps);
}

int pfb_channelizer_vector_ccf_impl::general_work(int noutput_items,
                                                  gr_vector_int& ninput_items,
                                                  gr_vector_const_void_star& input_items,
                                                  gr_vector_void_star& output_items)
{
    return this->run_work(input_items, [&]() -> int {
        if (install_changes()) {
            return 0;
        }
        const size_t steps = steps_for(noutput_items, ninput_items[0]);
        if (steps == 0) {
            return 0;
        }
        if (identity_map()) {
            channelize(input_items[0], steps, output_items[0]);
            return static_cast<int>(steps);
        }
        const void* spectra = channelize(input_items[0], steps, nullptr);
        check(grcuda_pfb_channelizer_gather_cc(stream(),
                                               spectra,
                                               d_map.data_as<const int>(),
                                               output_items[0],
                                               d_channels,
                                               steps),
              block_name);
        return static_cast<int>(steps);
    });
}

} // namespace cuda
} // namespace gr
