/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/fft_shift.h>

namespace py = pybind11;

void bind_fft_shift(py::module& m)
{
    using block = gr::cuda::fft_shift;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "fft_shift", "Swaps the halves of each vector, on the GPU.")
        .def(py::init(&block::make),
             py::arg("fft_size"),
             py::arg("device") = gr::cuda::default_device);
}
