/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The rational resampler as gr-filter's rational_resampler_impl runs it: a general block
// with relative rate interpolation / decimation (so GNU Radio moves tags as for its
// block) and the phase counter (d_ctr there, d_phase here) carried from call to call.
// GNU Radio's block keeps "history" in a member of its own that hides gr::block's, so its
// scheduler sees a history of 1: no zeros come before the stream (the first output is
// that of the first full window of taps), and only the forecast asks for the taps per
// phase - 1 items each window needs beyond its first. This block does the same, so that
// its output has GNU Radio's length and values. Each work() call is one kernel launch
// over all its outputs; the host does the counter's arithmetic in 64-bit integers.

#include "arguments.h"
#include "rational_resampler_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/fft/window.h>
#include <gnuradio/filter/firdes.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace gr {
namespace cuda {

namespace {

//! gr-filter 3.10's design_resampler_filter: a Kaiser (beta 7) low-pass with gain and
//! sample rate interpolation.
std::vector<float>
design_real_taps(unsigned interpolation, unsigned decimation, float fractional_bw)
{
    const float halfband = 0.5;
    const float rate = float(interpolation) / float(decimation);
    float trans_width, mid_transition_band;
    if (rate >= 1.0) {
        trans_width = halfband - fractional_bw;
        mid_transition_band = halfband - trans_width / 2.0;
    } else {
        trans_width = rate * (halfband - fractional_bw);
        mid_transition_band = rate * halfband - trans_width / 2.0;
    }
    return gr::filter::firdes::low_pass(interpolation,
                                        interpolation,
                                        mid_transition_band,
                                        trans_width,
                                        gr::fft::window::WIN_KAISER,
                                        7.0);
}

template <class TAP_T>
std::vector<TAP_T>
design_taps(unsigned interpolation, unsigned decimation, float fractional_bw)
{
    const std::vector<float> real =
        design_real_taps(interpolation, decimation, fractional_bw);
    return std::vector<TAP_T>(real.begin(), real.end());
}

template <class TAP_T>
void require_taps(const std::string& block, const std::vector<TAP_T>& taps)
{
    for (size_t tap = 0; tap < taps.size(); tap++) {
        arguments::require_finite(
            block, ("taps[" + std::to_string(tap) + "]").c_str(), taps[tap]);
    }
}

} // namespace

template <class SAMPLE_T, class TAP_T>
typename rational_resampler<SAMPLE_T, TAP_T>::sptr
rational_resampler<SAMPLE_T, TAP_T>::make(unsigned interpolation,
                                          unsigned decimation,
                                          const std::vector<TAP_T>& taps,
                                          float fractional_bw,
                                          int device)
{
    const std::string block =
        arguments::filter_name<SAMPLE_T, TAP_T>("cuda.rational_resampler");
    // GNU Radio throws std::out_of_range (IndexError in Python) for these two.
    if (interpolation == 0) {
        throw std::out_of_range(block + ": interpolation must be > 0, got 0");
    }
    if (decimation == 0) {
        throw std::out_of_range(block + ": decimation must be > 0, got 0");
    }
    require_taps(block, taps);
    std::vector<TAP_T> designed = taps;
    if (taps.empty()) {
        if (fractional_bw <= 0) {
            fractional_bw = 0.4;
        }
        if (!(fractional_bw < 0.5)) {
            // GNU Radio's std::range_error.
            throw std::range_error(block + ": fractional_bw must be in (0, 0.5), got " +
                                   arguments::value_text(fractional_bw));
        }
        const unsigned divisor = std::gcd(interpolation, decimation);
        interpolation /= divisor;
        decimation /= divisor;
        designed = design_taps<TAP_T>(interpolation, decimation, fractional_bw);
    }
    return gnuradio::make_block_sptr<rational_resampler_impl<SAMPLE_T, TAP_T>>(
        interpolation, decimation, designed, device);
}

template <class SAMPLE_T, class TAP_T>
rational_resampler_impl<SAMPLE_T, TAP_T>::rational_resampler_impl(
    unsigned interpolation,
    unsigned decimation,
    const std::vector<TAP_T>& taps,
    int device)
    : gr::block("rational_resampler",
                gr::io_signature::make(1, 1, sizeof(SAMPLE_T), cuda_buffer::type),
                gr::io_signature::make(1, 1, sizeof(SAMPLE_T), cuda_buffer::type)),
      cuda_block<rational_resampler<SAMPLE_T, TAP_T>>(device),
      d_interpolation(interpolation),
      d_decimation(decimation),
      d_taps(this->device(),
             this->stream(),
             arguments::filter_name<SAMPLE_T, TAP_T>("cuda.rational_resampler") + " taps")
{
    this->set_relative_rate(uint64_t{ interpolation }, uint64_t{ decimation });
    this->set_output_multiple(1);
    set_taps(taps);
    install_taps();
}

template <class SAMPLE_T, class TAP_T>
void rational_resampler_impl<SAMPLE_T, TAP_T>::set_taps(const std::vector<TAP_T>& taps)
{
    const std::string block =
        arguments::filter_name<SAMPLE_T, TAP_T>("cuda.rational_resampler");
    if (taps.empty()) {
        arguments::refuse(block, "taps must not be empty");
    }
    require_taps(block, taps);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_new_taps = taps;
    const size_t remainder = taps.size() % d_interpolation;
    if (remainder > 0) {
        d_new_taps.resize(taps.size() + d_interpolation - remainder, TAP_T(0));
    }
    d_updated = true;
}

template <class SAMPLE_T, class TAP_T>
std::vector<TAP_T> rational_resampler_impl<SAMPLE_T, TAP_T>::taps() const
{
    return d_new_taps;
}

template <class SAMPLE_T, class TAP_T>
void rational_resampler_impl<SAMPLE_T, TAP_T>::install_taps()
{
    d_taps.assign(d_new_taps);
    d_taps_per_phase = d_new_taps.size() / d_interpolation;
    d_updated = false;
}

template <class SAMPLE_T, class TAP_T>
int rational_resampler_impl<SAMPLE_T, TAP_T>::items_after_first_consumed() const
{
    // GNU Radio's forecast for one output, (int)((double)2 * decimation / interpolation)
    // + taps per phase - 1, but never less than a window of taps.
    return std::max((int)((double)2 * d_decimation / d_interpolation) +
                        (int)d_taps_per_phase - 1,
                    (int)d_taps_per_phase);
}

template <class SAMPLE_T, class TAP_T>
void rational_resampler_impl<SAMPLE_T, TAP_T>::forecast(
    int noutput_items, gr_vector_int& ninput_items_required)
{
    // GNU Radio's formula, with its own history (the taps per phase), so that the
    // scheduler offers the same input; at least what general_work needs for one output.
    // In double, and capped at INT_MAX: a large decimation overflowed an int.
    const double wanted =
        std::floor(double(noutput_items + 1) * d_decimation / d_interpolation) +
        d_taps_per_phase - 1;
    const int required = std::max(
        static_cast<int>(std::min<double>(wanted, std::numeric_limits<int>::max())),
        items_after_first_consumed());
    std::fill(ninput_items_required.begin(), ninput_items_required.end(), required);
}

template <class SAMPLE_T, class TAP_T>
int rational_resampler_impl<SAMPLE_T, TAP_T>::general_work(
    int noutput_items,
    gr_vector_int& ninput_items,
    gr_vector_const_void_star& input_items,
    gr_vector_void_star& output_items)
{
    return this->run_work(input_items, [&]() -> int {
        if (d_updated) {
            install_taps();
            return 0; // the forecast may have grown
        }
        // Output i is made once the input from the first item it has not consumed holds
        // what GNU Radio's forecast asks for one output (items_after_first_consumed()).
        // That depends on the output alone, not on how the stream is split into calls,
        // and gives GNU Radio's length when its block makes one output per call; in
        // larger calls GNU Radio's own length depends on the split, by the last output or
        // so, which then reads past the end of the stream. Output i has consumed (d_phase
        // + i * decimation) / interpolation items before it, so the outputs are those
        // with d_phase + i * decimation < (ninput_items[0] - items_after_first_consumed()
        // + 1) * interpolation.
        const int64_t spare =
            int64_t{ ninput_items[0] } - items_after_first_consumed() + 1;
        const uint64_t limit = spare > 0 ? uint64_t(spare) * d_interpolation : 0;
        const uint64_t reachable =
            limit > d_phase ? (limit - d_phase + d_decimation - 1) / d_decimation : 0;
        const uint64_t outputs =
            std::min<uint64_t>(static_cast<uint64_t>(noutput_items), reachable);
        if (outputs == 0) {
            return 0;
        }
        // libgrcuda's launcher for the sample and tap types; all take the same arguments.
        const auto launch =
            std::is_same_v<SAMPLE_T, float> ? grcuda_rational_resampler_fff
            : std::is_same_v<TAP_T, float>  ? grcuda_rational_resampler_ccf
                                            : grcuda_rational_resampler_ccc;
        const grcuda_status status = launch(this->stream(),
                                            input_items[0],
                                            d_taps.data(),
                                            output_items[0],
                                            outputs,
                                            d_interpolation,
                                            d_decimation,
                                            d_taps_per_phase,
                                            d_phase);
        if (status != GRCUDA_STATUS_OK) { // the name only for the message, not every call
            check(status,
                  arguments::filter_name<SAMPLE_T, TAP_T>("cuda.rational_resampler")
                      .c_str());
        }
        const uint64_t position = d_phase + outputs * d_decimation;
        const int consumed = static_cast<int>(position / d_interpolation);
        d_phase = position % d_interpolation;
        this->report_consumed(0, consumed);
        this->consume_each(consumed);
        return static_cast<int>(outputs);
    });
}

template class rational_resampler<gr_complex, gr_complex>;
template class rational_resampler<gr_complex, float>;
template class rational_resampler<float, float>;

} // namespace cuda
} // namespace gr
