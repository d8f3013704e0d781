/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_CUDA_BLOCK_H
#define INCLUDED_CUDA_CUDA_BLOCK_H

#include <gnuradio/block.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/cuda_block_helper.h> // gr::cuda_block, the reference's mixin
#include <gnuradio/cuda/device.h>
#include <gnuradio/sync_block.h>
#include <grcuda.h>
#include <atomic>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace gr {
namespace cuda {

/*!
 * \brief A GPU block's share of libgrcuda (a grcuda_block): its own CUDA stream, and its
 * place as writer and reader of the cuda_buffers on its ports.
 *
 * attach() (from start()) hands libgrcuda the block's ports, which registers the stream
 * with every cuda_buffer on them, except on ports in host memory; report_consumed() tells
 * libgrcuda that the block's work on items it is about to consume is enqueued, so the
 * writer upstream waits for it before overwriting them. The rules live in libgrcuda; this
 * class only finds the buffers and read indices GNU Radio holds. Used by one thread at a
 * time: the control thread in start() and stop(), the block's thread in between.
 *
 * The stream is on one device, chosen at construction and kept for the block's life:
 * everything the block allocates goes there (device()).
 */
class CUDA_API block_context
{
public:
    //! On device(\p device); throws std::invalid_argument for an ordinal the process's
    //! backend does not have.
    explicit block_context(int device = default_device);
    ~block_context();
    block_context(const block_context&) = delete;
    block_context& operator=(const block_context&) = delete;

    //! The block's CUstream (a cudaStream_t) as an integer; 0 on the simulated backend.
    uint64_t stream_handle() const;
    const grcuda_stream* stream() const;
    //! The device of the stream, for the block's own device memory, kernels and plans.
    const grcuda_device* device() const { return d_device; }
    //! Its CUDA ordinal (for CuPy), never default_device.
    int device_ordinal() const { return d_device_ordinal; }

    //! Registers with the buffers of \p self's ports (from start(), again at every
    //! start). When they cannot run (a reader on a device without peer access to the
    //! buffer's that libgrcuda refuses, or readers that lock()/unlock() put on both sides
    //! of the GPU, which GNU Radio checks nowhere for blocks it keeps), logs why through
    //! \p self's logger and marks \p self done, which ends the flowgraph, and returns
    //! false: GNU Radio 3.10 calls start() in the block's thread, where an exception
    //! would leave every other block waiting forever.
    bool attach(gr::block& self);
    //! Points \p input_items (GNU Radio's, for this call) of inputs that the block reads
    //! through a mirror at the mirror: a block on a device without peer access to a
    //! buffer's reads libgrcuda's copy of the ring on its own device. Call before any
    //! work reads the inputs; nothing changes for other blocks.
    void read_from_mirrors(gr_vector_const_void_star& input_items) const
    {
        if (d_mirrored) {
            point_at_mirrors(input_items);
        }
    }
    //! Input \p port (of the block attach() was given): all work reading \p nitems items
    //! from its read index is enqueued, and the block will consume them.
    void report_consumed(int port, int nitems);
    //! After work() enqueued all its work, when nothing more will be enqueued before GNU
    //! Radio posts the outputs (a sync block): every input port consumes \p nitems items
    //! from its read index. One event marks the reads and this call's posts.
    void end_work(int nitems);
    //! Waits until all work on the stream is done, then lets go of the port buffers, so
    //! that a stopped flowgraph holds no device memory through its blocks (from stop()).
    void detach();
    //! From \p self's check_topology(), which start() and unlock() call before any
    //! block runs: throws std::runtime_error where \p self cannot run. While \p self is
    //! attached (started by a flowgraph and not stopped since: a second flowgraph would
    //! take its ports from the running one, and GNU Radio then crashes or hangs), and
    //! where GNU Radio would never call it (a general block whose max_noutput_items is
    //! below its output multiple: a hang).
    void check_topology(gr::block& self) const;

private:
    int d_device_ordinal;
    const grcuda_device* d_device;
    grcuda_block* d_block = nullptr;
    //! GNU Radio's readers of the block's input ports, from attach(), for their read
    //! indices. Not owned: holding them would keep the block's readers on buffers that
    //! lock()/unlock() takes away from it. GNU Radio replaces them only between a stop()
    //! and the next start(), which attaches again.
    std::vector<gr::buffer_reader*> d_inputs;
    //! end_work()'s entries, one per input port, kept to spare an allocation per call.
    std::vector<grcuda_consumption> d_consumption;
    //! Per input port from attach(): the base of the mirror it reads (nullptr: the ring
    //! itself), and its item size.
    std::vector<const char*> d_mirrors;
    std::vector<size_t> d_item_sizes;
    bool d_mirrored = false;
    //! Between a successful attach() and detach(); read by other threads'
    //! check_topology().
    std::atomic<bool> d_running{ false };

