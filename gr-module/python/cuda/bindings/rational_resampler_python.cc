/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/rational_resampler.h>

namespace py = pybind11;

template <class SAMPLE_T, class TAP_T>
static void bind_rational_resampler_for(py::module& m, const char* name)
{
    using block = gr::cuda::rational_resampler<SAMPLE_T, TAP_T>;
    py::class_<block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m,
        name,
        "Rational resampling polyphase FIR filter, on the GPU (as "
        "filter.rational_resampler_xxx).")
        .def(py::init(&block::make),
             py::arg("interpolation"),
             py::arg("decimation"),
             py::arg("taps") = std::vector<TAP_T>(),
             py::arg("fractional_bw") = 0.0,
             py::arg("device") = gr::cuda::default_device)
        .def("interpolation", &block::interpolation)
        .def("decimation", &block::decimation)
        .def("set_taps", &block::set_taps, py::arg("taps"))
        .def("taps", &block::taps);
}

void bind_rational_resampler(py::module& m)
{
    bind_rational_resampler_for<gr_complex, gr_complex>(m, "rational_resampler_ccc");
    bind_rational_resampler_for<gr_complex, float>(m, "rational_resampler_ccf");
    bind_rational_resampler_for<float, float>(m, "rational_resampler_fff");
}
