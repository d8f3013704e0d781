/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_CUDA_BUFFER_READER_H
#define INCLUDED_CUDA_CUDA_BUFFER_READER_H

// The reference gr-cuda module's reader class, gr::cuda_buffer_reader, through which
// blocks set the stream their reads run on (set_consumer_stream()). This module's
// cuda_buffers use GNU Radio's own readers and order each block's reads themselves: a
// block of this module registers its stream at start(), a block with the gr::cuda_block
// mixin is ordered on the host (cuda_block_helper.h), so no block needs a reader of its
// own. The name exists so that code including this header compiles; any use of the class
// stops the compilation with what to change (docs/PORTING.md).

#include <gnuradio/buffer_reader.h>
#include <gnuradio/cuda/cuda_block_helper.h> // cudaStream_t

namespace gr {

namespace cuda {
namespace reader_detail {
template <typename Unused>
constexpr bool exists = false;
} // namespace reader_detail
} // namespace cuda

//! A template only so that the assertion fires where the class is used, not here.
template <typename Unused = void>
class basic_cuda_buffer_reader : public buffer_reader
{
    static_assert(
        cuda::reader_detail::exists<Unused>,
        "gr::cuda_buffer_reader does not exist in this gr-cuda: its buffers "
        "order every block's reads themselves. Drop the cuda_buffer_reader code "
        "(set_consumer_stream(), consumer_stream()): a C++ block with the "
        "gr::cuda_block mixin needs nothing more, a Python block derives from "
        "cuda.sync_block (docs/PORTING.md)");

public:
    void set_consumer_stream(cudaStream_t stream);
    cudaStream_t consumer_stream();
};

using cuda_buffer_reader = basic_cuda_buffer_reader<>;

} // namespace gr

#endif /* INCLUDED_CUDA_CUDA_BUFFER_READER_H */
