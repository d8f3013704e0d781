/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/cuda/logpwrfft.h>

namespace py = pybind11;

template <class T>
static void bind_logpwrfft_for(py::module& m, const char* name)
{
    using block = gr::cuda::logpwrfft<T>;
    // The C++ block takes window taps; gnuradio.cuda's logpwrfft_c / logpwrfft_f
    // (logpwrfft.py), which replace these names in the package, take GNU Radio's window
    // function (win) and pass its taps here.
    py::class_<block, gr::block, gr::basic_block, std::shared_ptr<block>>(
        m, name, "GNU Radio's log power FFT chain in one GPU block (taps in window).")
        .def(py::init(&block::make),
             py::arg("sample_rate"),
             py::arg("fft_size"),
             py::arg("ref_scale"),
             py::arg("frame_rate"),
             py::arg("avg_alpha"),
             py::arg("average"),
             py::arg("window") = std::vector<float>(),
             py::arg("shift") = false,
             py::arg("device") = gr::cuda::default_device)
        .def("set_sample_rate", &block::set_sample_rate, py::arg("sample_rate"))
        .def("set_vec_rate", &block::set_vec_rate, py::arg("vec_rate"))
        .def("set_decimation", &block::set_decimation, py::arg("decim"))
        .def("set_average", &block::set_average, py::arg("average"))
        .def("set_avg_alpha", &block::set_avg_alpha, py::arg("avg_alpha"))
        .def("sample_rate", &block::sample_rate)
        .def("decimation", &block::decimation)
        .def("frame_rate", &block::frame_rate)
        .def("average", &block::average)
        .def("avg_alpha", &block::avg_alpha);
}

void bind_logpwrfft(py::module& m)
{
    bind_logpwrfft_for<gr_complex>(m, "logpwrfft_c");
    bind_logpwrfft_for<float>(m, "logpwrfft_f");
}
