/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "device_fir_filter.h"
#include <gnuradio/cuda/device.h>
#include <algorithm>

namespace gr {
namespace cuda {

namespace {

// The C API's constructor and tap setter for each pair of types.
grcuda_status make(const grcuda_stream* stream,
                   gr_complex,
                   unsigned decimation,
                   uint32_t method,
                   const std::vector<gr_complex>& taps,
                   grcuda_fir_filter** filter)
{
    return grcuda_fir_filter_new_ccc(
        stream,
        decimation,
        method,
        reinterpret_cast<const grcuda_complex32*>(taps.data()),
        taps.size(),
        filter);
}
grcuda_status make(const grcuda_stream* stream,
                   gr_complex,
                   unsigned decimation,
                   uint32_t method,
                   const std::vector<float>& taps,
                   grcuda_fir_filter** filter)
{
    return grcuda_fir_filter_new_ccf(
        stream, decimation, method, taps.data(), taps.size(), filter);
}
grcuda_status make(const grcuda_stream* stream,
                   float,
                   unsigned decimation,
                   uint32_t method,
                   const std::vector<float>& taps,
                   grcuda_fir_filter** filter)
{
    return grcuda_fir_filter_new_fff(
        stream, decimation, method, taps.data(), taps.size(), filter);
}

grcuda_status set(grcuda_fir_filter* filter, const std::vector<gr_complex>& taps)
{
    return grcuda_fir_filter_set_taps_complex(
        filter, reinterpret_cast<const grcuda_complex32*>(taps.data()), taps.size());
}
grcuda_status set(grcuda_fir_filter* filter, const std::vector<float>& taps)
{
    return grcuda_fir_filter_set_taps_float(filter, taps.data(), taps.size());
}

} // namespace

template <class IN_T, class TAP_T>
device_fir_filter<IN_T, TAP_T>::device_fir_filter(const grcuda_device* device,
                                                  const grcuda_stream* stream,
                                                  unsigned decimation,
                                                  uint32_t method,
                                                  const std::vector<TAP_T>& taps,
                                                  std::string owner)
    : d_stream(stream),
      d_method(method),
      d_behind_zeros(device, stream, owner + " history"),
      d_owner(std::move(owner))
{
    set_decimation(decimation, taps);
}

template <class IN_T, class TAP_T>
void device_fir_filter<IN_T, TAP_T>::set_decimation(unsigned decimation,
                                                    const std::vector<TAP_T>& taps)
{
    grcuda_fir_filter* filter = nullptr;
    check(make(d_stream, IN_T(), decimation, d_method, taps, &filter), d_owner.c_str());
    d_filter.reset(filter);
    d_decimation = decimation;
}

template <class IN_T, class TAP_T>
void device_fir_filter<IN_T, TAP_T>::set_taps(const std::vector<TAP_T>& taps)
{
    check(set(d_filter.get(), taps), d_owner.c_str());
}

template <class IN_T, class TAP_T>
unsigned device_fir_filter<IN_T, TAP_T>::history() const
{
    return static_cast<unsigned>(grcuda_fir_filter_history(d_filter.get()));
}

template <class IN_T, class TAP_T>
int device_fir_filter<IN_T, TAP_T>::output_multiple() const
{
    return static_cast<int>(grcuda_fir_filter_output_multiple(d_filter.get()));
}

template <class IN_T, class TAP_T>
const void* device_fir_filter<IN_T, TAP_T>::behind_zeros(const void* input,
                                                         unsigned missing,
                                                         int noutputs)
{
    const size_t items = history() + static_cast<size_t>(noutputs - 1) * d_decimation;
    d_behind_zeros.reserve(items * sizeof(IN_T));
    char* copy = d_behind_zeros.data_as<char>();
    check(grcuda_stream_memset_async(d_stream, copy, 0, missing * sizeof(IN_T)),
          d_owner.c_str());
    check(grcuda_stream_copy_async(d_stream,
                                   copy + missing * sizeof(IN_T),
                                   input,
                                   (items - missing) * sizeof(IN_T)),
          d_owner.c_str());
    return copy;
}

template <class IN_T, class TAP_T>
int device_fir_filter<IN_T, TAP_T>::filter(const void* input,
                                           unsigned missing,
                                           void* output,
                                           int noutputs,
                                           uint64_t position,
                                           bool rotate,
                                           double start_phase,
                                           double phase_increment)
{
    if (missing > 0 && noutputs > 0) {
        // The outputs that read the missing items: afterwards the buffer holds the
        // history.
        const int multiple = output_multiple();
        const int reading = static_cast<int>((missing + d_decimation - 1) / d_decimation);
        noutputs = std::min(noutputs, (reading + multiple - 1) / multiple * multiple);
        input = behind_zeros(input, missing, noutputs);
    }
    size_t produced = 0;
    const size_t outputs = static_cast<size_t>(noutputs);
    if (rotate) {
        check(grcuda_fir_filter_execute_rotated(d_filter.get(),
                                                input,
                                                output,
                                                outputs,
                                                position,
                                                start_phase,
                                                phase_increment,
                                                &produced),
              d_owner.c_str());
    } else {
        check(grcuda_fir_filter_execute(
                  d_filter.get(), input, output, outputs, position, &produced),
              d_owner.c_str());
    }
    return static_cast<int>(produced);
}

template class device_fir_filter<gr_complex, gr_complex>;
template class device_fir_filter<gr_complex, float>;
template class device_fir_filter<float, float>;

} // namespace cuda
} // namespace gr
