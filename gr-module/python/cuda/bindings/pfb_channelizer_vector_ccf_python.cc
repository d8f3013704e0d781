/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "channelizer_binding.h"
#include <gnuradio/cuda/pfb_channelizer_vector_ccf.h>

void bind_pfb_channelizer_vector_ccf(pybind11::module& m)
{
    bind_channelizer<gr::cuda::pfb_channelizer_vector_ccf>(
        m,
        "pfb_channelizer_vector_ccf",
        "Polyphase channelizer on the GPU: one complex input, one vector output of the "
        "numchans channels (entry o: channel channel_map()[o]).");
}
