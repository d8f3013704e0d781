/* -*- c++ -*- */
/*
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

// cuda_buffer forwards GNU Radio's buffer hooks to libgrcuda (see the class comment).
// Which thread calls what: the control thread constructs the buffer and sets the transfer
// type (wire(), from the start() of the GPU blocks on its edge); the writer's thread
// calls write_pointer() and post_work(); each reader's thread calls _read_pointer();
// space_available() runs with the buffer mutex held. GPU readers report their consumption
// to libgrcuda through their own block_context, not through this class. This follows GNU
// Radio 3.10.5.1's checklist for custom buffers: derive from buffer_single_mapped,
// allocate in the constructor, drop the owner reference (it leaks the buffer otherwise),
// never realign, tolerate DEFAULT_INVALID, and provide get_buffer_type().

#include "settings.h"
#include <gnuradio/block.h>
#include <gnuradio/block_detail.h>
#include <gnuradio/buffer_double_mapped.h>
#include <gnuradio/buffer_reader.h>
#include <gnuradio/cuda/cuda_block.h>
#include <gnuradio/cuda/cuda_block_helper.h>
#include <gnuradio/cuda/cuda_buffer.h>
#include <gnuradio/cuda/device.h>
#include <algorithm>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <string>

namespace gr {
namespace cuda {

gr::buffer_type cuda_buffer::type(gr::buftype<cuda_buffer, cuda_buffer>{});

namespace {

//! The blocks reading \p buffer, as "copy(3), vector_sink(5)".
std::string reader_names(gr::buffer& buffer)
{
    std::string names;
    for (size_t index = 0; index < buffer.nreaders(); index++) {
        names += (index ? ", " : "") + buffer.reader(index)->link()->identifier();
    }
    return names;
}

/*!
 * Why \p writer's output cannot feed both GPU and CPU blocks: \p readers (already
 * reading, on the GPU when \p readers_on_gpu) and \p added (the reader on the other
 * side), with the fix.
 */
std::string mixed_readers_message(const std::string& writer,
                                  bool writer_on_gpu,
                                  bool readers_on_gpu,
                                  const std::string& readers,
                                  const std::string& added)
{
    const std::string fix =
        writer_on_gpu
            ? "connect the CPU blocks through a GPU block of their own: " + writer +
                  " -> cuda.copy -> CPU blocks (or a cuda.tee with one output for "
                  "each side)"
            : "connect the GPU blocks through a CPU block of their own: " + writer +
                  " -> blocks.copy -> GPU blocks (or a cuda.tee(itemsize, gpu=False) "
                  "with one output for each side)";
    return "gr-cuda: " + writer + " feeds both " + (readers_on_gpu ? "GPU" : "CPU") +
           " blocks (" + readers + ") and " + added +
           " from one output, which GNU Radio 3.10 cannot run: each output has one "
           "transfer type. Fix: " +
           fix + ".";
}

/*!
 * GNU Radio 3.10 makes a buffer for a GPU block reading a CPU block's output by
 * *replacing* the CPU block's buffer (block::replace_buffer). Two topologies then break
 * silently: a second GPU reader replaces the buffer again, orphaning the first (it waits
 * forever), and a CPU reader already attached to the replaced buffer is orphaned the same
 * way. Both show as the buffer being replaced not being an ordinary host buffer without
 * readers (or a cuda_buffer whose GPU reader lock()/unlock() removed); refuse them here,
 * at start() or unlock(), naming the blocks and the fix.
 */
