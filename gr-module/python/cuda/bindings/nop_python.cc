/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/nop.h>

namespace py = pybind11;

void bind_nop(py::module& m)
{
    using block = gr::cuda::nop;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "nop",
        "Passes items through without touching them, to measure buffer overhead.")
        .def(py::init(&block::make),
             py::arg("sizeof_stream_item"),
             py::arg("device") = gr::cuda::default_device);
}
