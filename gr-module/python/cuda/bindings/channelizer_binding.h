/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The Python class of both channelizers: GNU Radio's arguments, and when no taps are
// given the prototype filter.pfb.channelizer_ccf designs (its own create_taps), so that
// the same arguments give the same output as GNU Radio's hier block.

#ifndef INCLUDED_CUDA_CHANNELIZER_BINDING_H
#define INCLUDED_CUDA_CHANNELIZER_BINDING_H

#include <gnuradio/block.h>
#include <gnuradio/cuda/device.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <memory>
#include <string>
#include <vector>

template <class Block>
void bind_channelizer(pybind11::module& m, const char* name, const char* documentation)
{
    namespace py = pybind11;
    const std::string block = std::string("cuda.") + name;
    auto make = [block](unsigned numchans,
                        py::object taps,
                        float oversample_rate,
                        double atten,
                        int device) {
        std::vector<float> prototype;
        if (!taps.is_none()) {
            prototype = taps.cast<std::vector<float>>();
        }
        if (prototype.empty() && numchans == 1) {
            // GNU Radio's design puts the stop band at 0.6 of a channel, beyond the
            // Nyquist frequency of one channel: its remez fails and the process crashes.
            throw py::value_error(block +
                                  ": numchans 1 needs taps: GNU Radio's prototype design "
                                  "(pass band 0.4, stop band 0.6 of a channel) fails for "
                                  "one channel");
        }
        if (prototype.empty() && numchans > 1) {
            py::object channelizer =
                py::module::import("gnuradio.filter.pfb").attr("channelizer_ccf");
            prototype = channelizer.attr("create_taps")(numchans, atten)
                            .template cast<std::vector<float>>();
        }
        return Block::make(numchans, prototype, oversample_rate, device);
    };
    py::class_<Block, gr::block, gr::basic_block, std::shared_ptr<Block>>(
        m, name, documentation)
        .def(py::init(make),
             py::arg("numchans"),
             py::arg("taps") = py::none(),
             py::arg("oversample_rate") = 1.0,
             py::arg("atten") = 100.0,
             py::arg("device") = gr::cuda::default_device)
        .def("set_taps", &Block::set_taps, py::arg("taps"))
        .def("taps", &Block::taps)
        .def("set_channel_map", &Block::set_channel_map, py::arg("newmap"))
        .def("channel_map", &Block::channel_map);
}

#endif /* INCLUDED_CUDA_CHANNELIZER_BINDING_H */
