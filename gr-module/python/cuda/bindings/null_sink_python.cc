/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/null_sink.h>

namespace py = pybind11;

void bind_null_sink(py::module& m)
{
    using block = gr::cuda::null_sink;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "null_sink", "Consumes items in GPU memory and does nothing with them.")
        .def(py::init(&block::make),
             py::arg("sizeof_stream_item"),
             py::arg("num_inputs") = 1,
             py::arg("device") = gr::cuda::default_device);
}
