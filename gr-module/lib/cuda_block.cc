/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "settings.h"
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/logger.h>
#include <algorithm>
#include <stdexcept>
#include <string>

namespace gr {
namespace cuda {

namespace {

//! The cuda_buffer behind \p buffer, wired (its transfer type passed to libgrcuda), or
//! nullptr for any other buffer.
const grcuda_buffer* wired_handle(const gr::buffer_sptr& buffer)
{
    auto* device_buffer = dynamic_cast<cuda_buffer*>(buffer.get());
    if (!device_buffer) {
        return nullptr;
    }
    device_buffer->wire();
    return device_buffer->handle();
}

//! Throws std::runtime_error where GNU Radio could never call \p self for output \p port.
void require_room_for_a_call(gr::block& self, int port)
{
    // GNU Radio 3.10 gives a call at most half an output buffer, in whole output
    // multiples, and throws in the block's thread where that is below the block's
    // min_noutput_items: the thread ends and the flowgraph waits for it forever.
    const gr::buffer_sptr buffer = self.detail()->output(port);
    const int multiple = self.output_multiple();
    const int most = buffer->bufsize() / 2 / multiple * multiple;
    if (most >= std::max(self.min_noutput_items(), 1)) {
        return;
    }
    throw std::runtime_error(
        "its min_noutput_items (" + std::to_string(self.min_noutput_items()) +
        ") is more than GNU Radio gives one call of output " + std::to_string(port) +
        " (" + std::to_string(most) + " items: half its buffer of " +
        std::to_string(buffer->bufsize()) +
        " items, in whole output multiples), so GNU Radio would end the block's thread "
        "and the flowgraph would wait forever. Fix: set_min_output_buffer(" +
        std::to_string(2 * int64_t{ self.min_noutput_items() }) +
        ") or more on it, or a smaller set_min_noutput_items()");
}

} // namespace

block_context::block_context(int device)
    : d_device_ordinal(cuda::device_ordinal(device)),
      d_device(cuda::device(d_device_ordinal))
{
    check(grcuda_block_new(d_device, host_wait_mode(), &d_block),
          "gr-cuda: creating a block's stream");
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

bool block_context::attach(gr::block& self)
{
    const gr::block_detail_sptr detail = self.detail();
    std::vector<const grcuda_buffer*> outputs;
    std::vector<const grcuda_buffer*> inputs;
    d_inputs.clear();
    d_consumption.clear();
    try {
        for (int port = 0; port < detail->noutputs(); port++) {
            require_room_for_a_call(self, port);
            outputs.push_back(wired_handle(detail->output(port)));
        }
        for (int port = 0; port < detail->ninputs(); port++) {
            const gr::buffer_reader_sptr reader = detail->input(port);
            d_inputs.push_back(reader.get());
            d_consumption.push_back({ 0, 0 });
            inputs.push_back(wired_handle(reader->buffer()));
            if (!inputs.back() &&
                cuda_buffer::port_on_gpu(self.input_signature(), port)) {
                // Only lock()/unlock() gets here: GNU Radio connects a block it keeps to
                // a CPU block's buffer as it is, in host memory, where the block's
                // kernels cannot read.
                throw std::runtime_error(
                    "after lock()/unlock(), input " + std::to_string(port) + " reads " +
                    reader->buffer()->link()->identifier() +
                    "'s output in host memory, which GNU Radio 3.10 gives a GPU block it "
                    "keeps across unlock() without a GPU buffer. Fix: stop() and wait() "
                    "the flowgraph, reconnect, and start() it again, or connect a new "
                    "GPU "
                    "block there");
            }
        }
    } catch (const std::exception& refused) {
        return refuse(self, refused.what());
    }
    if (grcuda_block_attach_ports(
            d_block, inputs.data(), inputs.size(), outputs.data(), outputs.size()) !=
        GRCUDA_STATUS_OK) {
        return refuse(self, grcuda_last_error_message());
    }
    find_mirrors();
    d_running = true;
    return true;
}

bool block_context::refuse(gr::block& self, const std::string& reason)
{
    // The reasons cuda_buffer throws at start() name gr-cuda already.
    const std::string prefix = "gr-cuda: ";
    const bool named = reason.compare(0, prefix.size(), prefix) == 0;
    gr::logger(self.alias())
        .error("gr-cuda: {} cannot run: {}; ending the flowgraph",
               self.identifier(),
               named ? reason.substr(prefix.size()) : reason);
    d_inputs.clear();
    d_consumption.clear();
    d_mirrors.clear();
    d_mirrored = false;
    self.detail()->set_done(true);
    return false;
}

void block_context::find_mirrors()
{
    d_mirrors.clear();
    d_item_sizes.clear();
    d_mirrored = false;
    for (size_t port = 0; port < d_inputs.size(); port++) {
        void* base = nullptr;
        check(grcuda_block_input_mirror(d_block, port, &base),
              "gr-cuda: asking where an input is read");
        d_mirrors.push_back(static_cast<const char*>(base));
        d_item_sizes.push_back(d_inputs[port]->buffer()->get_sizeof_item());
        d_mirrored = d_mirrored || base;
    }
}

void block_context::point_at_mirrors(gr_vector_const_void_star& input_items) const
{
    // Only this block's thread moves its read indices, so reading them needs no lock.
    for (size_t port = 0; port < d_mirrors.size(); port++) {
        if (d_mirrors[port]) {
            input_items[port] =
                d_mirrors[port] +
                size_t{ d_inputs[port]->get_read_index() } * d_item_sizes[port];
        }
    }
}

void block_context::report_consumed(int port, int nitems)
{
    if (port < 0 || static_cast<size_t>(port) >= d_inputs.size()) {
        throw std::out_of_range("gr-cuda: report_consumed for input port " +
                                std::to_string(port) + ", but the block has " +
                                std::to_string(d_inputs.size()) +
                                " input port(s) since its start()");
    }
    if (nitems <= 0) {
        return;
    }
    // Only this block's thread moves its read index, so reading it needs no lock.
    check(grcuda_block_consume(d_block, port, d_inputs[port]->get_read_index(), nitems),
          "gr-cuda: report_consumed");
}

void block_context::end_work(int nitems)
{
    // Only this block's thread moves its read indices, so reading them needs no lock.
    const size_t consumed = nitems > 0 ? static_cast<size_t>(nitems) : 0;
    for (size_t port = 0; port < d_inputs.size(); port++) {
        d_consumption[port] = { d_inputs[port]->get_read_index(), consumed };
    }
    check(grcuda_block_end_work(d_block, d_consumption.data(), d_consumption.size()),
          "gr-cuda: end of work");
}

void block_context::detach()
{
    d_running = false;
    check(grcuda_block_synchronize(d_block), "gr-cuda: waiting for a block's stream");
    d_inputs.clear();
    d_consumption.clear();
    d_mirrors.clear();
    d_mirrored = false;
    check(grcuda_block_attach_ports(d_block, nullptr, 0, nullptr, 0),
          "gr-cuda: releasing a block's buffers");
}

void block_context::check_topology(gr::block& self) const
{
    if (d_running) {
        throw std::runtime_error(
            "gr-cuda: " + self.identifier() +
            " is still running: started by a flowgraph and not stopped since (stop() "
            "returns before the blocks stop; wait() after it). A block runs in one "
            "flowgraph at a time: stop() and wait() the flowgraph that runs it before "
            "start() again, or make another block for the other flowgraph");
    }
    // GNU Radio 3.10 rounds a block's max_noutput_items down to its output multiple and
    // lifts it to that multiple only for fixed-rate blocks: it would never call a general
    // block whose cap rounds to 0, and the flowgraph would wait for it forever.
    if (!self.fixed_rate() && self.is_set_max_noutput_items() &&
        self.max_noutput_items() < self.output_multiple()) {
        throw std::runtime_error(
            "gr-cuda: " + self.identifier() + "'s max_noutput_items (" +
            std::to_string(self.max_noutput_items()) +
            ") is below its output multiple (" + std::to_string(self.output_multiple()) +
            "), so GNU Radio would never call it and the flowgraph would wait forever. "
            "Fix: set_max_noutput_items(" +
            std::to_string(self.output_multiple()) + ") or more, or leave it unset");
    }
}

} // namespace cuda
} // namespace gr