void check_replacement(const gr::block_sptr& writer,
                       const gr::block_sptr& gpu_reader,
                       int nitems,
                       size_t sizeof_item)
{
    const gr::block_detail_sptr detail = writer->detail();
    if (!detail) {
        return;
    }
    for (int port = 0; port < detail->noutputs(); port++) {
        const gr::buffer_sptr output = detail->output(port);
        if (!output || output->get_sizeof_item() != sizeof_item) {
            continue;
        }
        if (dynamic_cast<cuda_buffer*>(output.get())) {
            if (output->nreaders() == 0) {
                return; // lock()/unlock() removed its GPU reader: a new one replaces it
            }
            continue;
        }
        if (output->bufsize() != static_cast<unsigned int>(nitems)) {
            continue;
        }
        if (output->nreaders() > 0) {
            throw std::runtime_error(
                mixed_readers_message(writer->identifier(),
                                      false,
                                      false,
                                      reader_names(*output),
                                      "the GPU block " + gpu_reader->identifier()));
        }
        return; // the ordinary case: the CPU block's own buffer, not yet read
    }
    throw std::runtime_error("gr-cuda: " + writer->identifier() +
                             " feeds several GPU blocks from one output (" +
                             gpu_reader->identifier() +
                             " is one), which GNU Radio 3.10 cannot run (all but one "
                             "would wait forever). Fix: connect " +
                             writer->identifier() +
                             " to a single GPU block, e.g. a cuda.copy, and fan out from "
                             "that block: GPU-to-GPU fan-out works.");
}

//! The blocks whose call cap gr-cuda raised (by unique_id()): GNU Radio marks every cap
//! as set by the user, also one gr-cuda set at an earlier start().
std::mutex raised_caps_mutex;
std::set<long> raised_caps;

bool cap_set_by_user(const gr::block_sptr& block)
{
    if (!block->is_set_max_noutput_items()) {
        return false;
    }
    std::lock_guard<std::mutex> guard(raised_caps_mutex);
    return raised_caps.count(block->unique_id()) == 0;
}

void raise_cap(const gr::block_sptr& block, int cap)
{
    block->set_max_noutput_items(cap);
    std::lock_guard<std::mutex> guard(raised_caps_mutex);
    raised_caps.insert(block->unique_id());
}

} // namespace

gr::buffer_sptr cuda_buffer::make_buffer(int nitems,
                                         size_t sizeof_item,
                                         uint64_t downstream_lcm_nitems,
                                         uint32_t downstream_max_out_mult,
                                         gr::block_sptr link,
                                         gr::block_sptr buf_owner)
{
    if (link && buf_owner && link != buf_owner) {
        check_replacement(link, buf_owner, nitems, sizeof_item);
    }
    gr::buffer_sptr buffer(new cuda_buffer(nitems,
                                           sizeof_item,
                                           downstream_lcm_nitems,
                                           downstream_max_out_mult,
                                           link,
                                           buf_owner));
    // GNU Radio caps a block's calls at the items it asked for (block::allocate_buffer,
    // when the user set no cap): let a GPU block writing its own output fill its share of
    // the ring ([cuda] ring_calls calls per ring). A CPU writer whose buffer a GPU reader
    // replaces keeps its cap (GNU Radio set it already; the source sets the pace).
    if (link && link == buf_owner && !link->is_set_max_noutput_items()) {
        raise_cap(
            link,
            std::max<int>(nitems, buffer->bufsize() / static_cast<int>(ring_calls())));
    }
    return buffer;
}

cuda_buffer::cuda_buffer(int nitems,
                         size_t sizeof_item,
                         uint64_t downstream_lcm_nitems,
                         uint32_t downstream_max_out_mult,
                         gr::block_sptr link,
                         gr::block_sptr buf_owner)
    : buffer_single_mapped(nitems,
                           sizeof_item,
                           downstream_lcm_nitems,
                           downstream_max_out_mult,
                           link,
                           buf_owner)
{
    if (const auto* owner = dynamic_cast<const gpu_block*>(buf_owner.get())) {
        d_device_ordinal = owner->device_ordinal();
    }
    d_requested_items = static_cast<size_t>(std::max(nitems, 1));
    d_name = (link ? link->identifier() : std::string("a block")) + "'s output";
    // A GPU writer whose calls the user capped gets room for several of them, so that it
    // and its readers overlap (the floor alone may hold only two calls of a large cap).
    if (link && link == buf_owner && cap_set_by_user(link)) {
        d_capped_calls_items =
            calls_in_ring * static_cast<size_t>(link->max_noutput_items());
    }
    if (!allocate_buffer(nitems)) {
        throw std::bad_alloc();
    }
    // The ring is mapped twice, so GNU Radio's plain reader arithmetic (items available =
    // write index - read index, circular) is exact for it. Declared single-mapped, GNU
    // Radio would give its readers buffer_reader_sm, which misreads an empty ring as
    // full, and so hands out items never written, for any reader with a sample delay
    // other than history - 1 (e.g. history 1, delay 3).
    d_buf_map_type = gr::buffer_mapping_type::double_mapped;
    // In 3.10.5.1 the owner is a shared_ptr back to a block that holds this buffer: a
    // cycle that never frees either. Nothing in the runtime reads it.
    d_buf_owner.reset();
}

