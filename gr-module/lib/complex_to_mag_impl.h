/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_COMPLEX_TO_MAG_IMPL_H
#define INCLUDED_CUDA_COMPLEX_TO_MAG_IMPL_H

#include <gnuradio/cuda/complex_to_mag.h>
#include <gnuradio/cuda/cuda_block.h>

namespace gr {
namespace cuda {

//! Both magnitude blocks: \p Interface picks the block, \p Launch the C API kernel.
template <class Interface,
          grcuda_status (*Launch)(const grcuda_stream*, const void*, void*, size_t)>
class magnitude_impl : public cuda_sync_block<Interface>
{
public:
    magnitude_impl(const char* name, size_t vlen);

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    const size_t d_vlen;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_COMPLEX_TO_MAG_IMPL_H */
