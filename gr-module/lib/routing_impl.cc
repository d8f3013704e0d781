/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "routing_impl.h"
#include "arguments.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <cstring>

namespace gr {
namespace cuda {

tee::sptr tee::make(size_t itemsize, bool gpu)
{
    arguments::require_item_size("cuda.tee", "itemsize", itemsize);
    return gnuradio::make_block_sptr<tee_impl>(itemsize, gpu);
}

tee_impl::tee_impl(size_t itemsize, bool gpu)
    : gr::sync_block("tee",
                     gpu ? gr::io_signature::make(1, 1, itemsize, cuda_buffer::type)
                         : gr::io_signature::make(1, 1, itemsize),
                     gpu ? gr::io_signature::make(2, 2, itemsize, cuda_buffer::type)
                         : gr::io_signature::make(2, 2, itemsize)),
      d_itemsize(itemsize),
      d_gpu(gpu)
{
}

int tee_impl::work(int noutput_items,
                   gr_vector_const_void_star& input_items,
                   gr_vector_void_star& output_items)
{
    const size_t bytes = noutput_items * d_itemsize;
    for (void* output : output_items) {
        if (d_gpu) {
            check(grcuda_copy(stream(), input_items[0], output, bytes), "cuda.tee");
        } else {
            std::memcpy(output, input_items[0], bytes);
        }
    }
    return noutput_items;
}

fft_shift::sptr fft_shift::make(size_t fft_size)
{
    arguments::require_elements_per_item("cuda.fft_shift", "fft_size", fft_size, sizeof(gr_complex));
    return gnuradio::make_block_sptr<fft_shift_impl>(fft_size);
}

fft_shift_impl::fft_shift_impl(size_t fft_size)
    : gr::sync_block(
          "fft_shift",
          gr::io_signature::make(1, 1, fft_size * sizeof(gr_complex), cuda_buffer::type),
          gr::io_signature::make(1, 1, fft_size * sizeof(gr_complex), cuda_buffer::type)),
      d_size(fft_size)
{
}

int fft_shift_impl::work(int noutput_items,
                         gr_vector_const_void_star& input_items,
                         gr_vector_void_star& output_items)
{
    check(grcuda_fft_shift_cc(
              stream(), input_items[0], output_items[0], d_size, noutput_items),
          "cuda.fft_shift");
    return noutput_items;
}

streams_to_vector::sptr streams_to_vector::make(size_t itemsize, size_t num_streams)
{
    arguments::require_item_size("cuda.streams_to_vector", "itemsize", itemsize);
    arguments::require_ports_in_item(
        "cuda.streams_to_vector", "num_streams", num_streams, itemsize);
    return gnuradio::make_block_sptr<streams_to_vector_impl>(itemsize, num_streams);
}

streams_to_vector_impl::streams_to_vector_impl(size_t itemsize, size_t num_streams)
    : gr::sync_block(
          "streams_to_vector",
          gr::io_signature::make(num_streams, num_streams, itemsize, cuda_buffer::type),
          gr::io_signature::make(1, 1, itemsize * num_streams, cuda_buffer::type)),
      d_itemsize(itemsize)
{
}

int streams_to_vector_impl::work(int noutput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    check(grcuda_interleave(stream(),
                            input_items.data(),
                            input_items.size(),
                            output_items[0],
                            noutput_items,
                            d_itemsize),
          "cuda.streams_to_vector");
    return noutput_items;
}

vector_to_streams::sptr vector_to_streams::make(size_t itemsize, size_t num_streams)
{
    arguments::require_item_size("cuda.vector_to_streams", "itemsize", itemsize);
    arguments::require_ports_in_item(
        "cuda.vector_to_streams", "num_streams", num_streams, itemsize);
    return gnuradio::make_block_sptr<vector_to_streams_impl>(itemsize, num_streams);
}

vector_to_streams_impl::vector_to_streams_impl(size_t itemsize, size_t num_streams)
    : gr::sync_block(
          "vector_to_streams",
          gr::io_signature::make(1, 1, itemsize * num_streams, cuda_buffer::type),
          gr::io_signature::make(num_streams, num_streams, itemsize, cuda_buffer::type)),
      d_itemsize(itemsize)
{
}

int vector_to_streams_impl::work(int noutput_items,
                                 gr_vector_const_void_star& input_items,
                                 gr_vector_void_star& output_items)
{
    check(grcuda_deinterleave(stream(),
                              input_items[0],
                              output_items.data(),
                              output_items.size(),
                              noutput_items,
                              d_itemsize),
          "cuda.vector_to_streams");
    return noutput_items;
}

} // namespace cuda
} // namespace gr
