/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/probe_rate.h>

namespace py = pybind11;

void bind_probe_rate(py::module& m)
{
    using block = gr::cuda::probe_rate;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "probe_rate",
        "Measures the item rate of a GPU stream; publishes it on port 'rate'.")
        .def(py::init(&block::make),
             py::arg("itemsize"),
             py::arg("update_rate_ms") = 500.0,
             py::arg("alpha") = 0.0001,
             py::arg("name") = "",
             py::arg("device") = gr::cuda::default_device)
        .def("rate", &block::rate)
        .def("set_alpha", &block::set_alpha, py::arg("alpha"))
        .def("set_name", &block::set_name, py::arg("name"));
}
