/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/complex_to_float.h>

namespace py = pybind11;

void bind_complex_to_float(py::module& m)
{
    using block = gr::cuda::complex_to_float;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "complex_to_float",
        "Real part to output 0, imaginary part to output 1 when connected, on the GPU.")
        .def(py::init(&block::make),
             py::arg("vlen") = 1,
             py::arg("device") = gr::cuda::default_device);
}
