/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "multiply_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

namespace {

grcuda_status launch(const grcuda_stream* s,
                     const void* const* in,
                     size_t ninputs,
                     void* out,
                     size_t n,
                     float)
{
    return grcuda_multiply_ff(s, in, ninputs, out, n);
}
grcuda_status launch(const grcuda_stream* s,
                     const void* const* in,
                     size_t ninputs,
                     void* out,
                     size_t n,
                     gr_complex)
{
    return grcuda_multiply_cc(s, in, ninputs, out, n);
}

} // namespace

template <class T>
typename multiply<T>::sptr multiply<T>::make(size_t vlen, int device)
{
    arguments::require_elements_per_item(
        arguments::typed_name<T>("cuda.multiply"), "vlen", vlen, sizeof(T));
    return gnuradio::make_block_sptr<multiply_impl<T>>(vlen, device);
}

template <class T>
multiply_impl<T>::multiply_impl(size_t vlen, int device)
    : gr::sync_block("multiply",
                     // As GNU Radio's: as many inputs as are connected.
                     gr::io_signature::make(1, -1, sizeof(T) * vlen, cuda_buffer::type),
                     gr::io_signature::make(1, 1, sizeof(T) * vlen, cuda_buffer::type)),
      cuda_sync_block<multiply<T>>(device),
      d_vlen(vlen)
{
}

template <class T>
int multiply_impl<T>::work(int noutput_items,
                           gr_vector_const_void_star& input_items,
                           gr_vector_void_star& output_items)
{
    check(launch(this->stream(),
                 input_items.data(),
                 input_items.size(),
                 output_items[0],
                 noutput_items * d_vlen,
                 T{}),
          "cuda.multiply");
    return noutput_items;
}

template class multiply<float>;
template class multiply<gr_complex>;

} // namespace cuda
} // namespace gr
