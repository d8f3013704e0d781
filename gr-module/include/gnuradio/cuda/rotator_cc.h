/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_ROTATOR_CC_H
#define INCLUDED_CUDA_ROTATOR_CC_H

#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <gnuradio/sync_block.h>

namespace gr {
namespace cuda {

/*!
 * \brief output = input * exp(j phase), the phase growing by phase_inc per sample, on the
 * GPU (as blocks.rotator_cc).
 * \ingroup cuda
 *
 * The phase is kept in double precision and each sample's angle computed from it, so the
 * output does not depend on how the stream is split. The "cmd" message port takes GNU
 * Radio's dictionary: "inc" (the new phase_inc) and optionally "offset" (the absolute
 * sample where it applies; now without it); with tag_inc_updates the sample gets a
 * "rot_phase_inc" tag.
 */
class CUDA_API rotator_cc : virtual public gr::sync_block
{
public:
    typedef std::shared_ptr<rotator_cc> sptr;
    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(double phase_inc = 0.0,
                     bool tag_inc_updates = false,
                     int device = default_device);

    virtual void set_phase_inc(double phase_inc) = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_ROTATOR_CC_H */
