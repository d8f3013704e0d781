/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/add.h>

namespace py = pybind11;

template <class T>
static void bind_add_for(py::module& m, const char* name)
{
    using block = gr::cuda::add<T>;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, name, "output = sum of the inputs, on the GPU.")
        .def(py::init(&block::make),
             py::arg("num_inputs"),
             py::arg("vlen") = 1,
             py::arg("device") = gr::cuda::default_device);
}

void bind_add(py::module& m)
{
    bind_add_for<std::int16_t>(m, "add_ss");
    bind_add_for<std::int32_t>(m, "add_ii");
    bind_add_for<float>(m, "add_ff");
    bind_add_for<gr_complex>(m, "add_cc");
}
