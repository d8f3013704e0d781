/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/tee.h>

namespace py = pybind11;

void bind_tee(py::module& m)
{
    // Qualified: POSIX also declares a tee().
    using block = gr::cuda::tee;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "tee", "Copies its input to two outputs (GPU memory, or host with gpu=False).")
        .def(py::init(&block::make),
             py::arg("itemsize"),
             py::arg("gpu") = true,
             py::arg("device") = gr::cuda::default_device);
}
