/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_FREQ_XLATING_FIR_FILTER_IMPL_H
#define INCLUDED_CUDA_FREQ_XLATING_FIR_FILTER_IMPL_H

#include "device_fir_filter.h"
#include "sync_decimator_block.h"
#include <gnuradio/cuda/freq_xlating_fir_filter.h>
#include <pmt/pmt.h>

namespace gr {
namespace cuda {

template <class IN_T, class OUT_T, class TAP_T>
class freq_xlating_fir_filter_impl
    : public cuda_sync_decimator<freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>>
{
public:
    freq_xlating_fir_filter_impl(int decimation,
                                 const std::vector<TAP_T>& taps,
                                 double center_freq,
                                 double sampling_freq,
                                 int device);

    void set_center_freq(double center_freq) override;
    double center_freq() const override;
    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<TAP_T> taps() const override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    //! Applies set_decimation(), set_taps() and set_center_freq() made since the last
    //! call.
    bool apply_changes() override;
    //! GNU Radio's band-pass taps for the center frequency, the rotation's increment and
    //! its phase correction for the change of frequency.
    std::vector<gr_complex> composite_taps();
    void handle_set_center_freq(const pmt::pmt_t& message);

    const std::string d_name;
    std::vector<TAP_T> d_proto_taps;
    //! The taps the filter runs with.
    size_t d_filter_tap_count = d_proto_taps.size();
    double d_center_freq;
    double d_prev_center_freq = 0;
    const double d_sampling_freq;
    bool d_updated = false;
    //! Whether the next work() tags its first output with the frequency (GNU Radio's
    //! "freq" tag where a retune applies).
    bool d_freq_tag_pending = false;
    //! The rotation of the next output, and its change per output (radians), in double
    //! precision.
    double d_phase = 0;
    double d_phase_increment = 0;
    device_fir_filter<gr_complex, gr_complex> d_filter;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_FREQ_XLATING_FIR_FILTER_IMPL_H */
