/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_ROTATOR_CC_IMPL_H
#define INCLUDED_CUDA_ROTATOR_CC_IMPL_H

#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/rotator_cc.h>
#include <pmt/pmt.h>
#include <queue>
#include <vector>

namespace gr {
namespace cuda {

class rotator_cc_impl : public cuda_sync_block<rotator_cc>
{
public:
    rotator_cc_impl(double phase_inc, bool tag_inc_updates, int device);

    void set_phase_inc(double phase_inc) override;

    int work(int noutput_items,
             gr_vector_const_void_star& input_items,
             gr_vector_void_star& output_items) override;

private:
    //! A phase_inc change from the "cmd" port, for the sample at an absolute offset.
    struct phase_inc_update {
        double phase_inc;
        uint64_t offset;
    };
    struct later_offset {
        bool operator()(const phase_inc_update& a, const phase_inc_update& b) const
        {
            return a.offset > b.offset;
        }
    };

    //! Queues the update of a valid message; warns of and ignores any other.
    void handle_cmd_msg(const pmt::pmt_t& msg);
    //! set_phase_inc() with d_mutex held.
    void apply_phase_inc(double phase_inc);
    //! Rotates \p count samples from \p start, and advances the phase past them.
    void rotate(const gr_complex* in, gr_complex* out, int start, int count);

    const bool d_tag_inc_updates;
    //! Guards the state below between work(), the setter and the message handler, as
    //! GNU Radio's block does (cuda_sync_block holds d_setlock around work() too).
    gr::thread::mutex d_mutex;
    //! The phase of the next sample, in [-pi, pi].
    double d_phase = 0.0;
    //! The angle of GNU Radio's float phasor exp(j phase_inc), per sample.
    double d_increment = 0.0;
    std::priority_queue<phase_inc_update, std::vector<phase_inc_update>, later_offset>
        d_updates;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_ROTATOR_CC_IMPL_H */
