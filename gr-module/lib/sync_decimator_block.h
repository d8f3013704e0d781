/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_SYNC_DECIMATOR_BLOCK_H
#define INCLUDED_CUDA_SYNC_DECIMATOR_BLOCK_H

#include <gnuradio/cuda/cuda_block.h>
#include <algorithm>

namespace gr {
namespace cuda {

/*!
 * \brief Base of GPU sync decimators whose decimation may change while they run, as GNU
 * Radio's FIR filters take gr::sync_decimator::set_decimation() between any two calls.
 *
 * set_decimation() is not virtual and may run on any thread, while the block's filter
 * runs at the decimation it was built for. So the scheduler's arithmetic here (forecast,
 * the fixed-rate conversions, and with them what cuda_sync_block consumes) uses the
 * applied decimation, and work() applies a new one at the start of a call
 * (new_decimation(), decimation_applied()), then returns 0 so that the scheduler asks
 * again. A decimation of 0, which set_decimation() leaves behind when GNU Radio refuses
 * it, is never applied. Changes made while the flowgraph is stopped apply in
 * check_topology(), which GNU Radio calls before the next run makes its buffers, so that
 * they start with the history the new filter needs. The block's apply_changes() applies
 * them (under d_setlock, which GNU Radio also holds around work()): on the block's
 * thread, or on the control thread while the flowgraph is stopped.
 */
template <class Interface>
class cuda_sync_decimator : public cuda_sync_block<Interface>
{
public:
    cuda_sync_decimator(unsigned decimation, int device)
        : cuda_sync_block<Interface>(device), d_applied_decimation(decimation)
    {
    }

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override
    {
        std::fill(ninput_items_required.begin(),
                  ninput_items_required.end(),
                  fixed_rate_noutput_to_ninput(noutput_items));
    }

    int fixed_rate_ninput_to_noutput(int ninput) override
    {
        return std::max(0, ninput - static_cast<int>(this->history()) + 1) /
               static_cast<int>(d_applied_decimation);
    }

    int fixed_rate_noutput_to_ninput(int noutput) override
    {
        return noutput * static_cast<int>(d_applied_decimation) +
               static_cast<int>(this->history()) - 1;
    }

    bool check_topology(int ninputs, int noutputs) override
    {
        gr::thread::scoped_lock guard(this->d_setlock);
        apply_changes();
        return cuda_sync_block<Interface>::check_topology(ninputs, noutputs);
    }

protected:
    //! Applies what the block's setters changed since the last call (a new decimation
    //! among them); whether anything changed, so that work() returns 0.
    virtual bool apply_changes() = 0;

    //! The decimation set_decimation() asked for since the filter was built, or 0 when
    //! there is none to apply.
    unsigned new_decimation() const
    {
        const unsigned asked = this->decimation();
        return asked != 0 && asked != d_applied_decimation ? asked : 0;
    }

    //! The filter now runs at \p decimation.
    void decimation_applied(unsigned decimation) { d_applied_decimation = decimation; }

    //! The decimation the filter runs at.
    unsigned applied_decimation() const { return d_applied_decimation; }

private:
    unsigned d_applied_decimation;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_SYNC_DECIMATOR_BLOCK_H */
