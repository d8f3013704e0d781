/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_SETTINGS_H
#define INCLUDED_CUDA_SETTINGS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace gr {
namespace cuda {

/*!
 * gr-cuda's settings, from GNU Radio's preferences: the [cuda] section of
 * ~/.gnuradio/config.conf (or a file in GNU Radio's conf.d), each option overridable by
 * gr::prefs' own environment variable (GR_CONF_CUDA_<OPTION>) and, where one is named
 * below, by gr-cuda's own variable, which takes precedence.
 *
 * - backend: cuda, simulated or auto (the default: the GPU when one is usable, else the
 *   CPU, saying why). $GRCUDA_BACKEND.
 * - device: the CUDA ordinal of the default device (default 0): where a block runs
 *   unless its `device` argument names another. $GRCUDA_DEVICE.
 * - host_wait: how GNU Radio's threads wait for the GPU: adaptive (the default: poll for
 *   50 us, then sleep), spin or block. $GRCUDA_HOST_WAIT.
 * - ring_floor_bytes: the least a buffer's ring holds (default 128 MiB on a GPU, 1 MiB on
 *   the simulated backend), so that a GPU block that falls behind takes many upstream
 *   calls' worth of items in one call. cuda_buffer takes at most ring_share_bytes() of
 *   it; 0 sizes rings as GNU Radio asks (its buffer_size preference, 32 KiB).
 * - ring_calls: how many calls of a GPU block whose calls the user did not cap
 *   (set_max_noutput_items) its output ring holds (default 2, at least 2): each call
 *   may fill this share of the ring. More calls per ring let writer and readers overlap
 *   more, at smaller calls for the same floor; two let a block whose CPU cost per call
 *   exceeds its GPU work (a Python block) catch up in calls twice a source's size.
 * - host_ring_cache_bytes: how many bytes of freed host rings (the pinned host side of
 *   CPU-GPU edges) the process keeps for the next flowgraph's edges of the same size
 *   (default 512 MiB; 0 keeps none): pinning a ring costs about 0.4 ms per MiB.
 * - kernel_cache: the absolute path of the folder where libgrcuda keeps the kernels it
 *   compiles with NVRTC, for later processes (default $XDG_CACHE_HOME/grcuda/kernels,
 *   else ~/.cache/grcuda/kernels). $GRCUDA_KERNEL_CACHE.
 *
 * A value that is not one of these is refused with std::invalid_argument naming the
 * option and where it was set.
 */
//! GRCUDA_BACKEND_AUTO, _CUDA or _SIMULATED; \p source says where it was set.
uint32_t requested_backend(std::string& source);
int requested_ordinal();
uint32_t host_wait_mode();
size_t ring_floor_bytes();
//! How many calls of a GPU block the user did not cap its output ring holds.
size_t ring_calls();
//! The most a ring on device \p ordinal grows to by itself: 1/64 of its memory free now.
size_t ring_share_bytes(int ordinal);
//! Hands the host_ring_cache_bytes preference, where set, to libgrcuda
//! (grcuda_set_host_ring_cache_limit()); unset, libgrcuda's default holds.
void pass_host_ring_cache_limit();
//! Hands the kernel_cache preference to libgrcuda (grcuda_set_kernel_cache_directory()),
//! unless $GRCUDA_KERNEL_CACHE is set, which libgrcuda reads itself.
void pass_kernel_cache_directory();

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_SETTINGS_H */
