/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "channelizer_taps.h"
#include <gnuradio/cuda/pfb_channelizer_ccf.h>

namespace py = pybind11;

void bind_pfb_channelizer_ccf(py::module& m)
{
    using block = gr::cuda::pfb_channelizer_ccf;
    auto make =
        [](unsigned numchans, py::object taps, float oversample_rate, double atten) {
            return block::make(
                numchans, channelizer_taps(numchans, taps, atten), oversample_rate);
        };
    py::class_<block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "pfb_channelizer_ccf",
        "Polyphase channelizer on the GPU: one complex input, one output per channel (as "
        "filter.pfb.channelizer_ccf).")
        .def(py::init(make),
             py::arg("numchans"),
             py::arg("taps") = py::none(),
             py::arg("oversample_rate") = 1.0,
             py::arg("atten") = 100.0)
        .def("set_taps", &block::set_taps, py::arg("taps"))
        .def("taps", &block::taps)
        .def("set_channel_map", &block::set_channel_map, py::arg("newmap"))
        .def("channel_map", &block::channel_map);
}
