/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/load.h>

namespace py = pybind11;

void bind_load(py::module& m)
{
    using block = gr::cuda::load;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "load",
        "A synthetic GPU load for benchmarks: copies its input to its output, every byte "
        "iterations times; use_cb=False puts its ports in host memory and copies to the "
        "GPU and back in each call.")
        .def(py::init(&block::make),
             py::arg("iterations"),
             py::arg("itemsize"),
             py::arg("use_cb") = true,
             py::arg("device") = gr::cuda::default_device);
}
