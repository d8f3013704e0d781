/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Bindings of the blocks about item rates: throttle and probe_rate.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/throttle.h>

namespace py = pybind11;

void bind_rate_blocks(py::module& m)
{
    using gr::cuda::probe_rate;
    using gr::cuda::throttle;
    py::class_<throttle, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<throttle>>(
        m, "throttle", "Passes GPU items no faster than sample_rate items per second.")
        .def(py::init(&throttle::make), py::arg("itemsize"), py::arg("sample_rate"))
        .def("sample_rate", &throttle::sample_rate)
        .def("set_sample_rate", &throttle::set_sample_rate, py::arg("rate"));
    py::class_<probe_rate, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<probe_rate>>(
        m, "probe_rate", "Measures the item rate of a GPU stream; publishes it on port 'rate'.")
        .def(py::init(&probe_rate::make),
             py::arg("itemsize"),
             py::arg("update_rate_ms") = 500.0,
             py::arg("alpha") = 0.0001,
             py::arg("name") = "")
        .def("rate", &probe_rate::rate)
        .def("set_alpha", &probe_rate::set_alpha, py::arg("alpha"))
        .def("set_name", &probe_rate::set_name, py::arg("name"));
}
