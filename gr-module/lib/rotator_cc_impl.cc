/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "arguments.h"
#include "message_text.h"
#include "rotator_cc_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <cmath>
#include <optional>

namespace gr {
namespace cuda {

namespace {

// GNU Radio's rotator turns by exp(j (float)phase_inc): beyond a float's range that is
// NaN.
bool usable_phase_inc(double phase_inc)
{
    return std::isfinite(static_cast<float>(phase_inc));
}

void require_phase_inc(double phase_inc)
{
    if (!usable_phase_inc(phase_inc)) {
        arguments::refuse("cuda.rotator_cc",
                          "phase_inc must be finite, got " +
                              arguments::value_text(phase_inc) +
                              " (GNU Radio's rotator turns by exp(j (float)phase_inc), "
                              "NaN beyond a float's range)");
    }
}

} // namespace

rotator_cc::sptr rotator_cc::make(double phase_inc, bool tag_inc_updates, int device)
{
    require_phase_inc(phase_inc);
    return gnuradio::make_block_sptr<rotator_cc_impl>(phase_inc, tag_inc_updates, device);
}

rotator_cc_impl::rotator_cc_impl(double phase_inc, bool tag_inc_updates, int device)
    : gr::sync_block("rotator_cc",
                     gr::io_signature::make(1, 1, sizeof(gr_complex), cuda_buffer::type),
                     gr::io_signature::make(1, 1, sizeof(gr_complex), cuda_buffer::type)),
      cuda_sync_block<rotator_cc>(device),
      d_tag_inc_updates(tag_inc_updates)
{
    set_phase_inc(phase_inc);
    const pmt::pmt_t port = pmt::mp("cmd");
    message_port_register_in(port);
    set_msg_handler(port, [this](pmt::pmt_t msg) { this->handle_cmd_msg(msg); });
}

void rotator_cc_impl::set_phase_inc(double phase_inc)
{
    require_phase_inc(phase_inc);
    gr::thread::scoped_lock guard(d_mutex);
    apply_phase_inc(phase_inc);
}

void rotator_cc_impl::apply_phase_inc(double phase_inc)
{
    // GNU Radio's block rotates by the float phasor exp(j (float)phase_inc): its angle,
    // not phase_inc itself, is what the samples turn by, and what keeps the two in step
    // over millions of samples.
    const gr_complex phasor = std::exp(gr_complex(0, phase_inc));
    d_increment = std::atan2(static_cast<double>(phasor.imag()),
                             static_cast<double>(phasor.real()));
}

void rotator_cc_impl::handle_cmd_msg(const pmt::pmt_t& msg)
{
    // GNU Radio's keys and conversions: "inc" (pmt::to_double) and an optional "offset"
    // (pmt::to_uint64) for the sample where it applies. GNU Radio's block throws on any
    // other message, which ends the block's thread and leaves the flowgraph unable to
    // finish; like the freq port of cuda.freq_xlating_fir_filter, a bad message is
    // reported with a warning and ignored.
    static const pmt::pmt_t inc_key = pmt::intern("inc");
    static const pmt::pmt_t offset_key = pmt::intern("offset");
    static const char* const expected =
        "expected a PMT dict with \"inc\" (a finite number) and optionally \"offset\" "
        "(a non-negative integer sample offset)";
    // pmt::is_dict() takes any pair for a dict; looking a key up in one that is not a
    // list of pairs throws.
    bool is_dict = pmt::is_dict(msg);
    bool has_inc = false;
    bool has_offset = false;
    if (is_dict) {
        try {
            has_inc = pmt::dict_has_key(msg, inc_key);
            has_offset = pmt::dict_has_key(msg, offset_key);
        } catch (const pmt::wrong_type&) {
            is_dict = false;
        }
    }
    if (!is_dict) {
        d_logger->warn(
            "cmd message ignored: not a PMT dict ({}); {}", message_text(msg), expected);
        return;
    }
    if (!has_inc) {
        d_logger->warn(
            "cmd message ignored: no \"inc\" in {}; {}", message_text(msg), expected);
        return;
    }
    const pmt::pmt_t inc = pmt::dict_ref(msg, inc_key, pmt::PMT_NIL);
    double phase_inc = 0.0;
    try {
        phase_inc = pmt::to_double(inc);
    } catch (const pmt::wrong_type&) {
        d_logger->warn("cmd message ignored: \"inc\" is {}, not a number; {}",
                       message_text(inc),
                       expected);
        return;
    }
    if (!usable_phase_inc(phase_inc)) {
        d_logger->warn("cmd message ignored: \"inc\" must be finite, got {} (taken as a "
                       "float); {}",
                       arguments::value_text(phase_inc),
                       expected);
        return;
    }
    std::optional<uint64_t> offset;
    if (has_offset) {
        const pmt::pmt_t value = pmt::dict_ref(msg, offset_key, pmt::PMT_NIL);
        try {
            offset = pmt::to_uint64(value);
        } catch (const pmt::wrong_type&) {
            d_logger->warn(
                "cmd message ignored: \"offset\" is {}, not a non-negative integer; {}",
                message_text(value),
                expected);
            return;
        }
    }
    gr::thread::scoped_lock guard(d_mutex);
    d_updates.push(phase_inc_update{ phase_inc, offset.value_or(nitems_written(0)) });
}

void rotator_cc_impl::rotate(const gr_complex* in, gr_complex* out, int start, int count)
{
    check(grcuda_rotator_cc(
              this->stream(), in + start, out + start, count, d_phase, d_increment),
          "cuda.rotator_cc");
    d_phase = grcuda_rotator_phase_after(d_phase, d_increment, count);
}

int rotator_cc_impl::work(int noutput_items,
                          gr_vector_const_void_star& input_items,
                          gr_vector_void_star& output_items)
{
    static const pmt::pmt_t phase_inc_tag_key = pmt::intern("rot_phase_inc");
    gr::thread::scoped_lock guard(d_mutex);
    const auto in = static_cast<const gr_complex*>(input_items[0]);
    const auto out = static_cast<gr_complex*>(output_items[0]);
    const uint64_t written = nitems_written(0);

    // GNU Radio's rules: updates for offsets already passed are dropped, those within
    // this call split it, later ones wait.
    int processed = 0;
    while (!d_updates.empty()) {
        const phase_inc_update next = d_updates.top();
        if (next.offset < written + processed) {
            d_updates.pop();
            continue;
        }
        if (next.offset >= written + noutput_items) {
            break;
        }
        d_updates.pop();
        const int before = static_cast<int>(next.offset - written) - processed;
        rotate(in, out, processed, before);
        processed += before;
        apply_phase_inc(next.phase_inc);
        if (d_tag_inc_updates) {
            add_item_tag(
                0, next.offset, phase_inc_tag_key, pmt::from_float(next.phase_inc));
        }
    }
    rotate(in, out, processed, noutput_items - processed);
    return noutput_items;
}

} // namespace cuda
} // namespace gr
