// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: the block work-wrapper.

use super::{
    borrow, borrow_mut, borrow_slice, free_handle, grcuda_buffer, grcuda_device, grcuda_status, grcuda_stream, guard,
    guard_out, guard_value, into_handle,
};
use crate::block::{Block, Consumption, WriteRequest};

/// What a block is about to write on one output port (see grcuda_block_begin_work()).
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct grcuda_write_request {
    /// GNU Radio's write index of the output buffer.
    pub write_index: usize,
    /// The most items work() may write (e.g. noutput_items).
    pub max_items: usize,
}

/// What a block consumed on one input port (see grcuda_block_end_work()).
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct grcuda_consumption {
    /// GNU Radio's read index of this input before the consumption.
    pub read_index: usize,
    /// Items consumed.
    pub nitems: usize,
}

impl From<&grcuda_write_request> for WriteRequest {
    fn from(write: &grcuda_write_request) -> Self {
        WriteRequest { write_index: write.write_index, max_items: write.max_items }
    }
}

impl From<&grcuda_consumption> for Consumption {
    fn from(consumption: &grcuda_consumption) -> Self {
        Consumption { read_index: consumption.read_index, nitems: consumption.nitems }
    }
}

/// A GPU block's share of the library: its stream, and its place as reader of its input
/// buffers and writer of its output buffers. Used by one thread at a time.
#[allow(non_camel_case_types)]
pub struct grcuda_block {
    block: Block,
    stream: grcuda_stream,
}

/// Creates a block with its own non-blocking stream on `device`.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_new(device: *const grcuda_device, block_out: *mut *mut grcuda_block) -> grcuda_status {
    guard_out(block_out, "block_out", std::ptr::null_mut(), || {
        let block = Block::new(&borrow(device, "device")?.device)?;
        let stream = grcuda_stream { stream: block.stream().clone() };
        Ok(into_handle(grcuda_block { block, stream }))
    })
}

/// Frees a block. NULL is ignored. Buffers it was attached to keep its stream alive.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_free(block: *mut grcuda_block) {
    free_handle(block)
}

/// The block's stream, borrowed: valid while the block lives; do not free it. NULL for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_stream(block: *const grcuda_block) -> *const grcuda_stream {
    guard_value(std::ptr::null(), || unsafe { block.as_ref() }.map_or(std::ptr::null(), |b| &b.stream as *const _))
}

/// The block's CUstream as an integer, for kernels, cuFFT and CuPy; 0 when simulated or NULL.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_stream_handle(block: *const grcuda_block) -> u64 {
    guard_value(0, || unsafe { block.as_ref() }.map_or(0, |b| b.block.stream().raw_handle()))
}

/// Registers the block as a reader of `buffer` with its stream; returns the input port number
/// (ports are numbered in attach order).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_attach_input(
    block: *mut grcuda_block,
    buffer: *const grcuda_buffer,
    port_out: *mut usize,
) -> grcuda_status {
    guard_out(port_out, "port_out", 0, || {
        let block = borrow_mut(block, "block")?;
        let buffer = borrow(buffer, "buffer")?.buffer.clone();
        block.block.attach_input(buffer)
    })
}

/// Makes the block the writer of `buffer` with its stream; returns the output port number.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_attach_output(
    block: *mut grcuda_block,
    buffer: *const grcuda_buffer,
    port_out: *mut usize,
) -> grcuda_status {
    guard_out(port_out, "port_out", 0, || {
        let block = borrow_mut(block, "block")?;
        let buffer = borrow(buffer, "buffer")?.buffer.clone();
        block.block.attach_output(buffer)
    })
}

/// The reader id of input `port` in its buffer (for grcuda_buffer_consume()).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_input_reader(
    block: *const grcuda_block,
    port: usize,
    reader_out: *mut usize,
) -> grcuda_status {
    guard_out(reader_out, "reader_out", 0, || borrow(block, "block")?.block.input_reader(port))
}

/// Before work(): one request per attached output port, in port order. Makes the block's
/// stream wait (on the GPU) until earlier reads of the spans it will write are done.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_begin_work(
    block: *const grcuda_block,
    writes: *const grcuda_write_request,
    count: usize,
) -> grcuda_status {
    guard(|| {
        let block = borrow(block, "block")?;
        let writes = borrow_slice(writes, count, "writes")?;
        block.block.begin_work(writes.iter().map(WriteRequest::from))
    })
}

/// After work() enqueued its kernels: one entry per attached input port, in port order.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_end_work(
    block: *const grcuda_block,
    consumed: *const grcuda_consumption,
    count: usize,
) -> grcuda_status {
    guard(|| {
        let block = borrow(block, "block")?;
        let consumed = borrow_slice(consumed, count, "consumed")?;
        block.block.end_work(consumed.iter().map(Consumption::from))
    })
}

/// Blocks until all work on the block's stream is complete (call it from stop()).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_synchronize(block: *const grcuda_block) -> grcuda_status {
    guard(|| borrow(block, "block")?.block.synchronize())
}
