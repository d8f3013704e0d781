/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// GNU Radio's logpwrfft hierarchical block (stream_to_vector_decimator, fft_vcc /
// fft_vfc, complex_to_mag_squared, single_pole_iir_filter_ff, nlog10_ff) as one general
// block. For the FFT sizes grcuda_logpwrfft_spectra_supported() accepts (powers of two
// from 32 to 2^20) libgrcuda's spectrum kernels do it all with the FFTs in shared memory:
// they gather the kept vector of each group of fft_size * decimation input items, window
// it, transform it and write the decibels, fft-shifted as an index, averaged with the
// state the block keeps in device memory; one kernel up to 4096 bins, two through scratch
// memory above. That beats cuFFT with callbacks, whose loads and stores run at 40-70% of
// a bare transform. Other sizes take three steps: the frames kernel into the FFT's input,
// a batched cuFFT in place, the power kernel; each call then takes a power of two of
// groups, as cuda.fft does, so the cuFFT handles stay few.

#include "arguments.h"
#include "fft_batch.h"
#include "hier_tag_policy.h"
#include "logpwrfft_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <climits>
#include <cmath>

namespace gr {
namespace cuda {

namespace {

template <class T>
std::string block_name()
{
    return std::is_same_v<T, float> ? "cuda.logpwrfft_f" : "cuda.logpwrfft_c";
}

void require_alpha(const std::string& block, double avg_alpha)
{
    // single_pole_iir's range: 0 keeps the first frame's state, 1 does not average.
    if (!(avg_alpha >= 0 && avg_alpha <= 1)) {
        arguments::refuse(block,
                          "avg_alpha must be in [0, 1], got " +
                              arguments::value_text(avg_alpha));
    }
}

//! stream_to_vector_decimator.set_decimation: max(1, int(round(decimation))), Python's
//! round (ties to even), refused where the group would not fit GNU Radio's item counts.
int rounded_decimation(const std::string& block, int fft_size, double decimation)
{
    if (!std::isfinite(decimation)) {
        arguments::refuse(block,
                          "decimation (sample_rate / fft_size / frame_rate) must be "
                          "finite, got " +
                              arguments::value_text(decimation));
    }
    const double rounded = std::max(1.0, std::nearbyint(decimation));
    const double limit = std::floor(double{ INT_MAX } / fft_size);
    if (rounded > limit) {
        arguments::refuse(block,
                          "decimation (sample_rate / fft_size / frame_rate) must be at "
                          "most " +
                              arguments::value_text(limit) + " for fft_size " +
                              std::to_string(fft_size) + ", got " +
                              arguments::value_text(decimation));
    }
    return static_cast<int>(rounded);
}

template <class T>
grcuda_status frames_kernel(const grcuda_stream* stream,
                            const void* input,
                            size_t stride,
                            const float* window,
                            void* output,
                            size_t length,
                            size_t frames)
{
    if constexpr (std::is_same_v<T, float>) {
        return grcuda_logpwrfft_frames_fc(
            stream, input, stride, window, output, length, frames);
    } else {
        return grcuda_logpwrfft_frames_cc(
            stream, input, stride, window, output, length, frames);
    }
}

template <class T>
grcuda_status spectra_kernel(const grcuda_stream* stream,
                             const T* input,
                             size_t stride,
                             const float* window,
                             const void* twiddles,
                             void* scratch,
                             float* output,
                             float* state,
                             size_t length,
                             size_t frames,
                             bool shift,
                             double alpha,
                             float offset)
{
    const auto launch = std::is_same_v<T, float> ? grcuda_logpwrfft_spectra_fc
                                                 : grcuda_logpwrfft_spectra_cc;
    return launch(stream,
                  input,
                  stride,
                  window,
                  twiddles,
                  scratch,
                  output,
                  state,
                  length,
                  frames,
                  shift,
                  alpha,
                  offset);
}

//! nlog10_ff's k in GNU Radio's chain: bins, windowing loss and reference scale.
float decibel_offset(int fft_size, const std::vector<float>& window, double ref_scale)
{
    double window_power = 0;
    for (float tap : window) {
        window_power += double{ tap } * double{ tap };
    }
    return static_cast<float>(-20 * std::log10(double(fft_size)) -
                              10 * std::log10(window_power / fft_size) -
                              20 * std::log10(ref_scale / 2));
}

} // namespace

template <class T>
typename logpwrfft<T>::sptr logpwrfft<T>::make(double sample_rate,
                                               int fft_size,
                                               double ref_scale,
                                               double frame_rate,
                                               double avg_alpha,
                                               bool average,
                                               const std::vector<float>& window,
                                               bool shift,
                                               int device)
{
    const std::string block = block_name<T>();
    arguments::require_between(block,
                               "fft_size",
                               fft_size,
                               1,
                               std::min<uint64_t>(arguments::max_fft_size, INT_MAX));
    arguments::require_positive(block, "sample_rate", sample_rate);
    arguments::require_positive(block, "ref_scale", ref_scale);
    arguments::require_positive(block, "frame_rate", frame_rate);
    require_alpha(block, avg_alpha);
    if (!window.empty() && window.size() != size_t(fft_size)) {
        arguments::refuse(block,
                          "window must have fft_size (" + std::to_string(fft_size) +
                              ") taps, or none, got " + std::to_string(window.size()));
    }
    double window_power = 0;
    for (size_t tap = 0; tap < window.size(); tap++) {
        if (!std::isfinite(window[tap])) {
            arguments::refuse(block,
                              "window taps must be finite, got " +
                                  arguments::value_text(window[tap]) + " at tap " +
                                  std::to_string(tap));
        }
        window_power += double{ window[tap] } * double{ window[tap] };
    }
    if (!window.empty() && !(window_power > 0)) {
        arguments::refuse(block, "window must have a tap other than 0");
    }
    rounded_decimation(block, fft_size, sample_rate / fft_size / frame_rate);
    return gnuradio::make_block_sptr<logpwrfft_impl<T>>(sample_rate,
                                                        fft_size,
                                                        ref_scale,
                                                        frame_rate,
                                                        avg_alpha,
                                                        average,
                                                        window,
                                                        shift,
                                                        device);
}

template <class T>
logpwrfft_impl<T>::logpwrfft_impl(double sample_rate,
                                  int fft_size,
                                  double ref_scale,
                                  double frame_rate,
                                  double avg_alpha,
                                  bool average,
                                  const std::vector<float>& window,
                                  bool shift,
                                  int device)
    : gr::block(std::is_same_v<T, float> ? "logpwrfft_f" : "logpwrfft_c",
                gr::io_signature::make(1, 1, sizeof(T), cuda_buffer::type),
                gr::io_signature::make(
                    1, 1, sizeof(float) * size_t(fft_size), cuda_buffer::type)),
      cuda_block<logpwrfft<T>>(device),
      d_name(block_name<T>()),
      d_fft_size(fft_size),
      d_shift(shift),
      d_offset(
          decibel_offset(fft_size,
                         window.empty() ? std::vector<float>(fft_size, 1.0f) : window,
                         ref_scale)),
      d_sample_rate(sample_rate),
      d_vec_rate(frame_rate),
      d_decimation(1),
      d_average(average),
      d_avg_alpha(avg_alpha),
      d_window(this->device(), this->stream(), d_name + " window"),
      d_state(this->device(), this->stream(), d_name + " average"),
      d_twiddles(this->device(), this->stream(), d_name + " twiddles"),
      d_spectra(this->device(), this->stream(), d_name + " spectra")
{
    // Tags move as GNU Radio's chain moves them (propagate_tags()).
    this->set_tag_propagation_policy(gr::block::TPP_CUSTOM);
    if (grcuda_logpwrfft_spectra_supported(size_t(fft_size))) {
        size_t entries = 0;
        check(grcuda_logpwrfft_spectra_twiddles(size_t(fft_size), nullptr, 0, &entries),
              (d_name + " twiddles").c_str());
        std::vector<gr_complex> twiddles(entries);
        check(grcuda_logpwrfft_spectra_twiddles(
                  size_t(fft_size), twiddles.data(), twiddles.size(), &entries),
              (d_name + " twiddles").c_str());
        d_twiddles.assign(twiddles);
    } else {
        grcuda_fft_plan* plan = nullptr;
        check(grcuda_fft_plan_new(this->stream(), GRCUDA_FFT_FORWARD, fft_size, &plan),
              (d_name + " plan").c_str());
        d_plan.reset(plan);
    }
    d_window.assign(window.empty() ? std::vector<float>(fft_size, 1.0f) : window);
    // GNU Radio's filter starts from 0; growing an array fills it with zeros.
    d_state.reserve(sizeof(float) * size_t(fft_size));
    update_decimation();
}

template <class T>
void logpwrfft_impl<T>::update_decimation()
{
    apply_decimation(
        rounded_decimation(d_name, d_fft_size, d_sample_rate / d_fft_size / d_vec_rate));
}

template <class T>
void logpwrfft_impl<T>::apply_decimation(int decimation)
{
    d_decimation = decimation;
    // One output per vector, as GNU Radio's stream_to_vector declares, not per group: GNU
    // Radio sizes the buffer before a block to hold twice its inverse rate, so a group
    // (65536 vectors of 1024 at 30 frames/s from 2 Gsamples/s) would take gigabytes
    // there, where the block reads groups larger than the buffer in parts.
    this->set_relative_rate(1, static_cast<uint64_t>(d_fft_size));
    if (d_group_offset == 0) {
        d_group = group_items();
    }
}

template <class T>
void logpwrfft_impl<T>::set_sample_rate(double sample_rate)
{
    arguments::require_positive(d_name, "sample_rate", sample_rate);
    rounded_decimation(d_name, d_fft_size, sample_rate / d_fft_size / d_vec_rate);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_sample_rate = sample_rate;
    update_decimation();
}

template <class T>
void logpwrfft_impl<T>::set_vec_rate(double vec_rate)
{
    arguments::require_positive(d_name, "vec_rate", vec_rate);
    rounded_decimation(d_name, d_fft_size, d_sample_rate / d_fft_size / vec_rate);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_vec_rate = vec_rate;
    update_decimation();
}

template <class T>
void logpwrfft_impl<T>::set_decimation(double decimation)
{
    const int rounded = rounded_decimation(d_name, d_fft_size, decimation);
    gr::thread::scoped_lock guard(this->d_setlock);
    apply_decimation(rounded);
}

template <class T>
void logpwrfft_impl<T>::set_average(bool average)
{
    gr::thread::scoped_lock guard(this->d_setlock);
    d_average = average;
}

template <class T>
void logpwrfft_impl<T>::set_avg_alpha(double avg_alpha)
{
    require_alpha(d_name, avg_alpha);
    gr::thread::scoped_lock guard(this->d_setlock);
    d_avg_alpha = avg_alpha;
}

template <class T>
double logpwrfft_impl<T>::sample_rate() const
{
    return d_sample_rate;
}

template <class T>
int logpwrfft_impl<T>::decimation() const
{
    return d_decimation;
}

template <class T>
double logpwrfft_impl<T>::frame_rate() const
{
    return d_sample_rate / d_fft_size / d_decimation;
}

template <class T>
bool logpwrfft_impl<T>::average() const
{
    return d_average;
}

template <class T>
double logpwrfft_impl<T>::avg_alpha() const
{
    return d_avg_alpha;
}

template <class T>
int64_t logpwrfft_impl<T>::group_items() const
{
    return int64_t{ d_fft_size } * d_decimation;
}

template <class T>
void logpwrfft_impl<T>::forecast(int noutput_items, gr_vector_int& ninput_items_required)
{
    const int64_t buffer_holds = this->detail()->input(0)->max_possible_items_available();
    if (d_group_offset == 0 && d_group <= buffer_holds) {
        // Whole groups, many frames per call.
        const int64_t wanted = int64_t{ noutput_items } * d_group;
        ninput_items_required[0] = static_cast<int>(std::min<int64_t>(wanted, INT_MAX));
    } else {
        // A group in parts: any item of those before the kept vector, or the vector.
        ninput_items_required[0] = d_group_offset < d_group - d_fft_size ? 1 : d_fft_size;
    }
}

template <class T>
bool logpwrfft_impl<T>::check_topology(int ninputs, int noutputs)
{
    keep_hier_tag_movement(*this, this->d_logger);
    return cuda_block<logpwrfft<T>>::check_topology(ninputs, noutputs);
}

template <class T>
void logpwrfft_impl<T>::propagate_tags(int consumed)
{
    // Under the block's own policy, TPP_CUSTOM; another policy set by the user is GNU
    // Radio's to apply (TPP_DONT: none).
    if (this->tag_propagation_policy() != gr::block::TPP_CUSTOM) {
        return;
    }
    // stream_to_vector rounds offset / fft_size to the nearest vector (GNU Radio's exact
    // rational rate, halves up); keep_one_in_n then multiplies by its float 1 / n.
    const float keep_rate = 1.0 / (float)d_decimation;
    const uint64_t start = this->nitems_read(0);
    std::vector<tag_t> tags;
    this->get_tags_in_range(tags, 0, start, start + consumed);
    for (const auto& tag : tags) {
        tag_t moved = tag;
        moved.offset = (2 * tag.offset + d_fft_size) / (2 * uint64_t(d_fft_size));
        moved.offset *= keep_rate;
        this->add_item_tag(0, moved);
    }
}

template <class T>
void logpwrfft_impl<T>::compute_in_shared_memory(const T* first_kept,
                                                 int64_t group,
                                                 int64_t frames,
                                                 float* out)
{
    size_t scratch = 0;
    check(grcuda_logpwrfft_spectra_scratch(size_t(d_fft_size), size_t(frames), &scratch),
          d_name.c_str());
    if (scratch > 0) {
        d_spectra.reserve(scratch * sizeof(gr_complex)); // grows only
    }
    check(spectra_kernel<T>(this->stream(),
                            first_kept,
                            size_t(group),
                            d_window.data_as<const float>(),
                            d_twiddles.data(),
                            scratch > 0 ? d_spectra.data() : nullptr,
                            out,
                            d_state.data_as<float>(),
                            size_t(d_fft_size),
                            size_t(frames),
                            d_shift,
                            d_average ? d_avg_alpha : 1.0,
                            d_offset),
          d_name.c_str());
}

template <class T>
void logpwrfft_impl<T>::compute_around_cufft(const T* first_kept,
                                             int64_t group,
                                             int64_t frames,
                                             float* out)
{
    d_spectra.reserve(size_t(frames) * d_fft_size * sizeof(gr_complex)); // grows only
    check(frames_kernel<T>(this->stream(),
                           first_kept,
                           size_t(group),
                           d_window.data_as<const float>(),
                           d_spectra.data(),
                           d_fft_size,
                           size_t(frames)),
          d_name.c_str());
    check(grcuda_fft_plan_execute(
              d_plan.get(), size_t(frames), d_spectra.data(), d_spectra.data()),
          d_name.c_str());
    check(grcuda_logpwrfft_power(this->stream(),
                                 d_spectra.data(),
                                 out,
                                 d_state.data_as<float>(),
                                 d_fft_size,
                                 size_t(frames),
                                 d_shift,
                                 d_average ? d_avg_alpha : 1.0,
                                 d_offset),
          d_name.c_str());
}

template <class T>
void logpwrfft_impl<T>::compute(const T* first_kept,
                                int64_t group,
                                int64_t frames,
                                float* out)
{
    if (d_plan) {
        compute_around_cufft(first_kept, group, frames, out);
    } else {
        compute_in_shared_memory(first_kept, group, frames, out);
    }
}

template <class T>
int logpwrfft_impl<T>::general_work(int noutput_items,
                                    gr_vector_int& ninput_items,
                                    gr_vector_const_void_star& input_items,
                                    gr_vector_void_star& output_items)
{
    return this->run_work(input_items, [&]() -> int {
        const T* in = static_cast<const T*>(input_items[0]);
        float* out = static_cast<float*>(output_items[0]);
        // The kept vector of each group is its last.
        const int64_t skipped = d_group - d_fft_size;
        int64_t frames = 0;
        int64_t consumed = 0;
        if (d_group_offset == 0 && ninput_items[0] >= d_group) {
            const size_t available =
                size_t(std::min<int64_t>(noutput_items, ninput_items[0] / d_group));
            const size_t multiple = size_t(this->output_multiple());
            frames = int64_t(d_plan ? fft_batch(available, multiple)
                                    : available - available % multiple);
            compute(in + skipped, d_group, frames, out);
            consumed = frames * d_group;
        } else if (d_group_offset < skipped) {
            consumed = std::min<int64_t>(skipped - d_group_offset, ninput_items[0]);
            d_group_offset += consumed;
        } else if (ninput_items[0] >= d_fft_size) {
            frames = 1;
            compute(in, d_group, frames, out);
            consumed = d_fft_size;
            d_group_offset = 0;
            d_group = group_items(); // a new decimation applies from the next group
        }
        if (consumed > 0) {
            propagate_tags(static_cast<int>(consumed));
            this->report_consumed(0, static_cast<int>(consumed));
            this->consume_each(static_cast<int>(consumed));
        }
        return static_cast<int>(frames);
    });
}

template class logpwrfft<gr_complex>;
template class logpwrfft<float>;
template class logpwrfft_impl<gr_complex>;
template class logpwrfft_impl<float>;

} // namespace cuda
} // namespace gr
