/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/quadrature_demod_cf.h>

namespace py = pybind11;

void bind_quadrature_demod_cf(py::module& m)
{
    using block = gr::cuda::quadrature_demod_cf;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "quadrature_demod_cf",
        "output = gain * angle between consecutive samples, on the GPU.")
        .def(py::init(&block::make),
             py::arg("gain"),
             py::arg("device") = gr::cuda::default_device)
        .def("set_gain", &block::set_gain, py::arg("gain"))
        .def("gain", &block::gain);
}
