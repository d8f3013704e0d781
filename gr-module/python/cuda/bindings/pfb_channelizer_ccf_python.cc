/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/pfb_channelizer_ccf.h>

namespace py = pybind11;

void bind_pfb_channelizer_ccf(py::module& m)
{
    using block = gr::cuda::pfb_channelizer_ccf;
    // Empty taps are designed as filter.pfb.channelizer_ccf designs them, by its own
    // create_taps, so that the same arguments give the same output.
    auto make =
        [](unsigned numchans, py::object taps, float oversample_rate, double atten) {
            std::vector<float> prototype;
            if (!taps.is_none()) {
                prototype = taps.cast<std::vector<float>>();
            }
            if (prototype.empty() && numchans > 0) {
                py::object channelizer =
                    py::module::import("gnuradio.filter.pfb").attr("channelizer_ccf");
                prototype = channelizer.attr("create_taps")(numchans, atten)
                                .cast<std::vector<float>>();
            }
            return block::make(numchans, prototype, oversample_rate);
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
