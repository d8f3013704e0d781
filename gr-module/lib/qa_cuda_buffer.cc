/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// cuda_buffer's index arithmetic, driven the way the scheduler drives it: free space and
// available items are circular and one item always stays free, spans run across the end
// of the ring, and the pointers GNU Radio hands out alias across the wrap. Then whole
// flowgraphs in C++ that wrap the rings many times.

#include <gnuradio/blocks/vector_sink.h>
#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/cuda/copy.h>
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/multiply_const.h>
#include <gnuradio/top_block.h>
#include <boost/test/unit_test.hpp>
#include <numeric>
#include <vector>

namespace {

//! A device-to-device buffer with its writer block and reader blocks, which the buffer
//! and its readers only reference weakly, as the scheduler sets them up.
struct ring {
    explicit ring(int nitems)
        : writer(gr::cuda::copy::make(sizeof(float))),
          buffer(gr::cuda::cuda_buffer::make_buffer(
              nitems, sizeof(float), 1, 1, writer, writer))
    {
        buffer->set_transfer_type(gr::transfer_type::DEVICE_TO_DEVICE);
    }

    //! A reader for a block with no history and no delay.
    gr::buffer_reader_sptr add_reader()
    {
        reader_blocks.push_back(gr::cuda::copy::make(sizeof(float)));
        return gr::buffer_add_reader(buffer, 0, reader_blocks.back());
    }

    gr::block_sptr writer;
    std::vector<gr::block_sptr> reader_blocks;
    gr::buffer_sptr buffer;
};

} // namespace

BOOST_AUTO_TEST_CASE(ring_is_at_least_what_was_asked_and_keeps_one_item_free)
{
    ring ring(1000);
    const gr::buffer_sptr& buffer = ring.buffer;
    const int size = buffer->bufsize();
    BOOST_CHECK_GE(size, 1000);
    BOOST_CHECK_EQUAL(buffer->space_available(), size - 1);
    const gr::buffer_reader_sptr reader = ring.add_reader();
    BOOST_CHECK_EQUAL(buffer->space_available(), size - 1);
    BOOST_CHECK_EQUAL(reader->items_available(), 0);
}

BOOST_AUTO_TEST_CASE(space_and_items_are_circular_across_the_wrap)
{
    ring ring(1000);
    const gr::buffer_sptr& buffer = ring.buffer;
    const int size = buffer->bufsize();
    const gr::buffer_reader_sptr reader = ring.add_reader();
    // Walk both indices close to the end of the ring.
    const int near_end = size - 10;
    buffer->update_write_pointer(near_end);
    reader->update_read_pointer(near_end);
    BOOST_CHECK_EQUAL(reader->items_available(), 0);
    BOOST_CHECK_EQUAL(buffer->space_available(), size - 1);
    // A write across the end: all of it is available to the reader in one span.
    const int span = 100;
    buffer->update_write_pointer(span);
    BOOST_CHECK_EQUAL(reader->items_available(), span);
    BOOST_CHECK_EQUAL(buffer->space_available(), size - 1 - span);
    // The reader's pointer runs contiguously into the second mapping.
    const char* start = static_cast<const char*>(reader->read_pointer());
    BOOST_CHECK(start + span * sizeof(float) >
                static_cast<const char*>(buffer->base()) + size * sizeof(float));
    reader->update_read_pointer(span);
    BOOST_CHECK_EQUAL(reader->items_available(), 0);
    BOOST_CHECK_EQUAL(buffer->space_available(), size - 1);
}

BOOST_AUTO_TEST_CASE(the_slowest_reader_bounds_the_space)
{
    ring ring(1000);
    const gr::buffer_sptr& buffer = ring.buffer;
    const int size = buffer->bufsize();
    const gr::buffer_reader_sptr fast = ring.add_reader();
    const gr::buffer_reader_sptr slow = ring.add_reader();
    buffer->update_write_pointer(size - 1);
    BOOST_CHECK_EQUAL(buffer->space_available(), 0);
    fast->update_read_pointer(size - 1);
    BOOST_CHECK_EQUAL(buffer->space_available(), 0);
    slow->update_read_pointer(300);
    BOOST_CHECK_EQUAL(buffer->space_available(), 300);
    BOOST_CHECK_EQUAL(slow->items_available(), size - 1 - 300);
}

BOOST_AUTO_TEST_CASE(post_work_of_nothing_is_harmless)
{
    ring ring(10);
    const gr::buffer_sptr& buffer = ring.buffer;
    buffer->post_work(0);
    buffer->post_work(-1);
    BOOST_CHECK(buffer->write_pointer() != nullptr);
}

BOOST_AUTO_TEST_CASE(cpp_flowgraph_wraps_the_rings_many_times)
{
    std::vector<float> data(5'000'011);
    std::iota(data.begin(), data.end(), 0.0f);
    const auto top = gr::make_top_block("qa_cuda_buffer");
    const auto source = gr::blocks::vector_source_f::make(data);
    const auto sink = gr::blocks::vector_sink_f::make();
    const auto first = gr::cuda::copy::make(sizeof(float));
    const auto scale = gr::cuda::multiply_const_ff::make(1.0f);
    top->connect(source, 0, first, 0);
    top->connect(first, 0, scale, 0);
    top->connect(scale, 0, sink, 0);
    top->run();
    BOOST_REQUIRE_EQUAL(sink->data().size(), data.size());
    BOOST_CHECK(sink->data() == data);
}
