/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "copy_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

copy::sptr copy::make(size_t itemsize, int device)
{
    arguments::require_item_size("cuda.copy", "itemsize", itemsize);
    return gnuradio::make_block_sptr<copy_impl>(itemsize, device);
}

copy_impl::copy_impl(size_t itemsize, int device)
    : gr::sync_block("copy",
                     gr::io_signature::make(1, 1, itemsize, cuda_buffer::type),
                     gr::io_signature::make(1, 1, itemsize, cuda_buffer::type)),
      cuda_sync_block<copy>(device),
      d_itemsize(itemsize)
{
}

// Device-to-device copies in the GPU blocks run as a kernel rather than on the copy
// engines (cuMemcpyAsync): on the H200's VM, cuda.head's work() took 13.5 us of CPU time
// per call with cuMemcpyAsync and a kernel launch takes about 5, and below 2^22 items per
// call it is the CPU time per call that limits a chain of GPU blocks
// (docs/PERFORMANCE.md).
int copy_impl::work(int noutput_items,
                    gr_vector_const_void_star& input_items,
                    gr_vector_void_star& output_items)
{
    check(grcuda_copy(
              stream(), input_items[0], output_items[0], noutput_items * d_itemsize),
          "cuda.copy");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
