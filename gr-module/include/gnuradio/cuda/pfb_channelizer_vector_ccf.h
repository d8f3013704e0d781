/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_PFB_CHANNELIZER_VECTOR_CCF_H
#define INCLUDED_CUDA_PFB_CHANNELIZER_VECTOR_CCF_H

#include <gnuradio/block.h>
#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief Polyphase filter bank channelizer, on the GPU, with one vector output: item g is
 * the vector of the numchans channels of output step g, entry o carrying channel
 * channel_map()[o].
 * \ingroup cuda
 *
 * The same filter bank, taps, oversample rate and tags as pfb_channelizer_ccf, whose
 * output o is entry o of these vectors. One buffer instead of one per channel: what to
 * use when the channels stay on the GPU (vector blocks such as complex_to_mag_squared
 * with vlen = numchans), and for many channels, where a block and a buffer per channel
 * cost more CPU than the GPU's work.
 */
class CUDA_API pfb_channelizer_vector_ccf : virtual public gr::block
{
public:
    typedef std::shared_ptr<pfb_channelizer_vector_ccf> sptr;

    //! \p device: the GPU the block runs on (a CUDA ordinal), or default_device.
    static sptr make(unsigned numchans,
                     const std::vector<float>& taps,
                     float oversample_rate = 1.0,
                     int device = default_device);

    //! Replaces the prototype filter from the next work() call on.
    virtual void set_taps(const std::vector<float>& taps) = 0;
    //! The filter of each branch, as GNU Radio's polyphase_filterbank::taps().
    virtual std::vector<std::vector<float>> taps() const = 0;
    //! Vector entry o carries channel map[o]: numchans values in [0, numchans). An empty
    //! map changes nothing, as in GNU Radio.
    virtual void set_channel_map(const std::vector<int>& map) = 0;
    virtual std::vector<int> channel_map() const = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_PFB_CHANNELIZER_VECTOR_CCF_H */
