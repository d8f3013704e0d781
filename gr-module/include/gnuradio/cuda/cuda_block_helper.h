/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_CUDA_BLOCK_HELPER_H
#define INCLUDED_CUDA_CUDA_BLOCK_HELPER_H

// The C++ API of the reference gr-cuda module for blocks that run their own CUDA stream
// (docs/PORTING.md): the gr::cuda_block mixin, which gives a block d_stream, and the
// manual-synchronisation helpers its work() may call around its kernels. Blocks of this
// module derive from gr::cuda::cuda_sync_block<Interface> instead, whose work() is only
// its kernel launches; a block written for the reference compiles and runs here
// unchanged, with or without the helpers.
//
// A block with the mixin is a host-synchronous party of its cuda_buffers (docs/
// ARCHITECTURE.md): GNU Radio's buffers know nothing of d_stream, so its work must be
// complete when GNU Radio posts its outputs or reuses what it read. The cuda_buffers see
// the mixin on their writer and readers and make it so themselves: they wait until the
// items offered to such a block are written before its work() runs, for its stream
// before they post its outputs, and for its stream before its writer reuses items it
// consumed. The helpers do the first two from work(), as in the reference:
// wait_for_inputs() waits until the items GNU Radio offers on every cuda_buffer input are
// written, mark_outputs_ready() waits for d_stream, after which the outputs are visible
// to every reader.

#include <gnuradio/block_detail.h>
#include <gnuradio/cuda/api.h>
#include <grcuda.h>

// The CUDA runtime's stream type, declared exactly as cuda_runtime_api.h does, so that
// block code names it without CUDA's headers (a typedef may be repeated with the same
// type).
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;

namespace gr {
namespace cuda {

//! Waits (on the host) until the items GNU Radio offers on every cuda_buffer input of the
//! block are written, so that kernels enqueued on \p stream next may read them.
CUDA_API void wait_for_inputs(const gr::block_detail_sptr& detail, cudaStream_t stream);
//! Waits until the work enqueued on \p stream is done: the block's outputs are then
//! complete and visible to readers, and its reads of its inputs are over.
CUDA_API void mark_outputs_ready(const gr::block_detail_sptr& detail,
                                 cudaStream_t stream);
//! wait_for_inputs(); the outputs' free space needs no wait (the buffers order it).
CUDA_API void wait_for_work(const gr::block_detail_sptr& detail, cudaStream_t stream);
//! mark_outputs_ready(): after it the outputs are visible and the inputs' reads are done.
CUDA_API void mark_work_done(const gr::block_detail_sptr& detail, cudaStream_t stream);

} // namespace cuda

/*!
 * \brief The reference module's block mixin: a non-blocking CUDA stream, d_stream, for
 * the block's kernels (made with libgrcuda on the module's device; on the simulated
 * backend d_stream is null and work enqueued "on" it is done at once).
 *
 * In namespace gr, as in the reference. Inside namespace gr::cuda, write gr::cuda_block:
 * there the name cuda_block is this module's class template
 * gr::cuda::cuda_block<Interface>.
 */
class CUDA_API cuda_block
{
public:
    cuda_block();
    virtual ~cuda_block();
    cuda_block(const cuda_block&) = delete;
    cuda_block& operator=(const cuda_block&) = delete;

    virtual cudaStream_t get_cuda_stream() const { return d_stream; }

    //! Whether any block with this mixin exists in the process: cuda_buffer looks for
    //! mixin blocks on its edges only then, so that flowgraphs without them pay nothing
    //! per call.
    static bool instances_exist();

protected:
    //! The libgrcuda stream behind d_stream, for libgrcuda's kernels (grcuda_copy, ...),
    //! which take it rather than a cudaStream_t.
    const grcuda_stream* libgrcuda_stream() const { return d_owned_stream; }

    cudaStream_t d_stream = nullptr;
    //! For the block's own launch configuration (cudaOccupancyMaxPotentialBlockSize), as
    //! in the reference; 0 until the block sets them.
    int d_min_grid_size = 0;
    int d_block_size = 0;

private:
    grcuda_stream* d_owned_stream = nullptr;
};

} // namespace gr

#endif /* INCLUDED_CUDA_CUDA_BLOCK_HELPER_H */
