/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/multiply_conjugate_cc.h>

namespace py = pybind11;

void bind_multiply_conjugate_cc(py::module& m)
{
    using block = gr::cuda::multiply_conjugate_cc;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "multiply_conjugate_cc", "output = input 0 * conj(input 1), on the GPU.")
        .def(py::init(&block::make),
             py::arg("vlen") = 1,
             py::arg("device") = gr::cuda::default_device);
}
