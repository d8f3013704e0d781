/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_LOGPWRFFT_H
#define INCLUDED_CUDA_LOGPWRFFT_H

#include <gnuradio/block.h>
#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/gr_complex.h>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief GNU Radio's log power spectrum chain (fft.logpwrfft_c / logpwrfft_f) in one GPU
 * block.
 * \ingroup cuda
 *
 * Input: a stream of T (gr_complex or float). Output: vectors of fft_size floats, the
 * power of each bin in dB. As GNU Radio's hierarchical block: of every decimation vectors
 * of fft_size samples the last is kept (stream_to_vector_decimator, decimation = max(1,
 * round(sample_rate / fft_size / frame_rate)), ties to even), multiplied by the window
 * and transformed (cuFFT), its power |X|^2 averaged over frames by a single-pole IIR (y =
 * alpha * x + (1 - alpha) * y_prev per bin, alpha = avg_alpha with average on, 1 without)
 * and turned into 10 * log10(y) - 20 * log10(fft_size) - 10 * log10(window power /
 * fft_size) - 20 * log10(ref_scale / 2). With shift, DC is in the middle of the output.
 *
 * An empty window means no window (all taps 1); the Python constructor passes GNU Radio's
 * default, window.blackmanharris. Setters take effect at the next work() call, where a
 * new decimation starts a new group of vectors; the average's state is kept across calls
 * and restarts, as GNU Radio's filter keeps it.
 */
template <class T>
class CUDA_API logpwrfft : virtual public gr::block
{
public:
    typedef std::shared_ptr<logpwrfft<T>> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(double sample_rate,
                     int fft_size,
                     double ref_scale,
                     double frame_rate,
                     double avg_alpha,
                     bool average,
                     const std::vector<float>& window = {},
                     bool shift = false,
                     int device = default_device);

    virtual void set_sample_rate(double sample_rate) = 0;
    virtual void set_vec_rate(double vec_rate) = 0;
    //! max(1, round(decimation)) vectors per frame, as stream_to_vector_decimator.
    virtual void set_decimation(double decimation) = 0;
    virtual void set_average(bool average) = 0;
    virtual void set_avg_alpha(double avg_alpha) = 0;

    virtual double sample_rate() const = 0;
    virtual int decimation() const = 0;
    //! The frame rate the decimation gives: sample_rate / fft_size / decimation.
    virtual double frame_rate() const = 0;
    virtual bool average() const = 0;
    virtual double avg_alpha() const = 0;
};

typedef logpwrfft<gr_complex> logpwrfft_c;
typedef logpwrfft<float> logpwrfft_f;

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_LOGPWRFFT_H */
