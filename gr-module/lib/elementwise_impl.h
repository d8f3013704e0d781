/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_ELEMENTWISE_IMPL_H
#define INCLUDED_CUDA_ELEMENTWISE_IMPL_H

// The stateless elementwise blocks (conjugate, complex_to_real/imag/arg,
// multiply_conjugate): one kernel launch over noutput_items * vlen values per work(),
// with the C API's launcher as a template argument, so each block is its make() and a
// typedef.

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <string>

namespace gr {
namespace cuda {

//! One input of \p InputSize bytes per element, one output of \p OutputSize.
template <class Interface,
          size_t InputSize,
          size_t OutputSize,
          grcuda_status (*Launch)(const grcuda_stream*, const void*, void*, size_t)>
class unary_elementwise_impl : public cuda_sync_block<Interface>
{
public:
    unary_elementwise_impl(const char* name, size_t vlen, int device)
        : gr::sync_block(
              name,
              gr::io_signature::make(1, 1, InputSize * vlen, cuda_buffer::type),
              gr::io_signature::make(1, 1, OutputSize * vlen, cuda_buffer::type)),
          cuda_sync_block<Interface>(device),
          d_vlen(vlen),
          d_block(std::string("cuda.") + name)
    {
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override
    {
        check(
            Launch(
                this->stream(), input_items[0], output_items[0], noutput_items * d_vlen),
            d_block.c_str());
        return noutput_items;
    }

private:
    const size_t d_vlen;
    const std::string d_block;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_ELEMENTWISE_IMPL_H */
