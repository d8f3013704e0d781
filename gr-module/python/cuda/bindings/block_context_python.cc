/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// gr::cuda::block_context for Python GPU blocks (gnuradio/cuda/python_blocks.py): the
// block's stream and its registration with the cuda_buffers of a gateway block's ports.

#include <pybind11/pybind11.h>

#include <gnuradio/block.h>
#include <gnuradio/cuda/cuda_block.h>

namespace py = pybind11;

void bind_block_context(py::module& m)
{
    // GNU Radio calls a Python block from its own thread through pybind11, which creates
    // a Python thread state for the call and destroys it after, when nothing else holds
    // it: tens of microseconds per work() call. A block holds its thread's state from
    // start() to stop() (both run in that thread) so that every call finds it.
    m.def(
        "hold_python_thread_state",
        [] {
            py::gil_scoped_acquire acquire;
            acquire.inc_ref();
        },
        "Keeps the calling thread's Python thread state until "
        "release_python_thread_state() "
        "is called from the same thread.");
    m.def(
        "release_python_thread_state",
        [] {
            py::gil_scoped_acquire acquire;
            acquire.dec_ref();
        },
        "Undoes hold_python_thread_state(); call from the thread that held it.");

    using gr::cuda::block_context;
    py::class_<block_context>(m,
                              "block_context",
                              "A GPU block's CUDA stream and its registration with the "
                              "cuda_buffers on its ports: a Python GPU block's, from "
                              "python_gateway.context().")
        .def("device_ordinal",
             &block_context::device_ordinal,
             "The CUDA ordinal of the stream's device (never default_device).")
        .def("stream_handle",
             &block_context::stream_handle,
             "The stream as an integer CUstream (cudaStream_t); 0 on the simulated "
             "backend.")
        .def(
            "attach",
            [](block_context& self, const gr::block_sptr& block) {
                return self.attach(*block);
            },
            py::arg("block"),
            "Registers the stream with the buffers of the block's ports (call from "
            "start()). When they are refused, logs why, marks the block done (which ends "
            "the flowgraph) and returns False.")
        .def("detach",
             &block_context::detach,
             py::call_guard<py::gil_scoped_release>(),
             "Waits until all work enqueued on the stream is done, then lets go of the "
             "port buffers (call from stop()).");
}
