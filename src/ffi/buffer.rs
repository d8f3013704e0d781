// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: buffers, the Rust half of a GNU Radio custom buffer (see the protocol in
//! `crate::buffer`). GNU Radio's hooks map onto these calls: write_pointer() ->
//! grcuda_buffer_writer_pointer() + grcuda_buffer_begin_write(), post_work() ->
//! grcuda_buffer_post_work(), _read_pointer() -> grcuda_buffer_begin_read(), and the edge's
//! transfer type -> grcuda_buffer_set_transfer_type(). GPU blocks register their streams
//! and report consumption through `grcuda_block` rather than the reader calls here.

use super::event::host_wait;
use super::{
    borrow, free_handle, grcuda_device, grcuda_status, grcuda_stream, guard, guard_out, guard_value, into_handle,
};
use crate::buffer::{Buffer, TransferType};
use crate::error::{Error, Result};
use crate::stream::Stream;
use std::ffi::c_void;
use std::sync::Arc;

/// Transfer type: a CPU block writes host memory; GPU blocks read device memory.
pub const GRCUDA_TRANSFER_HOST_TO_DEVICE: u32 = 1;
/// Transfer type: a GPU block writes device memory; CPU blocks read host memory.
pub const GRCUDA_TRANSFER_DEVICE_TO_HOST: u32 = 2;
/// Transfer type: GPU blocks on both sides; no copy.
pub const GRCUDA_TRANSFER_DEVICE_TO_DEVICE: u32 = 3;

/// A ring of items with one writer and any number of readers, in device memory (plus a
/// pinned host ring on host/device edges), with the events that order them.
#[allow(non_camel_case_types)]
pub struct grcuda_buffer {
    pub(crate) buffer: Arc<Buffer>,
}

fn optional_stream(stream: *const grcuda_stream) -> Option<Arc<Stream>> {
    unsafe { stream.as_ref() }.map(|s| s.stream.clone())
}

fn buffer_argument<'a>(buffer: *const grcuda_buffer) -> Result<&'a Buffer> {
    Ok(&borrow(buffer, "buffer")?.buffer)
}

/// Creates a buffer of at least `min_items` items of `item_size` bytes, rounded up to the ring
/// granularity and to whole items (grcuda_buffer_ring_items() tells the result). Host waits
/// spin or sleep as `host_wait_mode` says (GRCUDA_HOST_WAIT_*).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_new(
    device: *const grcuda_device,
    item_size: usize,
    min_items: usize,
    host_wait_mode: u32,
    buffer_out: *mut *mut grcuda_buffer,
) -> grcuda_status {
    guard_out(buffer_out, "buffer_out", std::ptr::null_mut(), || {
        let device = &borrow(device, "device")?.device;
        let buffer = Buffer::new(device, item_size, min_items, host_wait(host_wait_mode)?)?;
        Ok(into_handle(grcuda_buffer { buffer: Arc::new(buffer) }))
    })
}

/// Frees a buffer handle. NULL is ignored. Blocks attached to the buffer keep it alive; its
/// memory is released, after all its pending work completes, when the last user lets go.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_free(buffer: *mut grcuda_buffer) {
    free_handle(buffer)
}

/// Items in one lap of the ring (N); 0 for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_ring_items(buffer: *const grcuda_buffer) -> usize {
    guard_value(0, || unsafe { buffer.as_ref() }.map_or(0, |b| b.buffer.ring_items()))
}

/// Bytes per item; 0 for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_item_size(buffer: *const grcuda_buffer) -> usize {
    guard_value(0, || unsafe { buffer.as_ref() }.map_or(0, |b| b.buffer.item_size()))
}

