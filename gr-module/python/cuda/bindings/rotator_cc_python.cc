/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/rotator_cc.h>

namespace py = pybind11;

void bind_rotator_cc(py::module& m)
{
    using block = gr::cuda::rotator_cc;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "rotator_cc",
        "output = input * exp(j phase), phase += phase_inc per sample, on the GPU.")
        .def(py::init(&block::make),
             py::arg("phase_inc") = 0.0,
             py::arg("tag_inc_updates") = false,
             py::arg("device") = gr::cuda::default_device)
        .def("set_phase_inc", &block::set_phase_inc, py::arg("phase_inc"));
}
