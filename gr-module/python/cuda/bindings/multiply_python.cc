/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/multiply.h>

namespace py = pybind11;

template <class T>
static void bind_multiply_for(py::module& m, const char* name)
{
    using block = gr::cuda::multiply<T>;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, name, "output = product of the connected inputs, on the GPU.")
        .def(py::init(&block::make),
             py::arg("vlen") = 1,
             py::arg("device") = gr::cuda::default_device);
}

void bind_multiply(py::module& m)
{
    bind_multiply_for<float>(m, "multiply_ff");
    bind_multiply_for<gr_complex>(m, "multiply_cc");
}
