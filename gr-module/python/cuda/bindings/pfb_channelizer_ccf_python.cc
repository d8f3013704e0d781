/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "channelizer_binding.h"
#include <gnuradio/cuda/pfb_channelizer_ccf.h>

void bind_pfb_channelizer_ccf(pybind11::module& m)
{
    bind_channelizer<gr::cuda::pfb_channelizer_ccf>(
        m,
        "pfb_channelizer_ccf",
        "Polyphase channelizer on the GPU: one complex input, one output per channel (as "
        "filter.pfb.channelizer_ccf).");
}
