/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "add_impl.h"
#include "arguments.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

namespace {

// The C API's launcher for each item type.
grcuda_status launch(const grcuda_stream* s,
                     const void* const* in,
                     size_t ninputs,
                     void* out,
                     size_t n,
                     std::int16_t)
{
    return grcuda_add_ss(s, in, ninputs, out, n);
}
grcuda_status launch(const grcuda_stream* s,
                     const void* const* in,
                     size_t ninputs,
                     void* out,
                     size_t n,
                     std::int32_t)
{
    return grcuda_add_ii(s, in, ninputs, out, n);
}
grcuda_status launch(const grcuda_stream* s,
                     const void* const* in,
                     size_t ninputs,
                     void* out,
                     size_t n,
                     float)
{
    return grcuda_add_ff(s, in, ninputs, out, n);
}
grcuda_status launch(const grcuda_stream* s,
                     const void* const* in,
                     size_t ninputs,
                     void* out,
                     size_t n,
                     gr_complex)
{
    return grcuda_add_cc(s, in, ninputs, out, n);
}

} // namespace

template <class T>
typename add<T>::sptr add<T>::make(size_t num_inputs, size_t vlen, int device)
{
    const std::string block = arguments::typed_name<T>("cuda.add");
    arguments::require_ports(block, "num_inputs", num_inputs);
    arguments::require_elements_per_item(block, "vlen", vlen, sizeof(T));
    return gnuradio::make_block_sptr<add_impl<T>>(num_inputs, vlen, device);
}

template <class T>
add_impl<T>::add_impl(size_t num_inputs, size_t vlen, int device)
    : gr::sync_block(
          "add",
          gr::io_signature::make(1, num_inputs, sizeof(T) * vlen, cuda_buffer::type),
          gr::io_signature::make(1, 1, sizeof(T) * vlen, cuda_buffer::type)),
      cuda_sync_block<add<T>>(device),
      d_vlen(vlen)
{
}

template <class T>
int add_impl<T>::work(int noutput_items,
                      gr_vector_const_void_star& input_items,
                      gr_vector_void_star& output_items)
{
    check(launch(this->stream(),
                 input_items.data(),
                 input_items.size(),
                 output_items[0],
                 noutput_items * d_vlen,
                 T{}),
          "cuda.add");
    return noutput_items;
}

template class add<std::int16_t>;
template class add<std::int32_t>;
template class add<float>;
template class add<gr_complex>;

} // namespace cuda
} // namespace gr
