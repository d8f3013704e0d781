/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The block follows GNU Radio's freq_xlating_fir_filter step for step, with the same
// float expressions for the band-pass taps, so that they are GNU Radio's bit for bit. The
// rotation differs: its increment and retune correction are computed in double precision
// from the center frequency, and the phase of output j from the start phase and the
// increment, where GNU Radio's rotator multiplies a float phase by a float increment
// every output and so drifts from the requested frequency by its rounding (up to about
// 1e-7 radians per output: 0.1 radians after 10^6 outputs).

#include "filter_block.h"
#include "freq_xlating_fir_filter_impl.h"
#include "message_text.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/io_signature.h>
#include <gnuradio/math.h>
#include <cmath>

namespace gr {
namespace cuda {

namespace {

//! The band-pass taps' phase steps (GNU Radio's float radians per sample, up to the last
//! tap) must be finite, or the taps would not be.
void require_finite_turns(const std::string& block,
                          double center_freq,
                          double sampling_freq,
                          size_t ntaps)
{
    const float omega = 2 * GR_M_PI * center_freq / sampling_freq;
    if (!std::isfinite(omega * static_cast<float>(ntaps))) {
        arguments::refuse(block,
                          "center_freq must be finite in turns per sample, got " +
                              arguments::value_text(center_freq) + " / " +
                              arguments::value_text(sampling_freq));
    }
}

//! \p angle reduced to [-pi, pi].
double wrapped(double angle) { return std::remainder(angle, 2 * GR_M_PI); }

} // namespace

template <class IN_T, class OUT_T, class TAP_T>
typename freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>::sptr
freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>::make(int decimation,
                                                  const std::vector<TAP_T>& taps,
                                                  double center_freq,
                                                  double sampling_freq,
                                                  int device)
{
    const std::string block =
        arguments::filter_name<IN_T, TAP_T>("cuda.freq_xlating_fir_filter");
    arguments::require_at_least_one(block, "decimation", decimation);
    arguments::require_taps(block, "taps", taps);
    arguments::require_finite(block, "center_freq", center_freq);
    arguments::require_positive(block, "sampling_freq", sampling_freq);
    require_finite_turns(block, center_freq, sampling_freq, taps.size());
    return gnuradio::make_block_sptr<freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>>(
        decimation, taps, center_freq, sampling_freq, device);
}

template <class IN_T, class OUT_T, class TAP_T>
freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::freq_xlating_fir_filter_impl(
    int decimation,
    const std::vector<TAP_T>& taps,
    double center_freq,
    double sampling_freq,
    int device)
    : gr::sync_decimator("freq_xlating_fir_filter",
                         gr::io_signature::make(1, 1, sizeof(IN_T), cuda_buffer::type),
                         gr::io_signature::make(1, 1, sizeof(OUT_T), cuda_buffer::type),
                         decimation),
      cuda_sync_decimator<freq_xlating_fir_filter<IN_T, OUT_T, TAP_T>>(decimation,
                                                                       device),
      d_name(arguments::filter_name<IN_T, TAP_T>("cuda.freq_xlating_fir_filter")),
      d_proto_taps(taps),
      d_center_freq(center_freq),
      d_sampling_freq(sampling_freq),
      d_filter(this->device(),
               this->stream(),
               decimation,
               GRCUDA_FIR_AUTOMATIC,
               composite_taps(),
               d_name)
{
    this->reset_filter_history(d_filter.history());
    this->message_port_register_in(pmt::mp("freq"));
    this->set_msg_handler(pmt::mp("freq"), [this](const pmt::pmt_t& message) {
        this->handle_set_center_freq(message);
    });
}

template <class IN_T, class OUT_T, class TAP_T>
std::vector<gr_complex> freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::composite_taps()
{
    // GNU Radio turns the rotator's phase back by the filter's group delay times the
    // change of frequency, so that a retune makes no phase jump (also at construction,
    // from 0 Hz).
    const double delta_omega =
        2 * GR_M_PI * (d_center_freq - d_prev_center_freq) / d_sampling_freq;
    d_phase = wrapped(d_phase - delta_omega * (d_proto_taps.size() - 1) / 2.0);

    const float fwT0 = 2 * GR_M_PI * d_center_freq / d_sampling_freq;
    std::vector<gr_complex> taps(d_proto_taps.size());
    for (unsigned int i = 0; i < d_proto_taps.size(); i++) {
        taps[i] = d_proto_taps[i] * std::exp(gr_complex(0, i * fwT0));
    }
    d_phase_increment = wrapped(-2 * GR_M_PI * d_center_freq / d_sampling_freq *
                                this->applied_decimation());
    d_prev_center_freq = d_center_freq;
    return taps;
}

template <class IN_T, class OUT_T, class TAP_T>
void freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::set_center_freq(double center_freq)
{
    arguments::require_finite(d_name, "center_freq", center_freq);
    require_finite_turns(d_name, center_freq, d_sampling_freq, d_proto_taps.size());
    gr::thread::scoped_lock guard(this->d_setlock);
    d_center_freq = center_freq;
    d_updated = true;
}

template <class IN_T, class OUT_T, class TAP_T>
double freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::center_freq() const
{
    return d_center_freq;
}

template <class IN_T, class OUT_T, class TAP_T>
void freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::set_taps(
    const std::vector<TAP_T>& taps)
{
    arguments::require_taps(d_name, "taps", taps);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_proto_taps = taps;
    d_updated = true;
}

template <class IN_T, class OUT_T, class TAP_T>
std::vector<TAP_T> freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::taps() const
{
    return d_proto_taps; // unlocked, as GNU Radio reads its own
}

template <class IN_T, class OUT_T, class TAP_T>
void freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::handle_set_center_freq(
    const pmt::pmt_t& message)
{
    // As GNU Radio: a dict with "freq", or a pair whose cdr is the frequency; anything
    // else is ignored (GNU Radio says nothing; a warning here says why).
    pmt::pmt_t value = pmt::PMT_NIL;
    if (pmt::is_dict(message) && pmt::dict_has_key(message, pmt::intern("freq"))) {
        value = pmt::dict_ref(message, pmt::intern("freq"), pmt::PMT_NIL);
    } else if (pmt::is_pair(message)) {
        value = pmt::cdr(message);
    }
    if (!pmt::is_real(value)) {
        this->d_logger->warn(
            "freq message ignored: expected a PMT dict with \"freq\" or a "
            "pair whose cdr is the frequency in Hz, got {}",
            message_text(message));
        return;
    }
    try {
        set_center_freq(pmt::to_double(value));
    } catch (const std::invalid_argument& refused) {
        this->d_logger->warn("freq message ignored: {}", refused.what());
    }
}

template <class IN_T, class OUT_T, class TAP_T>
bool freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::apply_changes()
{
    const unsigned decimation = this->new_decimation();
    if (decimation == 0 && !d_updated) {
        return false;
    }
    // composite_taps() also turns the rotation's increment by the decimation.
    const size_t tap_count = d_filter_tap_count;
    if (decimation != 0) {
        this->decimation_applied(decimation);
        d_filter.set_decimation(decimation, composite_taps());
    } else {
        d_filter.set_taps(composite_taps());
    }
    d_filter_tap_count = d_proto_taps.size();
    d_freq_tag_pending = d_freq_tag_pending || d_updated;
    d_updated = false;
    // GNU Radio's block skips (or repeats) the change of its history, its tap count.
    this->change_filter_history(d_filter.history(),
                                static_cast<long long>(d_filter_tap_count) -
                                    static_cast<long long>(tap_count));
    return true;
}

template <class IN_T, class OUT_T, class TAP_T>
int freq_xlating_fir_filter_impl<IN_T, OUT_T, TAP_T>::work(
    int noutput_items,
    gr_vector_const_void_star& input_items,
    gr_vector_void_star& output_items)
{
    if (apply_changes()) {
        return 0; // the history may have changed
    }
    if (d_freq_tag_pending) {
        // Tell downstream blocks where the new frequency applies, as GNU Radio does.
        this->add_item_tag(0,
                           this->nitems_written(0),
                           pmt::intern("freq"),
                           pmt::from_double(d_center_freq),
                           this->alias_pmt());
        d_freq_tag_pending = false;
    }
    const auto window = this->window_of(input_items[0], sizeof(IN_T));
    const int produced = d_filter.filter(window.start,
                                         window.missing,
                                         output_items[0],
                                         noutput_items,
                                         this->nitems_written(0),
                                         true,
                                         d_phase,
                                         d_phase_increment);
    d_phase = wrapped(d_phase + produced * d_phase_increment);
    return produced;
}

template class freq_xlating_fir_filter<gr_complex, gr_complex, gr_complex>;
template class freq_xlating_fir_filter<gr_complex, gr_complex, float>;

} // namespace cuda
} // namespace gr
