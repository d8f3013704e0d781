/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The FFT block chains libgrcuda kernels on its stream: real-to-complex (interleaving
// zeros), window, shift (ifftshift before an inverse, fftshift after a forward transform,
// as fft_vcc) and cuFFT, through two scratch arrays. The block owns its FFT plan, made in
// the constructor on its stream. Each work() call transforms a power-of-two batch, so the
// cuFFT handles the plan keeps per batch stay few whatever noutput_items is.

#include "arguments.h"
#include "fft_batch.h"
#include "fft_impl.h"
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <algorithm>
#include <cmath>

namespace gr {
namespace cuda {

fft::sptr fft::make(size_t fft_size,
                    bool forward,
                    const std::vector<float>& window,
                    bool shift,
                    bool real_input,
                    int device)
{
    const char* block = "cuda.fft";
    arguments::require_between(block, "fft_size", fft_size, 1, arguments::max_fft_size);
    if (!window.empty() && window.size() != fft_size) {
        arguments::refuse(block,
                          "window must have fft_size (" + std::to_string(fft_size) +
                              ") taps, or none, got " + std::to_string(window.size()));
    }
    for (size_t tap = 0; tap < window.size(); tap++) {
        if (!std::isfinite(window[tap])) {
            arguments::refuse(block,
                              "window taps must be finite, got " +
                                  arguments::value_text(window[tap]) + " at tap " +
                                  std::to_string(tap));
        }
    }
    return gnuradio::make_block_sptr<fft_impl>(
        fft_size, forward, window, shift, real_input, device);
}

fft_impl::fft_impl(size_t fft_size,
                   bool forward,
                   const std::vector<float>& window,
                   bool shift,
                   bool real_input,
                   int device)
    : gr::sync_block(
          "fft",
          gr::io_signature::make(1,
                                 1,
                                 fft_size *
                                     (real_input ? sizeof(float) : sizeof(gr_complex)),
                                 cuda_buffer::type),
          gr::io_signature::make(1, 1, fft_size * sizeof(gr_complex), cuda_buffer::type)),
      cuda_sync_block<fft>(device),
      d_size(fft_size),
      d_forward(forward),
      d_shift(shift),
      d_real_input(real_input),
      d_window(this->device(), stream(), "cuda.fft window"),
      d_scratch{ device_array(this->device(), stream(), "cuda.fft scratch"),
                 device_array(this->device(), stream(), "cuda.fft scratch") },
      d_zeros(this->device(), stream(), "cuda.fft real input")
{
    grcuda_fft_plan* plan = nullptr;
    check(
        grcuda_fft_plan_new(
            stream(), forward ? GRCUDA_FFT_FORWARD : GRCUDA_FFT_INVERSE, fft_size, &plan),
        "cuda.fft plan");
    d_plan.reset(plan);
    d_window.assign(window);
}

void fft_impl::reserve(size_t vectors)
{
    if (vectors <= d_capacity) {
        return;
    }
    for (device_array& scratch : d_scratch) {
        scratch.reserve(vectors * d_size * sizeof(gr_complex));
    }
    if (d_real_input) {
        d_zeros.reserve(vectors * d_size * sizeof(float));
    }
    d_capacity = vectors;
}

void fft_impl::transform(const void* input, void* output, size_t vectors)
{
    const grcuda_stream* queue = stream();
    const size_t items = vectors * d_size;
    // Each step reads `source` and writes the scratch array that does not hold it.
    const void* source = input;
    size_t next = 0;
    auto scratch = [&] { return d_scratch[next++ % 2].data(); };

    if (d_real_input) {
        void* complex_items = scratch();
        const void* parts[2] = { source, d_zeros.data() };
        check(grcuda_interleave(queue, parts, 2, complex_items, items, sizeof(float)),
              "cuda.fft real input");
        source = complex_items;
    }
    if (!d_window.empty()) {
        void* windowed = scratch();
        check(grcuda_window_cc(queue,
                               source,
                               d_window.data_as<const float>(),
                               windowed,
                               d_size,
                               vectors),
              "cuda.fft window");
        source = windowed;
    }
    if (d_shift && !d_forward) {
        void* shifted = scratch();
        check(grcuda_ifft_shift_cc(queue, source, shifted, d_size, vectors),
              "cuda.fft shift");
        source = shifted;
    }
    if (d_shift && d_forward) {
        void* spectrum = scratch();
        check(grcuda_fft_plan_execute(d_plan.get(), vectors, source, spectrum),
              "cuda.fft");
        check(grcuda_fft_shift_cc(queue, spectrum, output, d_size, vectors),
              "cuda.fft shift");
    } else {
        check(grcuda_fft_plan_execute(d_plan.get(), vectors, source, output), "cuda.fft");
    }
}

int fft_impl::work(int noutput_items,
                   gr_vector_const_void_star& input_items,
                   gr_vector_void_star& output_items)
{
    // One cuFFT call per work() call: the largest power of two of the vectors offered,
    // the rest left for the next call. Splitting here instead (255 vectors into 128 + 64
    // + ...
    // + 1, which a full buffer offers whenever the ring's one free item shifts the calls)
    // would multiply the launches, each costing the CPU more than the GPU time it saves.
    const size_t batch = fft_batch(static_cast<size_t>(std::max(noutput_items, 0)),
                                   static_cast<size_t>(output_multiple()));
    if (batch == 0) {
        return 0;
    }
    reserve(batch);
    transform(input_items[0], output_items[0], batch);
    return static_cast<int>(batch);
}

} // namespace cuda
} // namespace gr