cuda_buffer::~cuda_buffer() { grcuda_buffer_free(d_handle); }

bool cuda_buffer::do_allocate_buffer(size_t /* final_nitems */, size_t sizeof_item)
{
    // The items GNU Radio's block::allocate_buffer asked for, as its own double-mapped
    // buffers get them: buffer_single_mapped's final_nitems adds at least 4 times the
    // readers' output multiple, counted in the readers' output items (a
    // vector_to_stream(v) reader asks for 4 v vectors of v items: 128 GiB at v = 2^16),
    // and rounds up for its wrap-around, which a twice-mapped ring does not have.
    // Passive batching: a ring of at least ring_floor_bytes(), whatever GNU Radio asks
    // for (its 32 KiB default is a few vectors), so that a block that falls behind
    // catches up in large calls, while one that keeps up still takes what is there.
    // Neither the floor nor a capped writer's calls take more than ring_share_bytes().
    const size_t wanted_items =
        std::max(ring_floor_bytes() / sizeof_item, d_capped_calls_items);
    const size_t ring_items =
        wanted_items == 0
            ? d_requested_items
            : std::max(d_requested_items,
                       std::min(wanted_items,
                                ring_share_bytes(d_device_ordinal) / sizeof_item));
    const grcuda_status status = grcuda_buffer_new(
        device(d_device_ordinal), sizeof_item, ring_items, host_wait_mode(), &d_handle);
    if (status != GRCUDA_STATUS_OK) {
        // Not std::bad_alloc, which GNU Radio retries the same way and then reports
        // without a word on what or why.
        throw std::runtime_error(
            "gr-cuda: cannot allocate the ring of " + d_name + " (at least " +
            std::to_string(ring_items) + " items of " + std::to_string(sizeof_item) +
            " bytes, rounded up to a multiple of the item size and of the allocation "
            "granularity, on device " +
            std::to_string(device_ordinal(d_device_ordinal)) +
            "): " + grcuda_last_error_message() +
            ". Fix: smaller items (vector lengths), fewer GPU blocks on that device, a "
            "smaller set_min_output_buffer or set_max_noutput_items on the writer, or a "
            "smaller [cuda] ring_floor_bytes.");
    }
    // The ring is rounded up to the allocation granularity: use all of it.
    d_bufsize = static_cast<unsigned int>(grcuda_buffer_ring_items(d_handle));
    void* base = nullptr;
    check(grcuda_buffer_writer_pointer(d_handle, 0, &base), "cuda_buffer");
    d_base = static_cast<char*>(base);
    return true;
}

bool cuda_buffer::port_on_gpu(const gr::io_signature::sptr& signature, int port)
{
    return signature->stream_buffer_type(port) != gr::buffer_double_mapped::type;
}

