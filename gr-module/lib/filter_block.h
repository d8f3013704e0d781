/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FILTER_BLOCK_H
#define INCLUDED_CUDA_FILTER_BLOCK_H

#include "arguments.h"
#include "device_fir_filter.h"
#include "sync_decimator_block.h"
#include <numeric>
#include <string>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief The body of the GPU FIR filter blocks (fir_filter, fft_filter): taps held by the
 * block, handed to libgrcuda's filter after set_taps() or set_decimation(). While the
 * flowgraph runs, at the start of the next work(), which then returns 0 so that GNU Radio
 * applies the new history (and output multiple), as GNU Radio's own filters do; while it
 * is stopped, when GNU Radio checks the topology before the next run makes its buffers,
 * so that they start with the history the new filter needs.
 *
 * fft_filter writes whole segments: its output multiple is the outputs of a segment, or
 * the least common multiple of that and a multiple the user set (set_output_multiple(),
 * which is not virtual: the block notices it with the other changes), so that every call
 * the scheduler makes can be answered in full and the stream ends on a multiple the user
 * asked for.
 *
 * \p Interface is the block's public interface (a gr::sync_decimator); the most derived
 * class initialises that virtual base. set_taps() runs on any thread under d_setlock,
 * which cuda_sync_block holds around work().
 */
template <class Interface, class IN_T, class TAP_T>
class filter_block : public cuda_sync_decimator<Interface>
{
public:
    void set_taps(const std::vector<TAP_T>& taps) override
    {
        arguments::require_taps(d_name, "taps", taps);
        gr::thread::scoped_lock guard(this->d_setlock);
        d_taps = taps;
        d_updated = true;
    }

    std::vector<TAP_T> taps() const override
    {
        return d_taps; // unlocked, as GNU Radio's filters read theirs
    }

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override
    {
        if (apply_changes()) {
            return 0; // the history (and output multiple) may have changed
        }
        const auto window = this->window_of(input_items[0], sizeof(IN_T));
        return d_filter.filter(window.start,
                               window.missing,
                               output_items[0],
                               noutput_items,
                               this->nitems_written(0));
    }

protected:
    //! \p method: GRCUDA_FIR_AUTOMATIC (fir_filter) or GRCUDA_FIR_FFT_WHOLE_SEGMENTS
    //! (fft_filter, which then asks GNU Radio for whole segments).
    filter_block(const char* base,
                 int decimation,
                 const std::vector<TAP_T>& taps,
                 uint32_t method,
                 int device)
        : cuda_sync_decimator<Interface>(decimation, device),
          d_name(arguments::filter_name<IN_T, TAP_T>(base)),
          d_method(method),
          d_taps(taps),
          d_filter(this->device(), this->stream(), decimation, method, taps, d_name)
    {
        this->reset_filter_history(d_filter.history());
        apply_output_multiple();
    }

private:
    //! Applies set_decimation(), set_taps() and set_output_multiple() made since the last
    //! call.
    bool apply_changes() override
    {
        bool changed = false;
        if (this->output_multiple() != d_output_multiple) {
            d_users_output_multiple = this->output_multiple();
            changed = true;
        }
        const size_t tap_count = d_filter_tap_count;
        if (const unsigned decimation = this->new_decimation()) {
            d_filter.set_decimation(decimation, d_taps);
            this->decimation_applied(decimation);
            changed = true;
        } else if (d_updated) {
            d_filter.set_taps(d_taps);
            changed = true;
        }
        if (changed) {
            d_updated = false;
            d_filter_tap_count = d_taps.size();
            // GNU Radio's fir_filter skips (or repeats) the change of its history, its
            // tap count; its fft_filter keeps its own tail and stays aligned.
            const long long skipped = d_method == GRCUDA_FIR_FFT_WHOLE_SEGMENTS
                                          ? 0
                                          : static_cast<long long>(d_filter_tap_count) -
                                                static_cast<long long>(tap_count);
            this->change_filter_history(d_filter.history(), skipped);
            apply_output_multiple();
        }
        return changed;
    }

    void apply_output_multiple()
    {
        long long multiple = d_users_output_multiple;
        if (d_method == GRCUDA_FIR_FFT_WHOLE_SEGMENTS) {
            const long long segment = d_filter.output_multiple();
            multiple = std::lcm(segment, multiple);
            if (multiple > largest_output_multiple) {
                this->d_logger->warn("output multiple {} not kept: with segments of {} "
                                     "outputs it would be {}; it is {}",
                                     d_users_output_multiple,
                                     segment,
                                     multiple,
                                     segment);
                d_users_output_multiple = 1;
                multiple = segment;
            }
        }
        d_output_multiple = static_cast<int>(multiple);
        if (this->output_multiple() != d_output_multiple) {
            this->set_output_multiple(d_output_multiple);
        }
    }

    //! The most outputs a call of whole segments may be asked to make at once.
    static constexpr long long largest_output_multiple = 1 << 22;

    const std::string d_name;
    const uint32_t d_method;
    std::vector<TAP_T> d_taps;
    bool d_updated = false;
    //! The taps the filter runs with.
    size_t d_filter_tap_count = d_taps.size();
    //! The output multiple the block set, and the one the user set (1 if none).
    int d_output_multiple = 1;
    int d_users_output_multiple = 1;
    device_fir_filter<IN_T, TAP_T> d_filter;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FILTER_BLOCK_H */
