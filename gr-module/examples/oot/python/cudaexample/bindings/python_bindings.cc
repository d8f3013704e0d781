/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cudaexample/multiply_ff.h>
#include <gnuradio/cudaexample/scale_offset_ff.h>

namespace py = pybind11;

PYBIND11_MODULE(cudaexample_python, m)
{
    // The block derives from classes bound by gnuradio.gr: they must be registered first.
    py::module::import("gnuradio.gr");

    using block = gr::cudaexample::scale_offset_ff;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, "scale_offset_ff", "out = in * scale + offset for floats, on the GPU.")
        .def(py::init(&block::make), py::arg("scale"), py::arg("offset"))
        .def("scale", &block::scale)
        .def("set_scale", &block::set_scale, py::arg("scale"))
        .def("offset", &block::offset)
        .def("set_offset", &block::set_offset, py::arg("offset"));

    using multiply = gr::cudaexample::multiply_ff;
    py::class_<multiply,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               std::shared_ptr<multiply>>(m,
                                          "multiply_ff",
                                          "out = in * k for floats, on the GPU, in the "
                                          "reference gr-cuda module's C++ style.")
        .def(py::init(&multiply::make), py::arg("k"), py::arg("manual_sync") = true)
        .def("k", &multiply::k)
        .def("set_k", &multiply::set_k, py::arg("k"));
}
