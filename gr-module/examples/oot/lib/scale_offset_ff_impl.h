/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDAEXAMPLE_SCALE_OFFSET_FF_IMPL_H
#define INCLUDED_CUDAEXAMPLE_SCALE_OFFSET_FF_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cudaexample/scale_offset_ff.h>
#include <grcuda.h>
#include <cstddef>
#include <memory>

namespace gr {
namespace cudaexample {

// cuda_sync_block<Interface>: gr-cuda's base for GPU sync blocks. It owns the block's
// CUDA stream, registers it with the gr-cuda buffers on the ports at start(), waits for
// it at stop(), and tells the input buffer what work() consumed. work() only enqueues
// kernels.
class scale_offset_ff_impl : public gr::cuda::cuda_sync_block<scale_offset_ff>
{
public:
    scale_offset_ff_impl(float scale, float offset);
    ~scale_offset_ff_impl() override;

    float scale() const override;
    void set_scale(float scale) override;
    float offset() const override;
    void set_offset(float offset) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    struct memory_deleter {
        void operator()(grcuda_memory* memory) const { grcuda_memory_free(memory); }
    };
    using memory_ptr = std::unique_ptr<grcuda_memory, memory_deleter>;

    // The C API adds arrays, not a constant: the offset is added as an array of
    // d_chunk_items copies of it (d_offsets), made on the GPU from an array of ones.
    static constexpr size_t d_chunk_items = 1 << 16;

    float d_scale;  // set under d_setlock, which cuda_sync_block holds around work()
    float d_offset; // likewise
    bool d_offsets_stale = true; // d_offsets does not hold d_offset yet
    memory_ptr d_ones;
    memory_ptr d_offsets;
};

} // namespace cudaexample
} // namespace gr

#endif /* INCLUDED_CUDAEXAMPLE_SCALE_OFFSET_FF_IMPL_H */