/// Sets the transfer type (GRCUDA_TRANSFER_*), exactly once, and allocates the host ring and
/// copy stream it needs. Setting it a second time is an error.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_set_transfer_type(buffer: *const grcuda_buffer, transfer_type: u32) -> grcuda_status {
    guard(|| {
        let kind = match transfer_type {
            GRCUDA_TRANSFER_HOST_TO_DEVICE => TransferType::HostToDevice,
            GRCUDA_TRANSFER_DEVICE_TO_HOST => TransferType::DeviceToHost,
            GRCUDA_TRANSFER_DEVICE_TO_DEVICE => TransferType::DeviceToDevice,
            other => {
                return Err(Error::invalid_argument(format!(
                    "transfer type {other} is unknown: use GRCUDA_TRANSFER_HOST_TO_DEVICE (1), \
                     GRCUDA_TRANSFER_DEVICE_TO_HOST (2) or GRCUDA_TRANSFER_DEVICE_TO_DEVICE (3)"
                )));
            }
        };
        buffer_argument(buffer)?.set_transfer_type(kind)
    })
}

/// The transfer type (GRCUDA_TRANSFER_*), or 0 while it is not set.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_transfer_type(buffer: *const grcuda_buffer) -> u32 {
    guard_value(0, || {
        unsafe { buffer.as_ref() }.and_then(|b| b.buffer.transfer_type()).map_or(0, |kind| match kind {
            TransferType::HostToDevice => GRCUDA_TRANSFER_HOST_TO_DEVICE,
            TransferType::DeviceToHost => GRCUDA_TRANSFER_DEVICE_TO_HOST,
            TransferType::DeviceToDevice => GRCUDA_TRANSFER_DEVICE_TO_DEVICE,
        })
    })
}

/// Sets the writer's stream; NULL means the writer is a CPU block or a GPU block that
/// completes its device work before returning. Work recorded on the previous stream is
/// waited for first. The stream must be on the buffer's device (else InvalidArgument).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_set_writer_stream(
    buffer: *const grcuda_buffer,
    stream: *const grcuda_stream,
) -> grcuda_status {
    guard(|| buffer_argument(buffer)?.set_writer_stream(optional_stream(stream)))
}

/// Registers a reader with its stream (NULL: a CPU block, or a GPU block that completes its
/// device work before returning) and returns its id. Readers with a stream must report every
/// consumption with grcuda_buffer_consume(). The stream may be on another GPU than the
/// buffer's if that GPU has peer access to the buffer's (its kernels then read the ring in
/// place); a GPU without peer access is InvalidArgument, with the reason.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_add_reader(
    buffer: *const grcuda_buffer,
    stream: *const grcuda_stream,
    reader_out: *mut usize,
) -> grcuda_status {
    guard_out(reader_out, "reader_out", 0, || Ok(buffer_argument(buffer)?.add_reader(optional_stream(stream))?.id()))
}

/// Changes a reader's stream (NULL allowed, as for grcuda_buffer_add_reader()).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_set_reader_stream(
    buffer: *const grcuda_buffer,
    reader: usize,
    stream: *const grcuda_stream,
) -> grcuda_status {
    guard(|| {
        let buffer = buffer_argument(buffer)?;
        buffer.set_reader_stream(&buffer.reader(reader)?, optional_stream(stream))
    })
}

/// The writer's pointer to item `index` (in [0, N)): host memory on host-to-device edges,
/// device memory otherwise (also before the transfer type is set). N items from there are
/// contiguous, across the wrap point.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_writer_pointer(
    buffer: *const grcuda_buffer,
    index: usize,
    pointer_out: *mut *mut c_void,
) -> grcuda_status {
    guard_out(pointer_out, "pointer_out", std::ptr::null_mut(), || {
        Ok(buffer_argument(buffer)?.writer_pointer(index)? as *mut c_void)
    })
}

/// The readers' pointer to item `index` (in [0, N)): host memory on device-to-host edges,
/// device memory otherwise. N items from there are contiguous, across the wrap point.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_reader_pointer(
    buffer: *const grcuda_buffer,
    index: usize,
    pointer_out: *mut *const c_void,
) -> grcuda_status {
    guard_out(pointer_out, "pointer_out", std::ptr::null(), || {
        Ok(buffer_argument(buffer)?.reader_pointer(index)? as *const c_void)
    })
}

