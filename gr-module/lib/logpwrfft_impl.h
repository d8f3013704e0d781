/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_LOGPWRFFT_IMPL_H
#define INCLUDED_CUDA_LOGPWRFFT_IMPL_H

#include "device_array.h"
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/logpwrfft.h>
#include <memory>
#include <string>

namespace gr {
namespace cuda {

template <class T>
class logpwrfft_impl : public cuda_block<logpwrfft<T>>
{
public:
    logpwrfft_impl(double sample_rate,
                   int fft_size,
                   double ref_scale,
                   double frame_rate,
                   double avg_alpha,
                   bool average,
                   const std::vector<float>& window,
                   bool shift,
                   int device);

    void set_sample_rate(double sample_rate) override;
    void set_vec_rate(double vec_rate) override;
    void set_decimation(double decimation) override;
    void set_average(bool average) override;
    void set_avg_alpha(double avg_alpha) override;

    double sample_rate() const override;
    int decimation() const override;
    double frame_rate() const override;
    bool average() const override;
    double avg_alpha() const override;

    bool check_topology(int ninputs, int noutputs) override;
    void forecast(int noutput_items, gr_vector_int& ninput_items_required) override;
    int general_work(int noutput_items,
                     gr_vector_int& ninput_items,
                     gr_vector_const_void_star& input_items,
                     gr_vector_void_star& output_items) override;

private:
    //! stream_to_vector_decimator's rule, from the sample and vector rates.
    void update_decimation();
    void apply_decimation(int decimation);
    //! Input items per frame: fft_size times the decimation.
    int64_t group_items() const;
    //! The whole chain in libgrcuda's spectrum kernels, for the sizes they handle.
    void compute_in_shared_memory(const T* first_kept,
                                  int64_t group,
                                  int64_t frames,
                                  float* out);
    //! Frames kernel, batched cuFFT and power kernel, for every other size.
    void
    compute_around_cufft(const T* first_kept, int64_t group, int64_t frames, float* out);
    //! \p frames frames whose kept vectors start at \p first_kept, \p group items apart.
    void compute(const T* first_kept, int64_t group, int64_t frames, float* out);
    //! Moves the tags of `consumed` input items as GNU Radio's chain moves them.
    void propagate_tags(int consumed);

    const std::string d_name; // "cuda.logpwrfft_c" or "cuda.logpwrfft_f", for errors
    const int d_fft_size;
    const bool d_shift;
    const float d_offset; // nlog10_ff's k in GNU Radio's chain
    // Under the block's d_setlock, which general_work() holds.
    double d_sample_rate;
    double d_vec_rate;
    int d_decimation;
    //! The input items of the group (frame) in progress, and how many of them the block
    //! has consumed: a group larger than the input buffer is read in parts (GNU Radio's
    //! keep_one_in_n drops vectors as they come), and a new decimation applies from the
    //! next group.
    int64_t d_group = 0;
    int64_t d_group_offset = 0;
    bool d_average;
    double d_avg_alpha;

    // Null where the spectrum kernels compute the spectra
    // (grcuda_logpwrfft_spectra_supported()).
    std::unique_ptr<grcuda_fft_plan, void (*)(grcuda_fft_plan*)> d_plan{
        nullptr, grcuda_fft_plan_free
    };
    device_array d_window;   // fft_size taps
    device_array d_state;    // the average's previous output per bin (floats)
    device_array d_twiddles; // the spectrum kernels' table
    device_array d_spectra;  // the spectrum kernels' scratch, or cuFFT's input and output
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_LOGPWRFFT_IMPL_H */
