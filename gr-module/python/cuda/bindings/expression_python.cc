/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/expression.h>

namespace py = pybind11;

template <class IN_T, class OUT_T>
static void bind_expression_for(py::module& m, const char* name)
{
    using block = gr::cuda::expression<IN_T, OUT_T>;
    py::class_<block, gr::sync_block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, name, "output = a formula over in0, in1, ..., as one fused GPU kernel.")
        .def(py::init(&block::make),
             py::arg("expression"),
             py::arg("ninputs") = 1,
             py::arg("vlen") = 1,
             py::arg("parameters") = std::map<std::string, float>(),
             py::arg("device") = gr::cuda::default_device)
        .def("text", &block::text)
        .def("parameter_names", &block::parameter_names)
        .def("parameter", &block::parameter, py::arg("name"))
        .def("set_parameter", &block::set_parameter, py::arg("name"), py::arg("value"))
        .def("set_parameters", &block::set_parameters, py::arg("values"));
}

void bind_expression(py::module& m)
{
    bind_expression_for<float, float>(m, "expression_ff");
    bind_expression_for<gr_complex, gr_complex>(m, "expression_cc");
    bind_expression_for<gr_complex, float>(m, "expression_cf");
    bind_expression_for<float, gr_complex>(m, "expression_fc");
}
