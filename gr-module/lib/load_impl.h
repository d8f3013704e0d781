/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_LOAD_IMPL_H
#define INCLUDED_CUDA_LOAD_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/load.h>
#include <memory>

namespace gr {
namespace cuda {

class load_impl : public cuda_sync_block<load>
{
public:
    load_impl(size_t iterations, size_t itemsize, bool use_cb, int device);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    struct memory_free {
        void operator()(grcuda_memory* memory) const { grcuda_memory_free(memory); }
    };
    using memory_ptr = std::unique_ptr<grcuda_memory, memory_free>;

    //! Without use_cb: one pass through the staging memory, at most its size.
    void load_through_staging(const void* input, void* output, size_t bytes);

    const uint64_t d_iterations;
    const size_t d_itemsize;
    //! Without use_cb: pinned host memory for the copies, device memory for the kernel.
    memory_ptr d_host_staging;
    memory_ptr d_device_staging;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_LOAD_IMPL_H */
