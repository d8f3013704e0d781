/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

namespace py = pybind11;

void bind_block_context(py::module& m);
void bind_cuda_block_helper(py::module& m);
void bind_cuda_buffer(py::module& m);
void bind_python_gateway(py::module& m);
// One per block, each in <block>_python.cc (gr_modtool add appends here).
// BINDING_FUNCTION_PROTOTYPES(
void bind_add(py::module& m);
void bind_complex_to_arg(py::module& m);
void bind_complex_to_float(py::module& m);
void bind_complex_to_imag(py::module& m);
void bind_complex_to_mag(py::module& m);
void bind_complex_to_mag_squared(py::module& m);
void bind_complex_to_real(py::module& m);
void bind_conjugate_cc(py::module& m);
void bind_copy(py::module& m);
void bind_expression(py::module& m);
void bind_fft(py::module& m);
void bind_fft_shift(py::module& m);
void bind_float_to_complex(py::module& m);
void bind_fft_filter(py::module& m);
void bind_fir_filter(py::module& m);
void bind_freq_xlating_fir_filter(py::module& m);
void bind_head(py::module& m);
void bind_load(py::module& m);
void bind_keep_one_in_n(py::module& m);
void bind_logpwrfft(py::module& m);
void bind_moving_average(py::module& m);
void bind_multiply(py::module& m);
void bind_multiply_conjugate_cc(py::module& m);
void bind_multiply_const(py::module& m);
void bind_nlog10_ff(py::module& m);
void bind_nop(py::module& m);
void bind_null_sink(py::module& m);
void bind_null_source(py::module& m);
void bind_pfb_channelizer_ccf(py::module& m);
void bind_pfb_channelizer_vector_ccf(py::module& m);
void bind_probe_rate(py::module& m);
void bind_rational_resampler(py::module& m);
void bind_quadrature_demod_cf(py::module& m);
void bind_rotator_cc(py::module& m);
void bind_stream_to_vector(py::module& m);
void bind_streams_to_vector(py::module& m);
void bind_tee(py::module& m);
void bind_throttle(py::module& m);
void bind_vector_to_stream(py::module& m);
void bind_vector_to_streams(py::module& m);
// ) END BINDING_FUNCTION_PROTOTYPES

// import_array() is a macro that returns NULL on failure in newer numpy versions.
void* init_numpy()
{
    import_array();
    return NULL;
}

PYBIND11_MODULE(cuda_python, m)
{
    init_numpy();
    // The block classes derive from gnuradio.gr's bindings.
    py::module::import("gnuradio.gr");

    bind_block_context(m);
    bind_cuda_block_helper(m);
    bind_cuda_buffer(m);
    bind_python_gateway(m);
    // BINDING_FUNCTION_CALLS(
    bind_add(m);
    bind_complex_to_arg(m);
    bind_complex_to_float(m);
    bind_complex_to_imag(m);
    bind_complex_to_mag(m);
    bind_complex_to_mag_squared(m);
    bind_complex_to_real(m);
    bind_conjugate_cc(m);
    bind_copy(m);
    bind_expression(m);
    bind_fft(m);
    bind_fft_shift(m);
    bind_float_to_complex(m);
    bind_fft_filter(m);
    bind_fir_filter(m);
    bind_freq_xlating_fir_filter(m);
    bind_head(m);
    bind_load(m);
    bind_keep_one_in_n(m);
    bind_logpwrfft(m);
    bind_moving_average(m);
    bind_multiply(m);
    bind_multiply_conjugate_cc(m);
    bind_multiply_const(m);
    bind_nlog10_ff(m);
    bind_nop(m);
    bind_null_sink(m);
    bind_null_source(m);
    bind_pfb_channelizer_ccf(m);
    bind_pfb_channelizer_vector_ccf(m);
    bind_probe_rate(m);
    bind_rational_resampler(m);
    bind_quadrature_demod_cf(m);
    bind_rotator_cc(m);
    bind_stream_to_vector(m);
    bind_streams_to_vector(m);
    bind_tee(m);
    bind_throttle(m);
    bind_vector_to_stream(m);
    bind_vector_to_streams(m);
    // ) END BINDING_FUNCTION_CALLS
}
