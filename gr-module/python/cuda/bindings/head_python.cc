/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/head.h>

namespace py = pybind11;

void bind_head(py::module& m)
{
    using block = gr::cuda::head;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "head",
        "Passes the first nitems items in GPU memory, then ends the flowgraph.")
        .def(py::init(&block::make),
             py::arg("sizeof_stream_item"),
             py::arg("nitems"),
             py::arg("device") = gr::cuda::default_device)
        .def("reset", &block::reset)
        .def("set_length", &block::set_length, py::arg("nitems"));
}