namespace {

gr::transfer_type edge_type(bool writer_on_gpu, bool readers_on_gpu)
{
    using gr::transfer_type;
    if (writer_on_gpu) {
        return readers_on_gpu ? transfer_type::DEVICE_TO_DEVICE
                              : transfer_type::DEVICE_TO_HOST;
    }
    return readers_on_gpu ? transfer_type::HOST_TO_DEVICE : transfer_type::HOST_TO_HOST;
}

bool readers_on_gpu(gr::transfer_type type)
{
    return type == gr::transfer_type::DEVICE_TO_DEVICE ||
           type == gr::transfer_type::HOST_TO_DEVICE;
}

//! Why \p writer's output cannot change sides: lock()/unlock() reuses a running block's
//! output buffer, and a cuda_buffer's host ring and copies are fixed once it ran.
std::string side_change_message(const std::string& writer, bool now_on_gpu)
{
    return "gr-cuda: after lock()/unlock(), " + writer + "'s output is read by " +
           (now_on_gpu ? "GPU" : "CPU") + " blocks where " +
           (now_on_gpu ? "CPU" : "GPU") +
           " blocks read it before; GNU Radio 3.10 keeps a running block's output buffer "
           "across unlock(), and a GPU buffer keeps the side of its readers. Fix: stop() "
           "and wait() the flowgraph, reconnect, and start() it again, or keep a block "
           "on "
           "the old side where the new blocks connect (cuda.copy for GPU readers, "
           "blocks.copy for CPU readers).";
}

} // namespace

namespace {

//! What the mixin checks iterate over when no mixin block exists.
const std::vector<gr::buffer_reader*> no_readers;

//! The reference module's mixin on \p block (see the class comment), or nullptr.
const gr::cuda_block* stream_mixin(const gr::block_sptr& block)
{
    return dynamic_cast<const gr::cuda_block*>(block.get());
}

void synchronize(const gr::cuda_block& block, const char* what)
{
    check(
        grcuda_device_synchronize_stream_handle(
            device(),
            static_cast<uint64_t>(reinterpret_cast<uintptr_t>(block.get_cuda_stream()))),
        what);
}

} // namespace

bool cuda_buffer::writer_on_gpu(bool& found)
{
    found = false;
    const gr::block_sptr writer = link();
    const gr::block_detail_sptr detail = writer ? writer->detail() : nullptr;
    if (!detail) {
        return false;
    }
    for (int port = 0; port < detail->noutputs(); port++) {
        if (detail->output(port).get() == this) {
            found = true;
            return port_on_gpu(writer->output_signature(), port);
        }
    }
    return false; // replaced by another buffer: this one is no longer written
}

bool cuda_buffer::reader_on_gpu(const gr::buffer_reader* reader)
{
    const gr::block_sptr block = reader->link();
    const gr::block_detail_sptr detail = block->detail();
    for (int port = 0; detail && port < detail->ninputs(); port++) {
        if (detail->input(port).get() == reader) {
            return port_on_gpu(block->input_signature(), port);
        }
    }
    return false;
}

// Readers on both sides of the GPU. GNU Radio gives a buffer one transfer type and throws
// from set_transfer_type (which is not virtual) when a later reader needs another, with a
// message that names one block and no fix. So GNU Radio's record of the type stays unset:
// each type it sets for a new reader's edge is checked here against the readers already
// there, and unset again. GNU Radio's buffer_add_reader() calls index_sub() right after
// setting the edge's type, before it creates the reader, in the control thread (at
// start() and unlock(), while no block thread runs), so a refusal leaves no half-made
// reader behind. The type libgrcuda needs is derived from the ports themselves (wire()),
// which also covers the readers GNU Radio's lock()/unlock() adds without setting any
// type.
void cuda_buffer::note_reader_edge()
{
    const gr::transfer_type added = d_transfer_type;
    d_transfer_type = gr::transfer_type::DEFAULT_INVALID;
    const bool added_on_gpu = readers_on_gpu(added);
    const bool writer_gpu = added == gr::transfer_type::DEVICE_TO_DEVICE ||
                            added == gr::transfer_type::DEVICE_TO_HOST;
    for (const gr::buffer_reader* reader : d_readers) {
        if (reader_on_gpu(reader) != added_on_gpu) {
            throw std::runtime_error(
                mixed_readers_message(link()->identifier(),
                                      writer_gpu,
                                      !added_on_gpu,
                                      reader_names(*this),
                                      added_on_gpu ? "a GPU block" : "a CPU block"));
        }
    }
    std::lock_guard<std::mutex> guard(d_wiring_mutex);
    if (d_wired.load(std::memory_order_relaxed) && added != wired_type()) {
        throw std::runtime_error(side_change_message(link()->identifier(), added_on_gpu));
    }
}

