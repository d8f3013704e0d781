/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The GPU block base classes' call as GNU Radio's scheduler drives it: the body of every
// call (cuda_sync_block's work(), the body a cuda_block's general_work() hands
// run_work()) runs under the block's d_setlock, which the scheduler does not take, and an
// exception out of it ends the flowgraph, where GNU Radio would end only the block's
// thread and leave the source waiting forever.

#include <gnuradio/blocks/vector_source.h>
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/sync_block.h>
#include <gnuradio/top_block.h>
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <chrono>
#include <future>
#include <stdexcept>
#include <vector>

namespace {

// Interfaces as gr_modtool makes them: the GNU Radio base is virtual, and the block
// below initialises it.
class general_interface : virtual public gr::block
{
};
class sync_interface : virtual public gr::sync_block
{
};

//! What a test sink saw: its calls, and whether each ran under d_setlock.
struct call_record {
    int calls = 0;
    int calls_under_lock = 0;

    //! Counts one call of a block's body, given the block's d_setlock; throws once
    //! \p good_calls have passed.
    void count(gr::thread::mutex& setlock, int good_calls)
    {
        calls++;
        // d_setlock is not recursive: only another owner, here the body's caller, makes
        // try_lock() fail on this thread.
        if (setlock.try_lock()) {
            setlock.unlock();
        } else {
            calls_under_lock++;
        }
        if (calls > good_calls) {
            throw std::runtime_error("the failure the test asks for");
        }
    }
};

gr::io_signature::sptr float_ports(int count)
{
    return gr::io_signature::make(
        count, count, sizeof(float), gr::cuda::cuda_buffer::type);
}

//! A GPU sink written on cuda_block: consumes what comes, and throws at the call after
//! \p good_calls.
class failing_general_sink : public gr::cuda::cuda_block<general_interface>
{
public:
    explicit failing_general_sink(int good_calls)
        : gr::block("failing_general_sink", float_ports(1), float_ports(0)),
          d_good_calls(good_calls)
    {
    }

    int general_work(int /* noutput_items */,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& /* output_items */) override
    {
        return run_work(input_items, [&]() -> int {
            record.count(d_setlock, d_good_calls);
            report_consumed(0, ninput_items[0]);
            consume(0, ninput_items[0]);
            return 0;
        });
    }

    call_record record;

private:
    const int d_good_calls;
};

//! The same sink written on cuda_sync_block.
class failing_sync_sink : public gr::cuda::cuda_sync_block<sync_interface>
{
public:
    explicit failing_sync_sink(int good_calls)
        : gr::sync_block("failing_sync_sink", float_ports(1), float_ports(0)),
          d_good_calls(good_calls)
    {
    }

    int work(int noutput_items,
             gr_vector_const_void_star& /* input_items */,
             gr_vector_void_star& /* output_items */) override
    {
        record.count(d_setlock, d_good_calls);
        return noutput_items;
    }

    call_record record;

private:
    const int d_good_calls;
};

//! Runs an endless CPU source into \p sink; the flowgraph must end by itself once the
//! sink fails. Returns what the sink saw.
template <class Sink>
call_record run_until_the_sink_fails(int good_calls)
{
    const auto sink = gnuradio::make_block_sptr<Sink>(good_calls);
    const auto top = gr::make_top_block("qa_cuda_block");
    const auto source =
        gr::blocks::vector_source_f::make(std::vector<float>(4096, 1.0f), true);
    source->set_max_noutput_items(1024);
    top->connect(source, 0, sink, 0);
    top->start();
    auto ended = std::async(std::launch::async, [&] { top->wait(); });
    if (ended.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
        top->stop();
        ended.wait();
        BOOST_FAIL("the flowgraph went on after its GPU sink failed");
    }
    return sink->record;
}

} // namespace

BOOST_AUTO_TEST_CASE(an_exception_in_general_work_ends_the_flowgraph)
{
    const call_record record = run_until_the_sink_fails<failing_general_sink>(3);
    BOOST_CHECK_EQUAL(record.calls, 4);
    BOOST_CHECK_EQUAL(record.calls_under_lock, record.calls);
}

BOOST_AUTO_TEST_CASE(an_exception_in_work_ends_the_flowgraph)
{
    const call_record record = run_until_the_sink_fails<failing_sync_sink>(3);
    BOOST_CHECK_EQUAL(record.calls, 4);
    BOOST_CHECK_EQUAL(record.calls_under_lock, record.calls);
}

BOOST_AUTO_TEST_CASE(a_failure_at_the_first_call_ends_the_flowgraph)
{
    BOOST_CHECK_EQUAL(run_until_the_sink_fails<failing_general_sink>(0).calls, 1);
    BOOST_CHECK_EQUAL(run_until_the_sink_fails<failing_sync_sink>(0).calls, 1);
}
