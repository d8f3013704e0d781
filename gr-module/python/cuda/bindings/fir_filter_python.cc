/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/fir_filter.h>

namespace py = pybind11;

template <class IN_T, class OUT_T, class TAP_T>
static void bind_fir_filter_for(py::module& m, const char* name)
{
    using block = gr::cuda::fir_filter<IN_T, OUT_T, TAP_T>;
    py::class_<block,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               std::shared_ptr<block>>(
        m,
        name,
        "Decimating FIR filter on the GPU (as filter.fir_filter_xxx): the direct form "
        "for "
        "short filters, overlap-save through cuFFT for long ones.")
        .def(py::init(&block::make),
             py::arg("decimation"),
             py::arg("taps"),
             py::arg("device") = gr::cuda::default_device)
        .def("set_taps", &block::set_taps, py::arg("taps"))
        .def("taps", &block::taps);
}

void bind_fir_filter(py::module& m)
{
    bind_fir_filter_for<gr_complex, gr_complex, gr_complex>(m, "fir_filter_ccc");
    bind_fir_filter_for<gr_complex, gr_complex, float>(m, "fir_filter_ccf");
    bind_fir_filter_for<float, float, float>(m, "fir_filter_fff");
}
