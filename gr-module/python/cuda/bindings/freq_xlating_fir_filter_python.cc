/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/freq_xlating_fir_filter.h>

namespace py = pybind11;

template <class IN_T, class OUT_T, class TAP_T>
static void bind_freq_xlating_fir_filter_for(py::module& m, const char* name)
{
    using block = gr::cuda::freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>;
    py::class_<block,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               std::shared_ptr<block>>(
        m,
        name,
        "Frequency translation, FIR filter and decimation in one GPU block (as "
        "filter.freq_xlating_fir_filter_xxx).")
        .def(py::init(&block::make),
             py::arg("decimation"),
             py::arg("taps"),
             py::arg("center_freq"),
             py::arg("sampling_freq"),
             py::arg("device") = gr::cuda::default_device)
        .def("set_center_freq", &block::set_center_freq, py::arg("center_freq"))
        .def("center_freq", &block::center_freq)
        .def("set_taps", &block::set_taps, py::arg("taps"))
        .def("taps", &block::taps);
}

void bind_freq_xlating_fir_filter(py::module& m)
{
    bind_freq_xlating_fir_filter_for<gr_complex, gr_complex, gr_complex>(
        m, "freq_xlating_fir_filter_ccc");
    bind_freq_xlating_fir_filter_for<gr_complex, gr_complex, float>(
        m, "freq_xlating_fir_filter_ccf");
}