gr::transfer_type cuda_buffer::wired_type() const
{
    switch (grcuda_buffer_transfer_type(d_handle)) {
    case GRCUDA_TRANSFER_HOST_TO_DEVICE:
        return gr::transfer_type::HOST_TO_DEVICE;
    case GRCUDA_TRANSFER_DEVICE_TO_HOST:
        return gr::transfer_type::DEVICE_TO_HOST;
    case GRCUDA_TRANSFER_DEVICE_TO_DEVICE:
        return gr::transfer_type::DEVICE_TO_DEVICE;
    default:
        return gr::transfer_type::DEFAULT_INVALID;
    }
}

void cuda_buffer::wire()
{
    std::lock_guard<std::mutex> guard(d_wiring_mutex);
    bool written = false;
    const bool writer_gpu = writer_on_gpu(written);
    if (!written || d_readers.empty()) {
        return; // not part of a running flowgraph (yet, or any more)
    }
    const bool readers_gpu = reader_on_gpu(d_readers[0]);
    std::string names[2]; // the readers off and on the GPU
    for (const gr::buffer_reader* reader : d_readers) {
        std::string& side = names[reader_on_gpu(reader)];
        side += (side.empty() ? "" : ", ") + reader->link()->identifier();
    }
    if (!names[!readers_gpu].empty()) {
        throw std::runtime_error(mixed_readers_message(
            link()->identifier(),
            writer_gpu,
            readers_gpu,
            names[readers_gpu],
            (readers_gpu ? "CPU blocks (" : "GPU blocks (") + names[!readers_gpu] + ")"));
    }
    const gr::transfer_type type = edge_type(writer_gpu, readers_gpu);
    if (d_wired.load(std::memory_order_relaxed)) {
        if (type != wired_type()) {
            throw std::runtime_error(
                side_change_message(link()->identifier(), readers_gpu));
        }
        return;
    }
    uint32_t kind = 0;
    switch (type) {
    case gr::transfer_type::HOST_TO_DEVICE:
        kind = GRCUDA_TRANSFER_HOST_TO_DEVICE;
        break;
    case gr::transfer_type::DEVICE_TO_HOST:
        kind = GRCUDA_TRANSFER_DEVICE_TO_HOST;
        break;
    case gr::transfer_type::DEVICE_TO_DEVICE:
        kind = GRCUDA_TRANSFER_DEVICE_TO_DEVICE;
        break;
    default:
        // Only lock()/unlock() can leave a GPU buffer between CPU blocks.
        throw std::runtime_error(side_change_message(link()->identifier(), false));
    }
    check(grcuda_buffer_set_transfer_type(d_handle, kind), "cuda_buffer transfer type");
    d_wired.store(true, std::memory_order_release);
}

void cuda_buffer::wire_once()
{
    if (!d_wired.load(std::memory_order_acquire)) {
        wire();
    }
}

unsigned cuda_buffer::index_sub(unsigned a, unsigned b)
{
    if (d_transfer_type != gr::transfer_type::DEFAULT_INVALID) {
        note_reader_edge(); // GNU Radio is adding a reader (see note_reader_edge())
    }
    // Circular: the double mapping lets readers run across the end of the ring.
    return (a + d_bufsize - b) % d_bufsize;
}

