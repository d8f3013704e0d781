/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/complex.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/fft_filter.h>

namespace py = pybind11;

template <class IN_T, class OUT_T, class TAP_T>
static void bind_fft_filter_for(py::module& m, const char* name)
{
    using block = gr::cuda::fft_filter<IN_T, OUT_T, TAP_T>;
    py::class_<block,
               gr::sync_decimator,
               gr::sync_block,
               gr::block,
               gr::basic_block,
               std::shared_ptr<block>>(
        m,
        name,
        "Decimating FIR filter by overlap-save through cuFFT (as filter.fft_filter_xxx), "
        "in whole segments.")
        .def(py::init(&block::make),
             py::arg("decimation"),
             py::arg("taps"),
             py::arg("nthreads") = 1,
             py::arg("device") = gr::cuda::default_device)
        .def("set_taps", &block::set_taps, py::arg("taps"))
        .def("taps", &block::taps)
        .def("set_nthreads", &block::set_nthreads, py::arg("n"))
        .def("nthreads", &block::nthreads);
}

void bind_fft_filter(py::module& m)
{
    bind_fft_filter_for<gr_complex, gr_complex, gr_complex>(m, "fft_filter_ccc");
    bind_fft_filter_for<gr_complex, gr_complex, float>(m, "fft_filter_ccf");
    bind_fft_filter_for<float, float, float>(m, "fft_filter_fff");
}