/// Reader thread, before reading from `read_index` (GNU Radio's _read_pointer() hook): the
/// readers' pointer to that item, as grcuda_buffer_reader_pointer(). On device-to-host edges,
/// whose readers are CPU blocks reading host memory, it first blocks until the copies of
/// everything posted past `read_index` are done.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_begin_read(
    buffer: *const grcuda_buffer,
    read_index: usize,
    pointer_out: *mut *const c_void,
) -> grcuda_status {
    guard_out(pointer_out, "pointer_out", std::ptr::null(), || {
        Ok(buffer_argument(buffer)?.begin_read(read_index)? as *const c_void)
    })
}

/// Writer thread, before writing up to `nitems` items from `write_index`: makes the writer
/// (its stream on the GPU, or the calling thread for CPU and stream-less writers) wait until
/// no earlier copy or reader still reads that span. Passing the free space is exact; a larger
/// count only waits longer.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_begin_write(
    buffer: *const grcuda_buffer,
    write_index: usize,
    nitems: usize,
) -> grcuda_status {
    guard(|| buffer_argument(buffer)?.begin_write(write_index, nitems))
}

/// Writer thread, after writing `nitems` items from `write_index` and before they are
/// published to readers: enqueues the host/device copy and orders every reader stream after
/// the data. Does not wait for the GPU except when more than GRCUDA_MAX_RECORDS_IN_FLIGHT
/// posts are still in flight. `nitems` 0 does nothing.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_post_work(
    buffer: *const grcuda_buffer,
    write_index: usize,
    nitems: usize,
) -> grcuda_status {
    guard(|| buffer_argument(buffer)?.post_work(write_index, nitems))
}

/// Reader thread, after enqueuing all work that reads `nitems` items from `read_index`:
/// records when those reads complete, so the writer waits for them before overwriting.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_consume(
    buffer: *const grcuda_buffer,
    reader: usize,
    read_index: usize,
    nitems: usize,
) -> grcuda_status {
    guard(|| {
        let buffer = buffer_argument(buffer)?;
        buffer.consume(&buffer.reader(reader)?, read_index, nitems)
    })
}

/// Reader thread: blocks until the items `[read_index, read_index + nitems)` are published
/// (host-ready on device-to-host edges). CPU readers call it before reading; nitems = the ring
/// size waits for everything posted so far.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_wait_published(
    buffer: *const grcuda_buffer,
    read_index: usize,
    nitems: usize,
) -> grcuda_status {
    guard(|| buffer_argument(buffer)?.wait_published(read_index, nitems))
}

/// Reader thread: how many of the items `[read_index, read_index + nitems)` are published now
/// (host-ready on device-to-host edges), without waiting. A CPU reader that reports only these
/// as available never waits for a copy.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_published_items(
    buffer: *const grcuda_buffer,
    read_index: usize,
    nitems: usize,
    published_out: *mut usize,
) -> grcuda_status {
    guard_out(published_out, "published_out", 0, || buffer_argument(buffer)?.published_items(read_index, nitems))
}

/// Blocks until all work the buffer knows of (copies, posts, recorded reads) is complete.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_buffer_synchronize(buffer: *const grcuda_buffer) -> grcuda_status {
    guard(|| buffer_argument(buffer)?.synchronize())
}

/// Posts (and, per reader, consumptions) that may be in flight on the GPU before the calling
/// thread waits for the oldest one: how far the CPU may run ahead of the GPU.
pub const GRCUDA_MAX_RECORDS_IN_FLIGHT: usize = 16;
const _: () = assert!(GRCUDA_MAX_RECORDS_IN_FLIGHT == crate::buffer::MAX_RECORDS_IN_FLIGHT);
