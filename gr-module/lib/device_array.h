/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_DEVICE_ARRAY_H
#define INCLUDED_CUDA_DEVICE_ARRAY_H

#include <grcuda.h>
#include <cstddef>
#include <string>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief Device memory a block owns for its own use: parameters it sets from the host
 * (filter taps, a window) and scratch space between its kernels.
 *
 * Bound to the block's stream: every change first waits for the stream, so kernels
 * enqueued earlier never read a half-written or freed array. Blocks change arrays in
 * their constructor, and after a setter at the start of the next work() (on the block's
 * thread, under the block's d_setlock, which the block holds around work()); changes are
 * rare, so the wait costs nothing in the steady state. The destructor waits for the
 * stream too. The stream must outlive the array (a block's stream lives in its
 * cuda_block base, which is destroyed after the block's members).
 */
class device_array
{
public:
    //! An empty array on \p device, used on \p stream (of that device); \p owner names it
    //! in errors ("cuda.fft window").
    device_array(const grcuda_device* device,
                 const grcuda_stream* stream,
                 std::string owner);
    ~device_array();
    device_array(const device_array&) = delete;
    device_array& operator=(const device_array&) = delete;

    //! Replaces the contents with \p bytes bytes from host memory \p values.
    void assign(const void* values, size_t bytes);
    template <class T>
    void assign(const std::vector<T>& values)
    {
        assign(values.data(), values.size() * sizeof(T));
    }
    //! Makes the array hold at least \p bytes bytes (scratch space); growing it
    //! replaces the contents with zeros.
    void reserve(size_t bytes);

    //! The device address (nullptr while empty).
    void* data() const;
    template <class T>
    T* data_as() const
    {
        return static_cast<T*>(data());
    }
    size_t bytes() const { return d_bytes; }
    bool empty() const { return d_bytes == 0; }

private:
    void wait_for_stream() const;

    const grcuda_device* const d_device;
    const grcuda_stream* const d_stream;
    const std::string d_owner;
    grcuda_memory* d_memory = nullptr;
    size_t d_bytes = 0;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_DEVICE_ARRAY_H */
