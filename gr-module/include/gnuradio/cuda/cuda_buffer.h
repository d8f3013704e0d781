/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef INCLUDED_CUDA_CUDA_BUFFER_H
#define INCLUDED_CUDA_CUDA_BUFFER_H

#include <gnuradio/buffer_single_mapped.h>
#include <gnuradio/buffer_type.h>
#include <gnuradio/cuda/api.h>
#include <gnuradio/cuda/device.h>
#include <gnuradio/io_signature.h>
#include <grcuda.h>
#include <atomic>
#include <map>
#include <mutex>

namespace gr {
namespace cuda {

/*!
 * \brief GNU Radio buffer in GPU memory; blocks name it in their io_signature.
 *
 * Storage and synchronisation live in libgrcuda (a grcuda_buffer): a device ring mapped
 * twice, so any span of up to bufsize() items is contiguous, and on CPU<->GPU edges a
 * pinned host ring and the copy between them. GNU Radio decides the edge's transfer type;
 * this class forwards its hooks:
 * - write_pointer(): host memory for a CPU writer, device memory otherwise; the writer is
 *   first ordered after earlier reads of the span it may write;
 * - post_work(): the host<->device copy and the ordering of every GPU reader after the
 * data;
 * - _read_pointer(): device memory for GPU readers; host memory for CPU readers, which
 * first wait until the copy of what they will read is done.
 * GPU blocks register their streams with libgrcuda and report what they consumed through
 * their block_context; this class only adapts GNU Radio's buffer interface. Blocks with
 * the reference module's mixin (gr::cuda_block, cuda_block_helper.h) are
 * host-synchronous parties, which this class orders itself: before such a block's work
 * reads, the items offered to it are written (_read_pointer()); its outputs are posted
 * after its stream is done (post_work()); and before a writer reuses items such a block
 * consumed, its stream is done reading them (space_available()).
 *
 * Because the ring is mapped twice, reads and writes may run across its end: space and
 * item counts are circular, and the realigning callbacks of buffer_single_mapped are
 * never needed.
 */
class CUDA_API cuda_buffer : public gr::buffer_single_mapped
{
public:
    static gr::buffer_type type;

    static gr::buffer_sptr make_buffer(int nitems,
                                       size_t sizeof_item,
                                       uint64_t downstream_lcm_nitems,
                                       uint32_t downstream_max_out_mult,
                                       gr::block_sptr link,
                                       gr::block_sptr buf_owner);

    ~cuda_buffer() override;

    //! Whether port \p port of \p signature is in device memory: GNU Radio's own rule
    //! (flat_flowgraph), any buffer type but the default.
    static bool port_on_gpu(const gr::io_signature::sptr& signature, int port);

    //! For GNU Radio releases after 3.10.12, where gr::buffer declares it; not `override`
    //! so that this compiles against 3.10.5.1 too.
    gr::buffer_type get_buffer_type() const { return type; }

    int space_available() override;
    void* write_pointer() override;
    const void* _read_pointer(unsigned int read_index) override;
    void post_work(int nitems) override;
    bool input_blocked_callback(int items_required,
                                int items_avail,
                                unsigned read_index) override;
    bool output_blocked_callback(int output_multiple, bool force) override;

    //! Derives the edge's transfer type from the ports of its writer and readers and
    //! passes it to libgrcuda, which keeps it; on later calls (every start()) checks that
    //! it has not changed. GPU blocks call it from start() before they attach their ports
    //! (block_context::attach); the hooks call it too, for blocks that never attach.
    void wire();

    const grcuda_buffer* handle() const { return d_handle; }

protected:
    bool do_allocate_buffer(size_t final_nitems, size_t sizeof_item) override;
    unsigned index_sub(unsigned a, unsigned b) override;

private:
    cuda_buffer(int nitems,
                size_t sizeof_item,
                uint64_t downstream_lcm_nitems,
                uint32_t downstream_max_out_mult,
                gr::block_sptr link,
                gr::block_sptr buf_owner);

    //! GNU Radio just set the transfer type of a new reader's edge: refuses readers on
    //! both sides of the GPU, and side changes after lock()/unlock() (see
    //! cuda_buffer.cc).
    void note_reader_edge();
    void wire_once();
    //! The transfer type libgrcuda holds; DEFAULT_INVALID before wire() set it.
    gr::transfer_type wired_type() const;
    //! Whether the writer's port holding this buffer is in device memory; \p found is
    //! false when no block writes this buffer any more.
    bool writer_on_gpu(bool& found);
    bool reader_on_gpu(const gr::buffer_reader* reader);
    //! Waits for the streams of readers with the mixin that consumed items since the last
    //! wait (buffer mutex held).
    void synchronize_stream_readers();

    //! Calls of a writer the user capped that a ring holds at least.
    static constexpr size_t calls_in_ring = 8;

    //! The device of the ring: that of the GPU block owning the buffer (its writer, or
    //! the GPU reader of a CPU writer), else the default device.
    int d_device_ordinal = default_device;
    grcuda_buffer* d_handle = nullptr;
    //! calls_in_ring calls of the writer's cap when the user set one, else 0.
    size_t d_capped_calls_items = 0;
    //! The items block::allocate_buffer asked for (see do_allocate_buffer).
    size_t d_requested_items = 0;
    //! "copy(2)'s output", for messages.
    std::string d_name;
    //! Set once libgrcuda holds the transfer type: what the hooks check per call.
    std::atomic<bool> d_wired{ false };
    std::mutex d_wiring_mutex;
    //! Per reader with the mixin: its nitems_read() when its stream was last waited for.
    std::map<const gr::buffer_reader*, uint64_t> d_synchronized_reads;
};

} // namespace cuda
} // namespace gr

#endif /* INCLUDED_CUDA_CUDA_BUFFER_H */
