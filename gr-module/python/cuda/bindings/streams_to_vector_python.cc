/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/streams_to_vector.h>

namespace py = pybind11;

void bind_streams_to_vector(py::module& m)
{
    using block = gr::cuda::streams_to_vector;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "streams_to_vector", "Interleaves inputs into vectors, on the GPU.")
        .def(py::init(&block::make),
             py::arg("itemsize"),
             py::arg("num_streams"),
             py::arg("device") = gr::cuda::default_device);
}
