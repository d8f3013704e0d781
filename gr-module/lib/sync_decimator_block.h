/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_SYNC_DECIMATOR_BLOCK_H
#define INCLUDED_CUDA_SYNC_DECIMATOR_BLOCK_H

#include <gnuradio/cuda/cuda_block.h>
#include <algorithm>
#include <limits>

namespace gr {
namespace cuda {

/*!
 * \brief Base of GPU sync decimators whose decimation may change while they run, as GNU
 * Radio's FIR filters take gr::sync_decimator::set_decimation() between any two calls.
 *
 * set_decimation() is not virtual and may run on any thread, while the block's filter
 * runs at the decimation it was built for. So the scheduler's arithmetic here (forecast,
 * the fixed-rate conversions, and with them what cuda_sync_block consumes) uses the
 * applied decimation, and work() applies a new one at the start of a call
 * (new_decimation(), decimation_applied()), then returns 0 so that the scheduler asks
 * again. A decimation of 0, which set_decimation() leaves behind when GNU Radio refuses
 * it, is never applied. Changes made while the flowgraph is stopped apply in
 * check_topology(), which GNU Radio calls before the next run makes its buffers, so that
 * they start with the history the new filter needs. The block's apply_changes() applies
 * them (under d_setlock, which cuda_sync_block holds around work()): on the block's
 * thread, or on the control thread while the flowgraph is stopped.
 *
 * A new filter may need another history (the items before a call's first new item that
 * it reads, plus one). GNU Radio's set_history() while running leaves the read index
 * where it is, so its own blocks skip (or repeat) the difference: fir_filter skips the
 * change of its tap count, while fft_filter, which keeps its own tail, stays aligned. The
 * GPU filters' histories differ from GNU Radio's (overlap-save also reads the segment a
 * call starts in), so this class keeps the stream where GNU Radio's block would put it
 * (change_filter_history()): it never lowers the history while running, and where GNU
 * Radio counts items as read that the filter has not passed yet (the lag), the block
 * consumes less until it has. window_of() tells work() where the filter's input starts in
 * a call's buffer, and how many of its oldest history items the buffer lacks after a
 * change (the filter reads zeros for them). While a lag lasts (the calls after such a
 * change), GNU Radio moves the tags of the lagging items a call late, after their
 * outputs.
 */
template <class Interface>
class cuda_sync_decimator : public cuda_sync_block<Interface>
{
public:
    cuda_sync_decimator(unsigned decimation, int device)
        : cuda_sync_block<Interface>(device), d_applied_decimation(decimation)
    {
    }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        std::fill(ninput_items_required.begin(),
                  ninput_items_required.end(),
                  fixed_rate_noutput_to_ninput(noutput_items));
    }

    int fixed_rate_ninput_to_noutput(int ninput) override
    {
        return std::max(0, ninput - static_cast<int>(this->history()) + 1) /
               static_cast<int>(d_applied_decimation);
    }

    int fixed_rate_noutput_to_ninput(int noutput) override
    {
        // In 64 bits: a large decimation set while running overflowed an int. GNU Radio
        // ends the block on a request beyond its buffer, as for its own filters.
        const int64_t required =
            int64_t{ noutput } * d_applied_decimation + this->history() - 1;
        return static_cast<int>(
            std::min<int64_t>(required, std::numeric_limits<int>::max()));
    }

    bool check_topology(int ninputs, int noutputs) override
    {
        gr::thread::scoped_lock guard(this->d_setlock);
        apply_changes();
        // The next run's buffers start with the history the filter needs.
        reset_filter_history(d_filter_history);
        return cuda_sync_block<Interface>::check_topology(ninputs, noutputs);
    }

protected:
    //! Where the filter's input starts in a call's input buffer.
    struct filter_window {
        //! The first item the filter reads: its history - 1 items before the call's
        //! first new item, or fewer where the buffer lacks some (then the buffer's
        //! first).
        const void* start;
        //! The oldest history items the buffer lacks, for which the filter reads zeros.
        unsigned missing;
    };

    //! The filter needs history \p needed on buffers that start now (the constructor, and
    //! check_topology() before a run).
    void reset_filter_history(unsigned needed)
    {
        d_filter_history = needed;
        d_lag = 0;
        this->set_history(needed);
    }

    //! The filter now needs history \p needed, while the flowgraph runs: GNU Radio's own
    //! block would skip \p skipped input items here (repeat them where negative). Call
    //! from apply_changes(), after which work() returns 0.
    void change_filter_history(unsigned needed, long long skipped)
    {
        d_filter_history = needed;
        const long long first_new = std::max(0LL, next_item_index() + skipped);
        const long long kept = std::max<long long>(
            { static_cast<long long>(this->history()), needed, first_new + 1 });
        this->set_history(static_cast<unsigned>(kept));
        d_lag = kept - 1 - first_new;
    }

    //! See filter_window: \p input is the call's input_items[0], of \p item_size bytes.
    filter_window window_of(const void* input, size_t item_size) const
    {
        const long long start = next_item_index() - (d_filter_history - 1);
        if (start < 0) {
            return { input, static_cast<unsigned>(-start) };
        }
        return { static_cast<const char*>(input) + start * item_size, 0 };
    }

    int items_consumed(int produced) override
    {
        const long long read = static_cast<long long>(produced) *
                               static_cast<long long>(d_applied_decimation);
        const long long kept = std::min(read, d_lag);
        d_lag -= kept;
        return static_cast<int>(read - kept);
    }

    //! Applies what the block's setters changed since the last call (a new decimation
    //! among them); whether anything changed, so that work() returns 0.
    virtual bool apply_changes() = 0;

    //! The decimation set_decimation() asked for since the filter was built, or 0 when
    //! there is none to apply.
    unsigned new_decimation() const
    {
        const unsigned asked = this->decimation();
        return asked != 0 && asked != d_applied_decimation ? asked : 0;
    }

    //! The filter now runs at \p decimation.
    void decimation_applied(unsigned decimation) { d_applied_decimation = decimation; }

    //! The decimation the filter runs at.
    unsigned applied_decimation() const { return d_applied_decimation; }

private:
    //! Where, in a call's input buffer, the filter's first new item lies: GNU Radio puts
    //! it at history() - 1, and the lag before that.
    long long next_item_index() const
    {
        return static_cast<long long>(this->history()) - 1 - d_lag;
    }

    unsigned d_applied_decimation;
    //! The history the filter needs.
    unsigned d_filter_history = 1;
    //! Input items GNU Radio counts as read that the filter has not passed yet.
    long long d_lag = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_SYNC_DECIMATOR_BLOCK_H */
