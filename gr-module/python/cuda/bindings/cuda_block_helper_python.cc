/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <pybind11/pybind11.h>

#include <gnuradio/block.h>
#include <gnuradio/cuda/cuda_block_helper.h>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace py = pybind11;

namespace {

// The helpers take a block's C++ object (a Python block's `gateway`) and a CUstream as an
// integer (a CuPy stream's `ptr`), as the reference module's do.
using helper = void (*)(const gr::block_detail_sptr&, cudaStream_t);

void call(helper function, const char* name, gr::block& block, uintptr_t stream)
{
    const gr::block_detail_sptr detail = block.detail();
    if (!detail) {
        throw std::invalid_argument(
            std::string("cuda.") + name + ": " + block.alias() +
            " is not in a running flowgraph; call it from work()");
    }
    py::gil_scoped_release release; // the waits must not stall other blocks' Python
    function(detail, reinterpret_cast<cudaStream_t>(stream));
}

} // namespace

void bind_cuda_block_helper(py::module& m)
{
    const struct {
        const char* name;
        helper function;
        const char* doc;
    } helpers[] = {
        { "wait_for_inputs",
          &gr::cuda::wait_for_inputs,
          "Waits until the items offered on every GPU input of the block are written." },
        { "mark_outputs_ready",
          &gr::cuda::mark_outputs_ready,
          "Waits for the stream: the block's outputs are then visible to readers." },
        { "wait_for_work", &gr::cuda::wait_for_work, "As wait_for_inputs()." },
        { "mark_work_done", &gr::cuda::mark_work_done, "As mark_outputs_ready()." },
    };
    for (const auto& entry : helpers) {
        const helper function = entry.function;
        const char* name = entry.name;
        m.def((std::string("_") + name).c_str(),
              [function, name](gr::block& block, uintptr_t stream) {
                  call(function, name, block, stream);
              },
              py::arg("block"),
              py::arg("stream"),
              entry.doc);
    }
}
