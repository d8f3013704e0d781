/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The prototype filter both channelizer bindings take: the user's taps, or when none are
// given the design filter.pfb.channelizer_ccf makes (its own create_taps), so that the
// same arguments give the same output as GNU Radio's hier block.

#ifndef INCLUDED_CUDA_CHANNELIZER_TAPS_H
#define INCLUDED_CUDA_CHANNELIZER_TAPS_H

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <vector>

inline std::vector<float>
channelizer_taps(unsigned numchans, pybind11::object taps, double atten)
{
    std::vector<float> prototype;
    if (!taps.is_none()) {
        prototype = taps.cast<std::vector<float>>();
    }
    if (prototype.empty() && numchans > 0) {
        pybind11::object channelizer =
            pybind11::module::import("gnuradio.filter.pfb").attr("channelizer_ccf");
        prototype =
            channelizer.attr("create_taps")(numchans, atten).cast<std::vector<float>>();
    }
    return prototype;
}

#endif /* INCLUDED_CUDA_CHANNELIZER_TAPS_H */
