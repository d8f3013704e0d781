/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "multiply_const_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>

namespace gr {
namespace cuda {

namespace {

// The C API's launcher for each item type.
grcuda_status
launch(const grcuda_stream* s, const void* in, void* out, size_t n, std::int16_t k)
{
    return grcuda_multiply_const_ss(s, in, out, n, k);
}
grcuda_status
launch(const grcuda_stream* s, const void* in, void* out, size_t n, std::int32_t k)
{
    return grcuda_multiply_const_ii(s, in, out, n, k);
}
grcuda_status launch(const grcuda_stream* s, const void* in, void* out, size_t n, float k)
{
    return grcuda_multiply_const_ff(s, in, out, n, k);
}
grcuda_status
launch(const grcuda_stream* s, const void* in, void* out, size_t n, gr_complex k)
{
    return grcuda_multiply_const_cc(
        s, in, out, n, grcuda_complex32{ k.real(), k.imag() });
}

} // namespace

template <class T>
typename multiply_const<T>::sptr multiply_const<T>::make(T k, size_t vlen, int device)
{
    const std::string block = arguments::typed_name<T>("cuda.multiply_const");
    arguments::require_finite(block, "k", k);
    arguments::require_elements_per_item(block, "vlen", vlen, sizeof(T));
    return gnuradio::make_block_sptr<multiply_const_impl<T>>(k, vlen, device);
}

template <class T>
multiply_const_impl<T>::multiply_const_impl(T k, size_t vlen, int device)
    : gr::sync_block("multiply_const",
                     gr::io_signature::make(1, 1, sizeof(T) * vlen, cuda_buffer::type),
                     gr::io_signature::make(1, 1, sizeof(T) * vlen, cuda_buffer::type)),
      cuda_sync_block<multiply_const<T>>(device),
      d_k(k),
      d_vlen(vlen)
{
}

template <class T>
T multiply_const_impl<T>::k() const
{
    return d_k;
}

template <class T>
void multiply_const_impl<T>::set_k(T k)
{
    arguments::require_finite(arguments::typed_name<T>("cuda.multiply_const"), "k", k);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_k = k;
}

template <class T>
int multiply_const_impl<T>::work(int noutput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    check(
        launch(
            this->stream(), input_items[0], output_items[0], noutput_items * d_vlen, d_k),
        "cuda.multiply_const");
    return noutput_items;
}

template class multiply_const<std::int16_t>;
template class multiply_const<std::int32_t>;
template class multiply_const<float>;
template class multiply_const<gr_complex>;

} // namespace cuda
} // namespace gr
