/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <memory>

namespace gr {
namespace cuda {

block_context::block_context()
{
    check(grcuda_block_new(device(), &d_block), "gr-cuda: creating a block's stream");
}

block_context::~block_context() { grcuda_block_free(d_block); }

uint64_t block_context::stream_handle() const
{
    return grcuda_block_stream_handle(d_block);
}

const grcuda_stream* block_context::stream() const
{
    return grcuda_block_stream(d_block);
}

void block_context::attach(gr::block& self)
{
    const gr::block_detail_sptr detail = self.detail();
    for (int port = 0; port < detail->noutputs(); port++) {
        if (auto buffer = std::dynamic_pointer_cast<cuda_buffer>(detail->output(port))) {
            buffer->attach_writer(stream());
        }
    }
    for (int port = 0; port < detail->ninputs(); port++) {
        const gr::buffer_reader_sptr reader = detail->input(port);
        if (auto buffer = std::dynamic_pointer_cast<cuda_buffer>(reader->buffer())) {
            buffer->attach_reader(reader.get(), stream());
        }
    }
}

void block_context::report_consumed(gr::block& self, int port, int nitems)
{
    const gr::buffer_reader_sptr reader = self.detail()->input(port);
    if (auto buffer = std::dynamic_pointer_cast<cuda_buffer>(reader->buffer())) {
        buffer->report_consumed(reader.get(), nitems);
    }
}

void block_context::synchronize()
{
    check(grcuda_block_synchronize(d_block), "gr-cuda: waiting for a block's stream");
}

} // namespace cuda
} // namespace gr
