/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_BUFFER_SETTINGS_H
#define INCLUDED_CUDA_BUFFER_SETTINGS_H

#include <cstddef>
#include <cstdint>

namespace gr {
namespace cuda {

/*!
 * How cuda_buffers are made, from GNU Radio's preferences: the [cuda] section of
 * ~/.gnuradio/config.conf (or a file in GNU Radio's conf.d), each option overridable by
 * gr::prefs' own environment variable (GR_CONF_CUDA_<OPTION>).
 *
 * - host_wait: how GNU Radio's threads wait for the GPU: adaptive (the default: poll for
 *   50 us, then sleep), spin or block. $GRCUDA_HOST_WAIT, where set, takes precedence.
 * - ring_floor_bytes: the least a buffer's ring holds (default 64 MiB on a GPU, 1 MiB on
 *   the simulated backend), so that a GPU block that falls behind takes many upstream
 *   calls' worth of items in one call (GNU Radio lets a call fill half a ring).
 * cuda_buffer takes at most ring_share_bytes() of it; 0 sizes rings as GNU Radio asks
 * (its buffer_size preference, 32 KiB).
 *
 * A value that is not one of these is refused with std::invalid_argument naming the
 * option.
 */
uint32_t host_wait_mode();
size_t ring_floor_bytes();
//! The most a ring grows to by itself: 1/64 of the device memory free now.
size_t ring_share_bytes();

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_BUFFER_SETTINGS_H */
