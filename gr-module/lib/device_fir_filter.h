/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_DEVICE_FIR_FILTER_H
#define INCLUDED_CUDA_DEVICE_FIR_FILTER_H

#include "device_array.h"
#include <gnuradio/gr_complex.h>
#include <grcuda.h>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief libgrcuda's FIR filter (grcuda_fir_filter) for a block of input type IN_T and
 * tap type TAP_T (gr_complex/gr_complex, gr_complex/float or float/float): GNU Radio's
 * fir_filter arithmetic, the direct form or overlap-save (shared-memory FFTs, or cuFFT
 * for the longest filters), on the block's stream.
 *
 * Used by the block's thread (work(), and its constructor); the rules (method, history,
 * segment alignment) live in libgrcuda.
 */
template <class IN_T, class TAP_T>
class device_fir_filter
{
public:
    //! \p method is GRCUDA_FIR_AUTOMATIC, _DIRECT, _FFT or _FFT_WHOLE_SEGMENTS; \p owner
    //! names the block in errors.
    device_fir_filter(const grcuda_device* device,
                      const grcuda_stream* stream,
                      unsigned decimation,
                      uint32_t method,
                      const std::vector<TAP_T>& taps,
                      std::string owner);

    //! Replaces the taps; waits for the block's stream first.
    void set_taps(const std::vector<TAP_T>& taps);
    //! Replaces the filter by one for \p decimation with \p taps (the old one waits for
    //! the block's stream as it goes).
    void set_decimation(unsigned decimation, const std::vector<TAP_T>& taps);

    //! The history the block must set (set_history()).
    unsigned history() const;
    //! The output multiple for GRCUDA_FIR_FFT_WHOLE_SEGMENTS (1 for the direct form).
    int output_multiple() const;

    //! Enqueues up to \p noutputs outputs from stream position \p position (GNU Radio's
    //! nitems_written); returns how many it enqueued. \p input starts history() - 1 items
    //! before the first new one, less the \p missing oldest ones, which the filter takes
    //! as zeros (after a change of history while running, the buffer lacks them): then it
    //! makes only the outputs that read them, through a copy of the input behind zeros.
    //! Complex outputs are multiplied by e^(i (start_phase + j phase_increment)) when
    //! \p rotate.
    int filter(const void* input,
               unsigned missing,
               void* output,
               int noutputs,
               uint64_t position,
               bool rotate = false,
               double start_phase = 0,
               double phase_increment = 0);

private:
    //! A copy of \p input behind \p missing zeros, for \p noutputs outputs.
    const void* behind_zeros(const void* input, unsigned missing, int noutputs);

    const grcuda_stream* const d_stream;
    const uint32_t d_method;
    unsigned d_decimation = 1;
    device_array d_behind_zeros;
    std::unique_ptr<grcuda_fir_filter, void (*)(grcuda_fir_filter*)> d_filter{
        nullptr, grcuda_fir_filter_free
    };
    const std::string d_owner;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_DEVICE_FIR_FILTER_H */
