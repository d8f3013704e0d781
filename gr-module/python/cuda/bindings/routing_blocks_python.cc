/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// Bindings of the blocks that combine, split and reorder streams: add, tee, fft_shift,
// streams_to_vector, vector_to_streams.

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/add.h>
#include <gnuradio/cuda/streams_to_vector.h>
#include <gnuradio/cuda/tee.h>

namespace py = pybind11;

template <class Block>
using block_class =
    py::class_<Block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<Block>>;

template <class T>
static void bind_add_for(py::module& m, const char* name)
{
    using block = gr::cuda::add<T>;
    block_class<block>(m, name, "output = sum of the inputs, on the GPU.")
        .def(py::init(&block::make), py::arg("num_inputs"), py::arg("vlen") = 1);
}

void bind_routing_blocks(py::module& m)
{
    // Qualified names: POSIX also declares a tee().
    using gr::cuda::fft_shift;
    using gr::cuda::streams_to_vector;
    using gr::cuda::vector_to_streams;
    bind_add_for<std::int16_t>(m, "add_ss");
    bind_add_for<std::int32_t>(m, "add_ii");
    bind_add_for<float>(m, "add_ff");
    bind_add_for<gr_complex>(m, "add_cc");
    block_class<gr::cuda::tee>(m, "tee", "Copies its input to two outputs (GPU memory, or host with gpu=False).")
        .def(py::init(&gr::cuda::tee::make), py::arg("itemsize"), py::arg("gpu") = true);
    block_class<fft_shift>(m, "fft_shift", "Swaps the halves of each vector, on the GPU.")
        .def(py::init(&fft_shift::make), py::arg("fft_size"));
    block_class<streams_to_vector>(m, "streams_to_vector", "Interleaves inputs into vectors, on the GPU.")
        .def(py::init(&streams_to_vector::make), py::arg("itemsize"), py::arg("num_streams"));
    block_class<vector_to_streams>(m, "vector_to_streams", "Splits vectors into outputs, on the GPU.")
        .def(py::init(&vector_to_streams::make), py::arg("itemsize"), py::arg("num_streams"));
}
