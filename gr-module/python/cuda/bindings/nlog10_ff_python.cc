/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/nlog10_ff.h>

namespace py = pybind11;

void bind_nlog10_ff(py::module& m)
{
    using block = gr::cuda::nlog10_ff;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "nlog10_ff", "n * log10(input) + k, on the GPU.")
        .def(py::init(&block::make),
             py::arg("n") = 1.0,
             py::arg("vlen") = 1,
             py::arg("k") = 0.0,
             py::arg("device") = gr::cuda::default_device);
}