    //! attach()'s refusal: logs \p reason through \p self's logger, marks \p self
    //! done, which ends the flowgraph, and returns false.
    bool refuse(gr::block& self, const std::string& reason);
    void find_mirrors();
    void point_at_mirrors(gr_vector_const_void_star& input_items) const;
};

/*!
 * \brief What every GPU block of the module is to the buffers GNU Radio makes for it: a
 * block on one device, where cuda_buffer puts the rings the block owns (its outputs, and
 * its inputs from CPU writers).
 */
class CUDA_API gpu_block
{
public:
    virtual ~gpu_block() = default;
    //! The CUDA ordinal of the device the block runs on.
    virtual int device_ordinal() const = 0;
};

/*!
 * \brief Base of GPU blocks that implement general_work() themselves.
 *
 * \p Interface is the block's public interface class (deriving from gr::block or a
 * subclass). general_work() returns run_work(input_items, [&]() -> int { ... }), whose
 * body, before each consume()/consume_each(), calls report_consumed() and enqueues all
 * work on stream(). The block runs on the device its constructor passes (every GPU
 * block's `device` argument: an ordinal, or default_device).
 */
template <class Interface>
class cuda_block : public Interface, public gpu_block
{
public:
    explicit cuda_block(int device = default_device) : d_context(device) {}

    int device_ordinal() const override { return d_context.device_ordinal(); }

    bool start() override { return d_context.attach(*this) && Interface::start(); }

    //! Refuses a flowgraph that cannot run the block (block_context::check_topology).
    bool check_topology(int ninputs, int noutputs) override
    {
        d_context.check_topology(*this);
        return Interface::check_topology(ninputs, noutputs);
    }

    bool stop() override
    {
        d_context.detach();
        return Interface::stop();
    }

protected:
    //! Runs \p body, the body of a general_work() given \p input_items, as every GPU
    //! block's call runs: under the block's d_setlock, which its setters take (GNU
    //! Radio's scheduler takes no lock around general_work(); its own blocks lock inside
    //! it), after read_from_mirrors(). An exception from \p body (a libgrcuda error) is
    //! logged through the block's logger and ends the block (WORK_DONE), which ends the
    //! flowgraph: GNU Radio 3.10 would log it and end only the block's thread, leaving
    //! every other block waiting forever.
    template <class Body>
    int run_work(gr_vector_const_void_star& input_items, Body&& body)
    {
        try {
            gr::thread::scoped_lock guard(this->d_setlock);
            d_context.read_from_mirrors(input_items);
            return body();
        } catch (const std::exception& error) {
            this->d_logger->error("{}; the block stops, which ends the flowgraph",
                                  error.what());
            return gr::block::WORK_DONE;
        }
    }
    //! The block's stream, for libgrcuda's kernels and copies (grcuda_*(stream(), ...)).
    const grcuda_stream* stream() const { return d_context.stream(); }
    //! The same stream as a CUstream (a cudaStream_t) for CUDA kernels, cuFFT or CuPy; 0
    //! on the simulated backend.
    uint64_t stream_handle() const { return d_context.stream_handle(); }
    //! The block's device, for its own device memory (grcuda_memory_new(device(), ...)).
    const grcuda_device* device() const { return d_context.device(); }
    void report_consumed(int port, int nitems)
    {
        d_context.report_consumed(port, nitems);
    }
    void report_consumed_each(int nitems)
    {
        for (int port = 0; port < this->detail()->ninputs(); port++) {
            report_consumed(port, nitems);
        }
    }
    //! Instead of report_consumed_each() when work() returns at once: see
    //! block_context::end_work().
    void end_work(int nitems) { d_context.end_work(nitems); }

private:
    block_context d_context;
};

/*!
 * \brief Base of GPU sync blocks (gr::sync_block, sync_decimator, sync_interpolator):
 * work() only launches kernels on stream(); this class reports the consumption to the
 * buffers before GNU Radio frees the items, exactly as the sync block itself consumes,
 * with one event for the reads and the posts of the call (end_work()).
 *
 * work() runs in run_work(): under the block's d_setlock, so setters that take it never
 * change what a call is using, and an exception from it ends the flowgraph cleanly.
 */
template <class Interface>
class cuda_sync_block : public cuda_block<Interface>
{
public:
    explicit cuda_sync_block(int device = default_device) : cuda_block<Interface>(device)
    {
    }

    int
    general_work(int noutput_items,
                 gr_vector_int& /* ninput_items: a sync block reads what it produces */,
                 gr_vector_const_void_star& input_items,
                 gr_vector_void_star& output_items) override
    {
        return this->run_work(input_items, [&]() -> int {
            const int produced = this->work(noutput_items, input_items, output_items);
            if (produced > 0) {
                const int consumed = items_consumed(produced);
                this->end_work(consumed);
                this->consume_each(consumed);
            }
            return produced;
        });
    }

protected:
    //! The input items a call that produced \p produced items consumes from each port:
    //! what sync_block, sync_decimator and sync_interpolator each consume. A block whose
    //! kernels have not read as far as GNU Radio's history says (after a change of
    //! history while running) consumes less until they have.
    virtual int items_consumed(int produced)
    {
        return this->fixed_rate_noutput_to_ninput(produced) - (this->history() - 1);
    }
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_CUDA_BLOCK_H */
