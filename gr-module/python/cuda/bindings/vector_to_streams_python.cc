/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/vector_to_streams.h>

namespace py = pybind11;

void bind_vector_to_streams(py::module& m)
{
    using block = gr::cuda::vector_to_streams;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "vector_to_streams", "Splits vectors into outputs, on the GPU.")
        .def(py::init(&block::make),
             py::arg("itemsize"),
             py::arg("num_streams"),
             py::arg("device") = gr::cuda::default_device);
}
