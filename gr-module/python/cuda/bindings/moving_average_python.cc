/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>

#include <gnuradio/cuda/moving_average.h>

namespace py = pybind11;

template <class T>
static void bind_moving_average_for(py::module& m, const char* name)
{
    using block = gr::cuda::moving_average<T>;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, name, "Moving sum of length items times scale, on the GPU.")
        .def(py::init(&block::make),
             py::arg("length"),
             py::arg("scale"),
             py::arg("max_iter") = 4096,
             py::arg("vlen") = 1,
             py::arg("device") = gr::cuda::default_device)
        .def("length", &block::length)
        .def("scale", &block::scale)
        .def("set_length_and_scale",
             &block::set_length_and_scale,
             py::arg("length"),
             py::arg("scale"))
        .def("set_length", &block::set_length, py::arg("length"))
        .def("set_scale", &block::set_scale, py::arg("scale"));
}

void bind_moving_average(py::module& m)
{
    bind_moving_average_for<float>(m, "moving_average_ff");
    bind_moving_average_for<gr_complex>(m, "moving_average_cc");
}
