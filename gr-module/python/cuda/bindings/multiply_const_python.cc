/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>

#include <gnuradio/cuda/multiply_const.h>

namespace py = pybind11;

template <class T>
static void bind_multiply_const_for(py::module& m, const char* name)
{
    using block = gr::cuda::multiply_const<T>;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, name, "output = input * k, on the GPU.")
        .def(py::init(&block::make),
             py::arg("k"),
             py::arg("vlen") = 1,
             py::arg("device") = gr::cuda::default_device)
        .def("k", &block::k)
        .def("set_k", &block::set_k, py::arg("k"));
}

void bind_multiply_const(py::module& m)
{
    bind_multiply_const_for<std::int16_t>(m, "multiply_const_ss");
    bind_multiply_const_for<std::int32_t>(m, "multiply_const_ii");
    bind_multiply_const_for<float>(m, "multiply_const_ff");
    bind_multiply_const_for<gr_complex>(m, "multiply_const_cc");
}
