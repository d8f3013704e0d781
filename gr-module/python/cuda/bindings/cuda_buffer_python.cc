/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>

namespace py = pybind11;

void bind_cuda_buffer(py::module& m)
{
    // By reference: a copy of a buffer type is sliced to the base class, whose
    // make_buffer() returns nothing, and GNU Radio crashes at start().
    m.attr("cuda_buffer_type") =
        py::cast(&gr::cuda::cuda_buffer::type, py::return_value_policy::reference);
    m.def("simulated",
          &gr::cuda::simulated,
          "Whether blocks run on the simulated backend (no GPU) rather than the GPU.");
    m.attr("default_device") = gr::cuda::default_device;
    m.def("device_count",
          &gr::cuda::device_count,
          "How many devices the blocks' backend has (GPUs, or simulated devices).");
    m.def("device_ordinal",
          &gr::cuda::device_ordinal,
          py::arg("device") = gr::cuda::default_device,
          "CUDA ordinal of a device: device itself, or for default_device (-1) the "
          "default device's ([cuda] device / $GRCUDA_DEVICE, default 0). Raises "
          "ValueError for a device the backend does not have.");
    m.def("free_device_memory",
          &gr::cuda::free_memory,
          py::arg("device") = gr::cuda::default_device,
          "Free memory of a device (default: the default device), in bytes.");
    m.def("kernel_cache_directory",
          &gr::cuda::kernel_cache_directory,
          "Folder where the kernels compiled for the GPU are kept ($GRCUDA_KERNEL_CACHE, "
          "else [cuda] kernel_cache, else ~/.cache/grcuda/kernels); empty when none.");
}
