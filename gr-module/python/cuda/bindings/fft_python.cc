/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/fft.h>

namespace py = pybind11;

void bind_fft(py::module& m)
{
    using block = gr::cuda::fft;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "fft", "FFT of vectors on the GPU (cuFFT).")
        .def(py::init(&block::make),
             py::arg("fft_size"),
             py::arg("forward") = true,
             py::arg("window") = std::vector<float>(),
             py::arg("shift") = false,
             py::arg("real_input") = false,
             py::arg("device") = gr::cuda::default_device);
}
