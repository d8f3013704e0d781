/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/keep_one_in_n.h>

namespace py = pybind11;

void bind_keep_one_in_n(py::module& m)
{
    using block = gr::cuda::keep_one_in_n;
    py::class_<block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "keep_one_in_n", "Keep the last item of every n, on the GPU.")
        .def(py::init(&block::make),
             py::arg("itemsize"),
             py::arg("n"),
             py::arg("device") = gr::cuda::default_device)
        .def("set_n", &block::set_n, py::arg("n"));
}