int cuda_buffer::space_available()
{
    if (d_readers.empty()) {
        return d_bufsize - 1;
    }
    // One item always stays free, so that equal indices mean "empty" for the writer here
    // and for GNU Radio's readers alike; what a reader has not read includes the history
    // preloaded before the writer's first item.
    unsigned most_unread = 0;
    uint64_t min_items_read = d_readers[0]->nitems_read();
    for (const gr::buffer_reader* reader : d_readers) {
        min_items_read = std::min(min_items_read, reader->nitems_read());
        most_unread =
            std::max(most_unread, index_sub(d_write_index, reader->get_read_index()));
    }
    if (min_items_read != d_last_min_items_read) {
        prune_tags(d_last_min_items_read);
        d_last_min_items_read = min_items_read;
    }
    if (gr::cuda_block::instances_exist()) {
        synchronize_stream_readers();
    }
    return static_cast<int>(d_bufsize - 1 - most_unread);
}

// A reader with the mixin consumes its items when its work() returns, with its kernels
// possibly still reading them on d_stream; GNU Radio 3.10.5.1 has no hook at consume(),
// so the writer, before it is told the space is free, waits for that stream.
void cuda_buffer::synchronize_stream_readers()
{
    for (const gr::buffer_reader* reader : d_readers) {
        const gr::cuda_block* mixin = stream_mixin(reader->link());
        if (mixin == nullptr) {
            continue;
        }
        uint64_t& synchronized = d_synchronized_reads[reader];
        if (reader->nitems_read() != synchronized) {
            synchronized = reader->nitems_read();
            synchronize(*mixin, "cuda_buffer: waiting for a gr::cuda_block reader");
        }
    }
}

void* cuda_buffer::write_pointer()
{
    wire_once();
    void* pointer = nullptr;
    check(grcuda_buffer_writer_pointer(d_handle, d_write_index, &pointer),
          "cuda_buffer write pointer");
    if (d_wired.load(std::memory_order_acquire)) {
        // Order the writer after earlier reads of the span it may write: the free space,
        // but never more than half the ring, the most GNU Radio's scheduler lets a block
        // write per call. The bound matters: when readers keep up, the free space reaches
        // the items they just read, and waiting for those reads would serialise writer
        // and readers.
        int space = 0;
        {
            gr::thread::scoped_lock guard(*mutex());
            space = space_available();
        }
        const int most_written = std::min<int>(space, d_bufsize / 2);
        check(grcuda_buffer_begin_write(d_handle, d_write_index, most_written),
              "cuda_buffer begin_write");
    }
    return pointer;
}

const void* cuda_buffer::_read_pointer(unsigned int read_index)
{
    wire_once();
    const void* pointer = nullptr;
    // CPU readers (device-to-host edges) first wait for the copies of what they may read.
    check(grcuda_buffer_begin_read(d_handle, read_index, &pointer),
          "cuda_buffer read pointer");
    // A reader with the mixin launches kernels on a stream the buffer does not order:
    // what it is offered must be written first.
    for (const gr::buffer_reader* reader :
         gr::cuda_block::instances_exist() ? d_readers : no_readers) {
        if (reader->get_read_index() != read_index ||
            stream_mixin(reader->link()) == nullptr) {
            continue;
        }
        const int available = reader->items_available();
        if (available > 0) {
            check(grcuda_buffer_wait_published(
                      d_handle, read_index, static_cast<size_t>(available)),
                  "cuda_buffer: inputs of a gr::cuda_block");
        }
        break;
    }
    return pointer;
}

void cuda_buffer::post_work(int nitems)
{
    if (nitems <= 0) {
        return;
    }
    wire_once();
    // A writer with the mixin enqueued its work on a stream the buffer does not order:
    // readers may see the items once it is done.
    if (const gr::cuda_block* mixin =
            gr::cuda_block::instances_exist() ? stream_mixin(link()) : nullptr) {
        synchronize(*mixin, "cuda_buffer: waiting for a gr::cuda_block writer");
    }
    check(grcuda_buffer_post_work(d_handle, d_write_index, nitems),
          "cuda_buffer post_work");
}

bool cuda_buffer::input_blocked_callback(int, int, unsigned) { return false; }

bool cuda_buffer::output_blocked_callback(int, bool) { return false; }

} // namespace cuda
} // namespace gr
