/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FILTER_BLOCK_H
#define INCLUDED_CUDA_FILTER_BLOCK_H

#include "arguments.h"
#include "device_fir_filter.h"
#include <gnuradio/cuda/cuda_block.h>
#include <string>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief The body of the GPU FIR filter blocks (fir_filter, fft_filter): taps held by the
 * block, handed to libgrcuda's filter at the start of the next work() after set_taps(),
 * which then returns 0 so that GNU Radio applies the new history (and output multiple),
 * as GNU Radio's own filters do.
 *
 * \p Interface is the block's public interface (a gr::sync_decimator); the most derived
 * class initialises that virtual base. set_taps() runs on any thread under d_setlock,
 * which GNU Radio also holds around work().
 */
template <class Interface, class IN_T, class TAP_T>
class filter_block : public cuda_sync_block<Interface>
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
        if (d_updated) {
            d_filter.set_taps(d_taps);
            d_updated = false;
            apply_shape();
            return 0; // the history (and output multiple) may have changed
        }
        return d_filter.filter(
            input_items[0], output_items[0], noutput_items, this->nitems_written(0));
    }

protected:
    //! \p method: GRCUDA_FIR_AUTOMATIC (fir_filter) or GRCUDA_FIR_FFT_WHOLE_SEGMENTS
    //! (fft_filter, which then asks GNU Radio for whole segments).
    filter_block(const char* base,
                 int decimation,
                 const std::vector<TAP_T>& taps,
                 uint32_t method,
                 int device)
        : cuda_sync_block<Interface>(device),
          d_name(arguments::filter_name<IN_T, TAP_T>(base)),
          d_method(method),
          d_taps(taps),
          d_filter(this->stream(), decimation, method, taps, d_name)
    {
        apply_shape();
    }

private:
    void apply_shape()
    {
        this->set_history(d_filter.history());
        if (d_method == GRCUDA_FIR_FFT_WHOLE_SEGMENTS) {
            this->set_output_multiple(d_filter.output_multiple());
        }
    }

    const std::string d_name;
    const uint32_t d_method;
    std::vector<TAP_T> d_taps;
    bool d_updated = false;
    device_fir_filter<IN_T, TAP_T> d_filter;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FILTER_BLOCK_H */
