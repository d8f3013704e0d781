/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// The reference module's manual-synchronisation API over libgrcuda. A block that runs its
// own stream is a host-synchronous party of its buffers, so the helpers wait on the host:
// for the posts of the items it is about to read, and for its stream.

#include <gnuradio/buffer.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/cuda/cuda_block_helper.h>
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <atomic>

namespace gr {
namespace cuda {

void wait_for_inputs(const gr::block_detail_sptr& detail, cudaStream_t)
{
    for (int port = 0; port < detail->ninputs(); port++) {
        const gr::buffer_reader_sptr reader = detail->input(port);
        auto* buffer = dynamic_cast<cuda_buffer*>(reader->buffer().get());
        const int available = reader->items_available();
        if (buffer == nullptr || available <= 0) {
            continue;
        }
        check(grcuda_buffer_wait_published(buffer->handle(),
                                           reader->get_read_index(),
                                           static_cast<size_t>(available)),
              "cuda.wait_for_inputs");
    }
}

void mark_outputs_ready(const gr::block_detail_sptr&, cudaStream_t stream)
{
    check(grcuda_device_synchronize_stream_handle(
              device(), static_cast<uint64_t>(reinterpret_cast<uintptr_t>(stream))),
          "cuda.mark_outputs_ready");
}

void wait_for_work(const gr::block_detail_sptr& detail, cudaStream_t stream)
{
    wait_for_inputs(detail, stream);
}

void mark_work_done(const gr::block_detail_sptr& detail, cudaStream_t stream)
{
    mark_outputs_ready(detail, stream);
}

} // namespace cuda

namespace {
std::atomic<int> mixin_instances{ 0 };
} // namespace

bool cuda_block::instances_exist()
{
    return mixin_instances.load(std::memory_order_acquire) > 0;
}

cuda_block::cuda_block()
{
    mixin_instances.fetch_add(1, std::memory_order_acq_rel);
    cuda::check(grcuda_stream_new(cuda::device(), &d_owned_stream),
                "gr::cuda_block stream");
    d_stream = reinterpret_cast<cudaStream_t>(
        static_cast<uintptr_t>(grcuda_stream_handle(d_owned_stream)));
}

cuda_block::~cuda_block()
{
    // Work still queued may write memory the block's buffers are about to free. A failure
    // means the context is gone (process exit), and the work with it: nothing to wait
    // for.
    const grcuda_status finished = grcuda_stream_synchronize(d_owned_stream);
    static_cast<void>(finished);
    grcuda_stream_free(d_owned_stream);
    mixin_instances.fetch_sub(1, std::memory_order_acq_rel);
}

} // namespace gr
