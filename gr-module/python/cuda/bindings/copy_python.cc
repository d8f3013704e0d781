/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/copy.h>

namespace py = pybind11;

void bind_copy(py::module& m)
{
    using copy = gr::cuda::copy;
    py::class_<copy, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<copy>>(
        m, "copy", "Copies items from input to output in GPU memory.")
        .def(py::init(&copy::make),
             py::arg("itemsize"),
             py::arg("device") = gr::cuda::default_device);
}
