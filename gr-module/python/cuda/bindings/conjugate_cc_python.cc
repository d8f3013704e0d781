/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/conjugate_cc.h>

namespace py = pybind11;

void bind_conjugate_cc(py::module& m)
{
    using block = gr::cuda::conjugate_cc;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "conjugate_cc", "output = conj(input), on the GPU.")
        .def(py::init(&block::make), py::arg("device") = gr::cuda::default_device);
}
