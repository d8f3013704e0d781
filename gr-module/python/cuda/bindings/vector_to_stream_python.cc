/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/vector_to_stream.h>

namespace py = pybind11;

void bind_vector_to_stream(py::module& m)
{
    using block = gr::cuda::vector_to_stream;
    py::class_<block,
               gr::sync_interpolator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               std::shared_ptr<block>>(
        m,
        "vector_to_stream",
        "Splits each vector into nitems_per_block items, in GPU memory.")
        .def(py::init(&block::make),
             py::arg("itemsize"),
             py::arg("nitems_per_block"),
             py::arg("device") = gr::cuda::default_device);
}
