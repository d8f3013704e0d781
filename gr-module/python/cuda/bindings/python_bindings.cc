/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

namespace py = pybind11;

void bind_block_context(py::module& m);
void bind_cuda_buffer(py::module& m);
void bind_copy(py::module& m);
void bind_head(py::module& m);
void bind_multiply_const(py::module& m);
void bind_nop(py::module& m);
void bind_null_sink(py::module& m);
void bind_null_source(py::module& m);
void bind_rate_blocks(py::module& m);
void bind_routing_blocks(py::module& m);
void bind_spectrum_blocks(py::module& m);

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
    bind_cuda_buffer(m);
    bind_copy(m);
    bind_head(m);
    bind_multiply_const(m);
    bind_nop(m);
    bind_null_sink(m);
    bind_null_source(m);
    bind_rate_blocks(m);
    bind_routing_blocks(m);
    bind_spectrum_blocks(m);
}
