/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_PFB_CHANNELIZER_CCF_H
#define INCLUDED_CUDA_PFB_CHANNELIZER_CCF_H

#include <gnuradio/block.h>
#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief Polyphase filter bank channelizer, on the GPU: one complex input, one output per
 * channel, as GNU Radio's hier block filter.pfb.channelizer_ccf (stream_to_streams
 * followed by filter.pfb_channelizer_ccf).
 * \ingroup cuda
 *
 * numchans / oversample_rate must be an integer (each output step advances the input by
 * that many items). Output o carries channel channel_map()[o]. Python designs empty taps
 * as the hier block does (optfir low-pass with atten dB); C++ needs taps.
 */
class CUDA_API pfb_channelizer_ccf : virtual public gr::block
{
public:
    typedef std::shared_ptr<pfb_channelizer_ccf> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(unsigned numchans,
                     const std::vector<float>& taps,
                     float oversample_rate = 1.0,
                     int device = default_device);

    //! Replaces the prototype filter from the next work() call on.
    virtual void set_taps(const std::vector<float>& taps) = 0;
    //! The filter of each branch, as GNU Radio's polyphase_filterbank::taps().
    virtual std::vector<std::vector<float>> taps() const = 0;
    //! Output o carries channel map[o]; values in [0, numchans), at least one per
    //! connected output. An empty map changes nothing, as in GNU Radio.
    virtual void set_channel_map(const std::vector<int>& map) = 0;
    virtual std::vector<int> channel_map() const = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_PFB_CHANNELIZER_CCF_H */
