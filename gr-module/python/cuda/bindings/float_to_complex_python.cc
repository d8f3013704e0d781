/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/float_to_complex.h>

namespace py = pybind11;

void bind_float_to_complex(py::module& m)
{
    using block = gr::cuda::float_to_complex;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        "float_to_complex",
        "output = input 0 + j input 1 (j 0 with one input), on the GPU.")
        .def(py::init(&block::make),
             py::arg("vlen") = 1,
             py::arg("device") = gr::cuda::default_device);
}
