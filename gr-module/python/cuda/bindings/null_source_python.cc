/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/null_source.h>

namespace py = pybind11;

void bind_null_source(py::module& m)
{
    using block = gr::cuda::null_source;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "null_source",
        "An endless source of items in GPU memory (zeros unless memset=False).")
        .def(py::init(&block::make),
             py::arg("sizeof_stream_item"),
             py::arg("num_outputs") = 1,
             py::arg("memset") = true,
             py::arg("device") = gr::cuda::default_device);
}
