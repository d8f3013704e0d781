/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/throttle.h>

namespace py = pybind11;

void bind_throttle(py::module& m)
{
    using block = gr::cuda::throttle;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "throttle", "Passes GPU items no faster than sample_rate items per second.")
        .def(py::init(&block::make),
             py::arg("itemsize"),
             py::arg("sample_rate"),
             py::arg("device") = gr::cuda::default_device)
        .def("sample_rate", &block::sample_rate)
        .def("set_sample_rate", &block::set_sample_rate, py::arg("rate"));
}
