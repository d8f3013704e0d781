/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/stream_to_vector.h>

namespace py = pybind11;

void bind_stream_to_vector(py::module& m)
{
    using block = gr::cuda::stream_to_vector;
    py::class_<block,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               std::shared_ptr<block>>(
        m,
        "stream_to_vector",
        "Groups nitems_per_block items into one vector, in GPU memory.")
        .def(py::init(&block::make),
             py::arg("itemsize"),
             py::arg("nitems_per_block"),
             py::arg("device") = gr::cuda::default_device);
}
