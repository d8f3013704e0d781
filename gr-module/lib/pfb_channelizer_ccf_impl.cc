/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The channelizer reads the one input stream that GNU Radio's hier block splits with
// stream_to_streams: with M channels, T taps per branch and D = M / oversample_rate,
// output step g filters the M branches at input item (g + 1) * D - 1 (branch f with taps
// f, f + M, ... of the prototype), rotates them as pfb_channelizer_ccf's index table
// does, and takes an unnormalised inverse FFT. A history of T * M - D + 1 items gives the
// zeros the hier block's per-stream histories hold. Calls are multiples of the same
// output multiple as GNU Radio's (the smallest k with k * D a multiple of M), so each
// call starts at rotation 2 * D mod M. One work() call is three launches: the filter
// bank, a batched cuFFT (a power-of-two number of output multiples, so the plan keeps few
// handles) and a tiled scatter into the output ports.

#include "arguments.h"
#include "pfb_channelizer_ccf_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace gr {
namespace cuda {

namespace {

const char* const block_name = "cuda.pfb_channelizer_ccf";

//! The largest number of channels: 2^16 output ports at most, as every block here.
constexpr uint64_t max_channels = arguments::max_ports;

unsigned output_multiple_for(unsigned channels, unsigned step_advance)
{
    unsigned multiple = 1;
    while ((uint64_t{ multiple } * step_advance) % channels != 0) {
        multiple++;
    }
    return multiple;
}

} // namespace

pfb_channelizer_ccf::sptr pfb_channelizer_ccf::make(unsigned numchans,
                                                    const std::vector<float>& taps,
                                                    float oversample_rate)
{
    arguments::require_between(block_name, "numchans", numchans, 1, max_channels);
    arguments::require_positive(block_name, "oversample_rate", oversample_rate);
    // GNU Radio's test: numchans / oversample_rate an integer within 1e-5.
    const double step_advance = numchans / oversample_rate;
    if (std::fabs(step_advance - std::round(step_advance)) > 0.00001 ||
        std::round(step_advance) < 1) {
        arguments::refuse(
            block_name,
            "oversample_rate must be numchans / i for an integer i in [1, " +
                std::to_string(numchans) + "] (numchans / oversample_rate = " +
                arguments::value_text(step_advance) + ")");
    }
    if (taps.empty()) {
        arguments::refuse(block_name,
                          "taps must not be empty (Python's cuda.pfb_channelizer_ccf "
                          "designs them when none are given)");
    }
    return gnuradio::make_block_sptr<pfb_channelizer_ccf_impl>(
        numchans, taps, oversample_rate);
}

pfb_channelizer_ccf_impl::pfb_channelizer_ccf_impl(unsigned numchans,
                                                   const std::vector<float>& taps,
                                                   float oversample_rate)
    : gr::block(
          "pfb_channelizer_ccf",
          gr::io_signature::make(1, 1, sizeof(gr_complex), cuda_buffer::type),
          gr::io_signature::make(1, numchans, sizeof(gr_complex), cuda_buffer::type)),
      d_channels(numchans),
      d_oversample_rate(oversample_rate),
      d_step_advance(static_cast<unsigned>(std::lround(numchans / oversample_rate))),
      d_taps(stream(), std::string(block_name) + " taps"),
      d_map(stream(), std::string(block_name) + " channel map"),
      d_offsets(stream(), std::string(block_name) + " output offsets"),
      d_spectra(stream(), std::string(block_name) + " spectra")
{
    grcuda_fft_plan* plan = nullptr;
    check(grcuda_fft_plan_new(stream(), GRCUDA_FFT_INVERSE, numchans, &plan),
          "cuda.pfb_channelizer_ccf plan");
    d_plan.reset(plan);
    set_relative_rate(uint64_t{ 1 }, uint64_t{ d_step_advance });
    set_output_multiple(output_multiple_for(d_channels, d_step_advance));
    set_tag_propagation_policy(TPP_CUSTOM);
    d_channel_map.resize(numchans);
    for (unsigned channel = 0; channel < numchans; channel++) {
        d_channel_map[channel] = static_cast<int>(channel);
    }
    d_map_updated = true;
    set_taps(taps);
    install_changes(0);
}

void pfb_channelizer_ccf_impl::set_taps(const std::vector<float>& taps)
{
    if (taps.empty()) {
        arguments::refuse(block_name, "taps must not be empty");
    }
    for (size_t tap = 0; tap < taps.size(); tap++) {
        arguments::require_finite(
            block_name, ("taps[" + std::to_string(tap) + "]").c_str(), taps[tap]);
    }
    gr::thread::scoped_lock guard(d_setlock);
    // polyphase_filterbank: ceil(ntaps / numchans) taps per branch, zeros after.
    const size_t per_branch = (taps.size() + d_channels - 1) / d_channels;
    d_prototype = taps;
    d_prototype.resize(per_branch * d_channels, 0.0f);
    // The history now, as GNU Radio's set_taps sets it: a flowgraph started after this
    // call gives the readers the new history's zeros; the taps reach the device in
    // work(), which then returns 0 once, as GNU Radio's does.
    set_history(per_branch * d_channels - d_step_advance + 1);
    d_taps_updated = true;
}

std::vector<std::vector<float>> pfb_channelizer_ccf_impl::taps() const
{
    const size_t per_branch = d_prototype.size() / d_channels;
    std::vector<std::vector<float>> branches(d_channels, std::vector<float>(per_branch));
    for (size_t tap = 0; tap < d_prototype.size(); tap++) {
        branches[tap % d_channels][tap / d_channels] = d_prototype[tap];
    }
    return branches;
}

void pfb_channelizer_ccf_impl::set_channel_map(const std::vector<int>& map)
{
    if (map.empty()) {
        return;
    }
    for (size_t entry = 0; entry < map.size(); entry++) {
        if (map[entry] < 0 || static_cast<unsigned>(map[entry]) >= d_channels) {
            // GNU Radio's std::invalid_argument, with the entry named.
            arguments::refuse(block_name,
                              "channel map entries must be between 0 and " +
                                  std::to_string(d_channels - 1) + ", got " +
                                  std::to_string(map[entry]) + " at entry " +
                                  std::to_string(entry));
        }
    }
    gr::thread::scoped_lock guard(d_setlock);
    d_channel_map = map;
    d_map_updated = true;
}

std::vector<int> pfb_channelizer_ccf_impl::channel_map() const { return d_channel_map; }

bool pfb_channelizer_ccf_impl::install_changes(size_t outputs)
{
    if (d_map_updated) {
        d_map.assign(d_channel_map);
        d_map_updated = false;
    }
    if (d_channel_map.size() < outputs) {
        throw std::runtime_error(std::string(block_name) + ": the channel map has " +
                                 std::to_string(d_channel_map.size()) + " entries for " +
                                 std::to_string(outputs) +
                                 " connected outputs: give one channel per output");
    }
    if (!d_taps_updated) {
        return false;
    }
    d_taps.assign(d_prototype);
    d_taps_per_branch = d_prototype.size() / d_channels;
    d_taps_updated = false;
    return true;
}

void pfb_channelizer_ccf_impl::install_output_offsets(
    const gr_vector_void_star& output_items)
{
    const uint64_t first = reinterpret_cast<uint64_t>(output_items[0]);
    bool same = d_installed_offsets.size() == output_items.size();
    for (size_t port = 0; same && port < output_items.size(); port++) {
        same = d_installed_offsets[port] ==
               reinterpret_cast<uint64_t>(output_items[port]) - first;
    }
    if (same) {
        return;
    }
    d_installed_offsets.resize(output_items.size());
    for (size_t port = 0; port < output_items.size(); port++) {
        d_installed_offsets[port] =
            reinterpret_cast<uint64_t>(output_items[port]) - first;
    }
    d_offsets.assign(d_installed_offsets);
}

void pfb_channelizer_ccf_impl::forecast(int noutput_items,
                                        gr_vector_int& ninput_items_required)
{
    // The hier block's pfb_channelizer_ccf keeps GNU Radio's default forecast: noutput
    // new items on each of its M input streams, so M per output here (not the D an output
    // consumes). Asking the same keeps the end of the stream the hier block's: it stops
    // with fewer than one output multiple of new items on each stream.
    const int64_t required = int64_t{ noutput_items } * d_channels + history() - 1;
    std::fill(
        ninput_items_required.begin(),
        ninput_items_required.end(),
        static_cast<int>(std::min<int64_t>(required, std::numeric_limits<int>::max())));
}

void pfb_channelizer_ccf_impl::propagate_tags(int consumed)
{
    std::vector<gr::tag_t> tags;
    const uint64_t first = nitems_read(0);
    get_tags_in_range(tags, 0, first, first + consumed);
    for (gr::tag_t tag : tags) {
        // stream_to_streams (rate 1 / M, rounded), then pfb_channelizer_ccf (rate
        // oversample_rate, rounded), as GNU Radio's block executor moves them.
        const uint64_t per_stream = (2 * tag.offset + d_channels) / (2 * d_channels);
        tag.offset = static_cast<uint64_t>(static_cast<double>(per_stream) *
                                               static_cast<double>(d_oversample_rate) +
                                           0.5);
        for (int port = 0; port < detail()->noutputs(); port++) {
            add_item_tag(port, tag);
        }
    }
}

int pfb_channelizer_ccf_impl::general_work(int noutput_items,
                                           gr_vector_int& ninput_items,
                                           gr_vector_const_void_star& input_items,
                                           gr_vector_void_star& output_items)
{
    if (install_changes(output_items.size())) {
        return 0; // the history may have changed
    }
    // As the forecast: at most one output per M new input items (the items after the
    // history), in whole output multiples.
    const int multiple = output_multiple();
    const int new_items = std::max(ninput_items[0] - static_cast<int>(history()) + 1, 0);
    const int blocks =
        std::min(noutput_items, new_items / static_cast<int>(d_channels)) / multiple;
    if (blocks <= 0) {
        return 0;
    }
    int power = 1;
    while (power * 2 <= blocks) {
        power *= 2;
    }
    const size_t steps = static_cast<size_t>(power) * multiple;
    d_spectra.reserve(steps * d_channels * sizeof(gr_complex));
    install_output_offsets(output_items);

    const grcuda_stream* queue = stream();
    check(
        grcuda_pfb_channelizer_filter_ccf(queue,
                                          input_items[0],
                                          d_taps.data_as<const float>(),
                                          d_spectra.data(),
                                          d_channels,
                                          d_taps_per_branch,
                                          d_step_advance,
                                          steps,
                                          (2 * uint64_t{ d_step_advance }) % d_channels),
        block_name);
    check(
        grcuda_fft_plan_execute(d_plan.get(), steps, d_spectra.data(), d_spectra.data()),
        block_name);
    check(grcuda_pfb_channelizer_scatter_cc(queue,
                                            d_spectra.data(),
                                            d_map.data_as<const int>(),
                                            d_offsets.data_as<const uint64_t>(),
                                            output_items[0],
                                            output_items.size(),
                                            d_channels,
                                            steps),
          block_name);
    const int consumed = static_cast<int>(steps * d_step_advance);
    propagate_tags(consumed);
    report_consumed(0, consumed);
    consume_each(consumed);
    return static_cast<int>(steps);
}

} // namespace cuda
} // namespace gr
