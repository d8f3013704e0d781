/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Bindings of the blocks a spectrum chain is built from: reshaping, FFT, magnitude, dB.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/complex_to_mag.h>
#include <gnuradio/cuda/fft.h>
#include <gnuradio/cuda/nlog10_ff.h>
#include <gnuradio/cuda/stream_to_vector.h>

namespace py = pybind11;

template <class Block, class... Bases>
using block_class = py::class_<Block, Bases..., gr::block, gr::basic_block, std::shared_ptr<Block>>;

void bind_spectrum_blocks(py::module& m)
{
    using namespace gr::cuda;
    block_class<stream_to_vector, gr::sync_decimator, gr::sync_block>(
        m, "stream_to_vector", "Groups nitems_per_block items into one vector, in GPU memory.")
        .def(py::init(&stream_to_vector::make), py::arg("itemsize"), py::arg("nitems_per_block"));
    block_class<vector_to_stream, gr::sync_interpolator, gr::sync_block>(
        m, "vector_to_stream", "Splits each vector into nitems_per_block items, in GPU memory.")
        .def(py::init(&vector_to_stream::make), py::arg("itemsize"), py::arg("nitems_per_block"));
    block_class<fft, gr::sync_block>(m, "fft", "FFT of vectors on the GPU (cuFFT).")
        .def(py::init(&fft::make),
             py::arg("fft_size"),
             py::arg("forward") = true,
             py::arg("window") = std::vector<float>(),
             py::arg("shift") = false,
             py::arg("real_input") = false);
    block_class<complex_to_mag, gr::sync_block>(m, "complex_to_mag", "|input|, on the GPU.")
        .def(py::init(&complex_to_mag::make), py::arg("vlen") = 1);
    block_class<complex_to_mag_squared, gr::sync_block>(
        m, "complex_to_mag_squared", "|input|^2, on the GPU.")
        .def(py::init(&complex_to_mag_squared::make), py::arg("vlen") = 1);
    block_class<nlog10_ff, gr::sync_block>(m, "nlog10_ff", "n * log10(input) + k, on the GPU.")
        .def(py::init(&nlog10_ff::make), py::arg("n") = 1.0, py::arg("vlen") = 1, py::arg("k") = 0.0);
}
