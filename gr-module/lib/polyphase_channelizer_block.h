/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The body both GPU channelizers share (pfb_channelizer_ccf with one output per channel,
// pfb_channelizer_vector_ccf with one vector output). They read the one input stream that
// GNU Radio's hier block splits with stream_to_streams: with M channels, T taps per
// branch and D = M / oversample_rate, output step g filters the M branches at input item
// (g + 1) * D - 1 (branch f with taps f, f + M, ... of the prototype), rotates them as
// pfb_channelizer_ccf's index table does, and takes an unnormalised inverse FFT. A
// history of T * M - D + 1 items gives the zeros the hier block's per-stream histories
// hold. Calls are multiples of the same output multiple as GNU Radio's (the smallest k
// with k * D a multiple of M), so each call starts at rotation 2 * D mod M. A call is one
// kernel, the filter bank and the transform together, where libgrcuda has it for M
// (powers of two from 32 to 1024), otherwise the filter bank and a batched cuFFT (a
// power-of-two number of output multiples, so the plan keeps few handles); the blocks
// then place the channels in their outputs.
//
// The setters run on any thread under d_setlock, which the blocks' general_work() holds;
// the device copies of taps and channel map are replaced at the start of a work()
// call.

#ifndef INCLUDED_CUDA_POLYPHASE_CHANNELIZER_BLOCK_H
#define INCLUDED_CUDA_POLYPHASE_CHANNELIZER_BLOCK_H

#include "arguments.h"
#include "device_array.h"
#include "fft_batch.h"
#include "hier_tag_policy.h"
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace cuda {

namespace channelizer_arguments {

//! The largest number of channels: 2^16 output ports at most, as every block here.
constexpr uint64_t max_channels = arguments::max_ports;

//! Refuses what GNU Radio's channelizer refuses, naming \p block.
inline void check(const char* block,
                  unsigned numchans,
                  const std::vector<float>& taps,
                  float oversample_rate)
{
    arguments::require_between(block, "numchans", numchans, 1, max_channels);
    arguments::require_positive(block, "oversample_rate", oversample_rate);
    // GNU Radio's test: numchans / oversample_rate an integer within 1e-5.
    const double step_advance = numchans / oversample_rate;
    if (std::fabs(step_advance - std::round(step_advance)) > 0.00001 ||
        std::round(step_advance) < 1) {
        arguments::refuse(
            block,
            "oversample_rate must be numchans / i for an integer i in [1, " +
                std::to_string(numchans) + "] (numchans / oversample_rate = " +
                arguments::value_text(step_advance) + ")");
    }
    if (taps.empty()) {
        arguments::refuse(block,
                          std::string("taps must not be empty (Python's ") + block +
                              " designs them when none are given)");
    }
}

} // namespace channelizer_arguments

/*!
 * \brief The channelizers' filter bank, transform, taps, channel map, forecast and tags.
 *
 * \p Interface is the block's public interface (a gr::block with set_taps, taps,
 * set_channel_map and channel_map); the most derived class initialises that virtual base
 * with its io signatures and then calls start_with().
 */
template <class Interface>
class polyphase_channelizer_block : public cuda_block<Interface>
{
public:
    void set_taps(const std::vector<float>& taps) override
    {
        if (taps.empty()) {
            arguments::refuse(d_name, "taps must not be empty");
        }
        for (size_t tap = 0; tap < taps.size(); tap++) {
            arguments::require_finite(
                d_name, ("taps[" + std::to_string(tap) + "]").c_str(), taps[tap]);
        }
        gr::thread::scoped_lock guard(this->d_setlock);
        // polyphase_filterbank: ceil(ntaps / numchans) taps per branch, zeros after.
        const size_t per_branch = (taps.size() + d_channels - 1) / d_channels;
        d_prototype = taps;
        d_prototype.resize(per_branch * d_channels, 0.0f);
        // The history now, as GNU Radio's set_taps sets it: a flowgraph started after
        // this call gives the readers the new history's zeros; the taps reach the device
        // in work(), which then returns 0 once, as GNU Radio's does.
        this->set_history(per_branch * d_channels - d_step_advance + 1);
        d_taps_updated = true;
    }

    std::vector<std::vector<float>> taps() const override
    {
        const size_t per_branch = d_prototype.size() / d_channels;
        std::vector<std::vector<float>> branches(d_channels,
                                                 std::vector<float>(per_branch));
        for (size_t tap = 0; tap < d_prototype.size(); tap++) {
            branches[tap % d_channels][tap / d_channels] = d_prototype[tap];
        }
        return branches;
    }

    void set_channel_map(const std::vector<int>& map) override
    {
        if (map.empty()) {
            return;
        }
        if (d_one_entry_per_channel && map.size() != d_channels) {
            arguments::refuse(d_name,
                              "channel map must have one entry per vector entry, " +
                                  std::to_string(d_channels) + ", got " +
                                  std::to_string(map.size()));
        }
        for (size_t entry = 0; entry < map.size(); entry++) {
            if (map[entry] < 0 || static_cast<unsigned>(map[entry]) >= d_channels) {
                // GNU Radio's std::invalid_argument, with the entry named.
                arguments::refuse(d_name,
                                  "channel map entries must be between 0 and " +
                                      std::to_string(d_channels - 1) + ", got " +
                                      std::to_string(map[entry]) + " at entry " +
                                      std::to_string(entry));
            }
        }
        if (!d_one_entry_per_channel && this->detail()) {
            // Connected (running, or stopped with its ports kept): check_topology()
            // checks the map again before a run with other connections.
            require_map_covers(map.size(), this->detail()->noutputs());
        }
        gr::thread::scoped_lock guard(this->d_setlock);
        d_channel_map = map;
        d_map_updated = true;
    }

    std::vector<int> channel_map() const override { return d_channel_map; }

    bool check_topology(int ninputs, int noutputs) override
    {
        if (!d_one_entry_per_channel) {
            require_map_covers(d_channel_map.size(), noutputs);
        }
        keep_hier_tag_movement(*this, this->d_logger);
        return cuda_block<Interface>::check_topology(ninputs, noutputs);
    }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        // The hier block's pfb_channelizer_ccf keeps GNU Radio's default forecast:
        // noutput new items on each of its M input streams, so M per output here (not the
        // D an output consumes). Asking the same keeps the end of the stream the hier
        // block's: it stops with fewer than one output multiple of new items on each
        // stream.
        const int64_t required =
            int64_t{ noutput_items } * d_channels + this->history() - 1;
        std::fill(ninput_items_required.begin(),
                  ninput_items_required.end(),
                  static_cast<int>(
                      std::min<int64_t>(required, std::numeric_limits<int>::max())));
    }

protected:
    //! \p one_entry_per_channel: a channel map must name a channel for each of the
    //! numchans outputs (vector entries); otherwise it may be shorter, covering the
    //! connected outputs (checked by the setter once the block is connected, and by
    //! check_topology() before each run).
    polyphase_channelizer_block(const char* name,
                                unsigned numchans,
                                float oversample_rate,
                                bool one_entry_per_channel,
                                int device)
        : cuda_block<Interface>(device),
          d_name(name),
          d_channels(numchans),
          d_map(this->device(), this->stream(), std::string(name) + " channel map"),
          d_one_entry_per_channel(one_entry_per_channel),
          d_oversample_rate(oversample_rate),
          d_step_advance(static_cast<unsigned>(std::lround(numchans / oversample_rate))),
          d_taps(this->device(), this->stream(), std::string(name) + " taps"),
          d_twiddles(this->device(), this->stream(), std::string(name) + " twiddles"),
          d_spectra(this->device(), this->stream(), std::string(name) + " spectra")
    {
        if (grcuda_pfb_channelizer_spectra_supported(numchans)) {
            const std::string what = std::string(name) + " twiddles";
            size_t entries = 0;
            check(grcuda_pfb_channelizer_spectra_twiddles(numchans, nullptr, 0, &entries),
                  what.c_str());
            std::vector<gr_complex> twiddles(entries);
            check(grcuda_pfb_channelizer_spectra_twiddles(
                      numchans, twiddles.data(), twiddles.size(), &entries),
                  what.c_str());
            d_twiddles.assign(twiddles);
        } else {
            grcuda_fft_plan* plan = nullptr;
            check(
                grcuda_fft_plan_new(this->stream(), GRCUDA_FFT_INVERSE, numchans, &plan),
                (std::string(name) + " plan").c_str());
            d_plan.reset(plan);
        }
        d_channel_map.resize(numchans);
        for (unsigned channel = 0; channel < numchans; channel++) {
            d_channel_map[channel] = static_cast<int>(channel);
        }
        d_map_updated = true;
    }

    //! The rest of the construction, once the derived class has its io signatures.
    void start_with(const std::vector<float>& taps)
    {
        this->set_relative_rate(uint64_t{ 1 }, uint64_t{ d_step_advance });
        this->set_output_multiple(output_multiple_for(d_channels, d_step_advance));
        this->set_tag_propagation_policy(gr::block::TPP_CUSTOM);
        set_taps(taps);
        install_changes();
    }

    //! Uploads what the setters stored; returns whether the taps changed, in which case
    //! work() returns 0 (the history may have changed).
    bool install_changes()
    {
        if (d_map_updated) {
            d_map.assign(d_channel_map);
            d_identity_map = d_channel_map.size() == d_channels;
            for (size_t entry = 0; d_identity_map && entry < d_channels; entry++) {
                d_identity_map = d_channel_map[entry] == static_cast<int>(entry);
            }
            d_map_updated = false;
        }
        if (!d_taps_updated) {
            return false;
        }
        d_taps.assign(d_prototype);
        d_taps_per_branch = d_prototype.size() / d_channels;
        d_taps_updated = false;
        return true;
    }

    //! The output steps a call makes: as the forecast, at most one per M new input items
    //! (the items after the history), in whole output multiples (for cuFFT, a power of
    //! two of them).
    size_t steps_for(int noutput_items, int ninput_items) const
    {
        const size_t multiple = static_cast<size_t>(this->output_multiple());
        const int new_items =
            std::max(ninput_items - static_cast<int>(this->history()) + 1, 0);
        const size_t available = static_cast<size_t>(std::max(
            std::min(noutput_items, new_items / static_cast<int>(d_channels)), 0));
        return d_plan ? fft_batch(available, multiple) : available - available % multiple;
    }

    /*!
     * Filters \p steps steps of \p input and transforms them into \p destination (steps
     * vectors of M channels in FFT order; nullptr: the block's own spectra array), then
     * consumes the input and moves its tags to every output. Returns the spectra.
     */
    void* channelize(const void* input, size_t steps, void* destination)
    {
        void* spectra = destination;
        if (spectra == nullptr) {
            d_spectra.reserve(steps * d_channels * sizeof(gr_complex));
            spectra = d_spectra.data();
        }
        const uint64_t first_rotation = (2 * uint64_t{ d_step_advance }) % d_channels;
        if (d_plan) {
            // Filtered into the destination and transformed in place there.
            check(
                grcuda_pfb_channelizer_filter_ccf(this->stream(),
                                                  input,
                                                  d_taps.template data_as<const float>(),
                                                  spectra,
                                                  d_channels,
                                                  d_taps_per_branch,
                                                  d_step_advance,
                                                  steps,
                                                  first_rotation),
                d_name);
            check(grcuda_fft_plan_execute(d_plan.get(), steps, spectra, spectra), d_name);
        } else {
            check(
                grcuda_pfb_channelizer_spectra_ccf(this->stream(),
                                                   input,
                                                   d_taps.template data_as<const float>(),
                                                   d_twiddles.data(),
                                                   spectra,
                                                   d_channels,
                                                   d_taps_per_branch,
                                                   d_step_advance,
                                                   steps,
                                                   first_rotation),
                d_name);
        }
        const int consumed = static_cast<int>(steps * d_step_advance);
        propagate_tags(consumed);
        this->report_consumed(0, consumed);
        this->consume_each(consumed);
        return spectra;
    }

    //! Whether the installed channel map is 0, 1, ..., M - 1 (the transform's own order).
    bool identity_map() const { return d_identity_map; }

    const char* const d_name;
    const unsigned d_channels;
    std::vector<int> d_channel_map;
    device_array d_map;

private:
    //! GNU Radio's channelizer reads past the end of a map shorter than its connected
    //! outputs; here such a map is refused.
    void require_map_covers(size_t entries, int outputs) const
    {
        if (entries < static_cast<size_t>(outputs)) {
            arguments::refuse(d_name,
                              "the channel map has " + std::to_string(entries) +
                                  " entries for " + std::to_string(outputs) +
                                  " connected outputs: give one channel per output");
        }
    }

    static unsigned output_multiple_for(unsigned channels, unsigned step_advance)
    {
        unsigned multiple = 1;
        while ((uint64_t{ multiple } * step_advance) % channels != 0) {
            multiple++;
        }
        return multiple;
    }

    //! Moves the tags of the consumed input as the hier block's two blocks move them,
    //! under the block's own policy, TPP_CUSTOM; another policy set by the user is GNU
    //! Radio's to apply (TPP_DONT: none).
    void propagate_tags(int consumed)
    {
        if (this->tag_propagation_policy() != gr::block::TPP_CUSTOM) {
            return;
        }
        std::vector<gr::tag_t> tags;
        const uint64_t first = this->nitems_read(0);
        this->get_tags_in_range(tags, 0, first, first + consumed);
        for (gr::tag_t tag : tags) {
            // stream_to_streams (rate 1 / M, rounded), then pfb_channelizer_ccf (rate
            // oversample_rate, rounded), as GNU Radio's block executor moves them.
            const uint64_t per_stream = (2 * tag.offset + d_channels) / (2 * d_channels);
            tag.offset = static_cast<uint64_t>(
                static_cast<double>(per_stream) * static_cast<double>(d_oversample_rate) +
                0.5);
            for (int port = 0; port < this->detail()->noutputs(); port++) {
                this->add_item_tag(port, tag);
            }
        }
    }

    const bool d_one_entry_per_channel;
    const float d_oversample_rate;
    const unsigned d_step_advance;  // numchans / oversample_rate
    std::vector<float> d_prototype; // padded to a multiple of numchans
    bool d_taps_updated = false;
    bool d_map_updated = false;
    bool d_identity_map = true;
    size_t d_taps_per_branch = 0;
    // The plan where the one-kernel form does not take numchans, else the kernel's table.
    std::unique_ptr<grcuda_fft_plan, void (*)(grcuda_fft_plan*)> d_plan{
        nullptr, grcuda_fft_plan_free
    };
    device_array d_taps;
    device_array d_twiddles;
    device_array d_spectra;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_POLYPHASE_CHANNELIZER_BLOCK_H */
