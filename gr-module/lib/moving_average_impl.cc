/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "moving_average_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <climits>

namespace gr {
namespace cuda {

namespace {

grcuda_status launch(const grcuda_stream* s,
                     const void* in,
                     void* out,
                     size_t items,
                     size_t vlen,
                     size_t length,
                     float scale,
                     size_t max_iter,
                     uint64_t position)
{
    return grcuda_moving_average_ff(
        s, in, out, items, vlen, length, scale, max_iter, position);
}
grcuda_status launch(const grcuda_stream* s,
                     const void* in,
                     void* out,
                     size_t items,
                     size_t vlen,
                     size_t length,
                     gr_complex scale,
                     size_t max_iter,
                     uint64_t position)
{
    return grcuda_moving_average_cc(s,
                                    in,
                                    out,
                                    items,
                                    vlen,
                                    length,
                                    grcuda_complex32{ scale.real(), scale.imag() },
                                    max_iter,
                                    position);
}

//! The block's history is the length and 63 items for the running sum's restart segment:
//! GNU Radio's history is an int.
template <class T>
void require_length(int length)
{
    const size_t longest_extra = grcuda_moving_average_history(INT_MAX) - INT_MAX;
    arguments::require_between(arguments::typed_name<T>("cuda.moving_average"),
                               "length",
                               length,
                               1,
                               INT_MAX - longest_extra,
                               " (the block's history is up to " +
                                   std::to_string(longest_extra) +
                                   " items longer, and GNU Radio's history is an int)");
}

template <class T>
void require_scale(T scale)
{
    arguments::require_finite(
        arguments::typed_name<T>("cuda.moving_average"), "scale", scale);
}

} // namespace

template <class T>
typename moving_average<T>::sptr
moving_average<T>::make(int length, T scale, int max_iter, unsigned int vlen, int device)
{
    const std::string block = arguments::typed_name<T>("cuda.moving_average");
    require_length<T>(length);
    require_scale(scale);
    arguments::require_between(block, "max_iter", max_iter, 1, INT_MAX);
    arguments::require_elements_per_item(block, "vlen", vlen, sizeof(T));
    return gnuradio::make_block_sptr<moving_average_impl<T>>(
        length, scale, max_iter, vlen, device);
}

template <class T>
moving_average_impl<T>::moving_average_impl(
    int length, T scale, int max_iter, unsigned int vlen, int device)
    : gr::sync_block("moving_average",
                     gr::io_signature::make(1, 1, sizeof(T) * vlen, cuda_buffer::type),
                     gr::io_signature::make(1, 1, sizeof(T) * vlen, cuda_buffer::type)),
      cuda_sync_block<moving_average<T>>(device),
      d_length(length),
      d_scale(scale),
      d_max_iter(max_iter),
      d_vlen(vlen),
      d_new_length(length),
      d_new_scale(scale)
{
    this->set_history(grcuda_moving_average_history(length));
}

template <class T>
int moving_average_impl<T>::length() const
{
    return d_new_length;
}

template <class T>
T moving_average_impl<T>::scale() const
{
    return d_new_scale;
}

template <class T>
void moving_average_impl<T>::set_length_and_scale(int length, T scale)
{
    require_length<T>(length);
    require_scale(scale);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_new_length = length;
    d_new_scale = scale;
    d_updated = true;
}

template <class T>
void moving_average_impl<T>::set_length(int length)
{
    require_length<T>(length);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_new_length = length;
    d_updated = true;
}

template <class T>
void moving_average_impl<T>::set_scale(T scale)
{
    require_scale(scale);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_new_scale = scale;
    d_updated = true;
}

template <class T>
int moving_average_impl<T>::work(int noutput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    if (d_updated) {
        d_length = d_new_length;
        d_scale = d_new_scale;
        this->set_history(grcuda_moving_average_history(d_length));
        d_updated = false;
        return 0; // the history may have changed
    }
    // All noutput_items in one launch: the kernel restarts its sums at least every
    // max_iter outputs itself, at points aligned to the stream, where GNU Radio's block
    // returns after max_iter items.
    check(launch(this->stream(),
                 input_items[0],
                 output_items[0],
                 noutput_items,
                 d_vlen,
                 d_length,
                 d_scale,
                 d_max_iter,
                 this->nitems_written(0)),
          arguments::typed_name<T>("cuda.moving_average").c_str());
    return noutput_items;
}

template class moving_average<float>;
template class moving_average<gr_complex>;

} // namespace cuda
} // namespace gr
