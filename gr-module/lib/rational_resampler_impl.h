/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_RATIONAL_RESAMPLER_IMPL_H
#define INCLUDED_CUDA_RATIONAL_RESAMPLER_IMPL_H

#include "device_array.h"
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/rational_resampler.h>
#include <cstdint>

namespace gr {
namespace cuda {

template <class SAMPLE_T, class TAP_T>
class rational_resampler_impl : public cuda_block<rational_resampler<SAMPLE_T, TAP_T>>
{
public:
    rational_resampler_impl(unsigned interpolation,
                            unsigned decimation,
                            const std::vector<TAP_T>& taps,
                            int device);

    unsigned interpolation() const override { return d_interpolation; }
    unsigned decimation() const override { return d_decimation; }
    void set_taps(const std::vector<TAP_T>& taps) override;
    std::vector<TAP_T> taps() const override;

    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    //! Uploads the taps set_taps() stored; the forecast follows their length per phase.
    void install_taps();
    //! The input items an output needs from the first item it has not consumed on.
    int items_after_first_consumed() const;

    const unsigned d_interpolation;
    const unsigned d_decimation;
    std::vector<TAP_T> d_new_taps; // padded to a multiple of the interpolation
    bool d_updated = false;
    //! GNU Radio's d_ctr: the phase of the next output, below the interpolation.
    uint64_t d_phase = 0;
    size_t d_taps_per_phase = 0;
    device_array d_taps;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_RATIONAL_RESAMPLER_IMPL_H */
