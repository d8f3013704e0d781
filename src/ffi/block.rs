// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: the block work-wrapper.

use super::event::host_wait;
use super::{
    borrow, borrow_mut, borrow_slice, free_handle, grcuda_buffer, grcuda_device, grcuda_status, grcuda_stream, guard,
    guard_out, guard_value, into_handle,
};
use crate::block::{Block, Consumption};
use crate::buffer::Buffer;
use crate::error::Result;
use std::ffi::c_void;
use std::sync::Arc;

/// What a block consumed on one input port (see grcuda_block_end_work()).
#[repr(C)]
#[allow(non_camel_case_types)]
pub struct grcuda_consumption {
    /// GNU Radio's read index of this input before it consumes.
    pub read_index: usize,
    /// Items consumed.
    pub nitems: usize,
}

/// A GPU block's share of the library: its stream, and its place as reader of its input
/// buffers and writer of its output buffers. Used by one thread at a time.
#[allow(non_camel_case_types)]
pub struct grcuda_block {
    block: Block,
    stream: grcuda_stream,
}

/// Creates a block with its own non-blocking stream on `device`. Host waits for the events
/// it records spin or sleep as `host_wait_mode` says (GRCUDA_HOST_WAIT_*).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_new(
    device: *const grcuda_device,
    host_wait_mode: u32,
    block_out: *mut *mut grcuda_block,
) -> grcuda_status {
    guard_out(block_out, "block_out", std::ptr::null_mut(), || {
        let block = Block::new(&borrow(device, "device")?.device, host_wait(host_wait_mode)?)?;
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

/// Sets the block's ports, from its start(): `inputs[i]` is the buffer feeding input port i
/// and `outputs[i]` the buffer output port i writes, in GNU Radio's port order; NULL entries
/// are ports without a gr-cuda buffer. Set each buffer's transfer type first: the block
/// registers its stream as reader or writer except on ports in host memory (inputs of
/// device-to-host buffers, outputs of host-to-device buffers). Calling it again (a restart)
/// keeps the registration of ports whose buffer is unchanged and releases buffers that left.
/// A buffer has one writer: a buffer on two output ports, on an input and an output port, or
/// that another block attached as its output (and has not detached) is refused with
/// GRCUDA_INVALID_ARGUMENT, and nothing changes. Call it while the block's thread is not
/// running work(). The block and the buffers keep each other's streams alive; free them in
/// any order.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_attach_ports(
    block: *mut grcuda_block,
    inputs: *const *const grcuda_buffer,
    ninputs: usize,
    outputs: *const *const grcuda_buffer,
    noutputs: usize,
) -> grcuda_status {
    guard(|| {
        let block = borrow_mut(block, "block")?;
        let inputs = port_buffers(inputs, ninputs, "inputs")?;
        let outputs = port_buffers(outputs, noutputs, "outputs")?;
        block.block.attach_ports(&inputs, &outputs)
    })
}

fn port_buffers(ports: *const *const grcuda_buffer, count: usize, name: &str) -> Result<Vec<Option<Arc<Buffer>>>> {
    Ok(borrow_slice(ports, count, name)?
        .iter()
        .map(|&port| unsafe { port.as_ref() }.map(|b| b.buffer.clone()))
        .collect())
}

/// Where the block reads input `port`, when not where GNU Radio's read pointer points: a
/// block on a device without peer access to the buffer's device reads a mirror of the ring on
/// its own device, which every post fills through pinned host memory. `*base_out` is the
/// mirror's address (item i of the ring at `base + i * item size`), or NULL where the block
/// reads the buffer's ring itself or the port has no gr-cuda buffer in device memory. Ask
/// after grcuda_block_attach_ports(); it holds until the next call of that.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_input_mirror(
    block: *const grcuda_block,
    port: usize,
    base_out: *mut *mut c_void,
) -> grcuda_status {
    guard_out(base_out, "base_out", std::ptr::null_mut(), || {
        Ok(borrow(block, "block")?.block.input_mirror(port)?.map_or(std::ptr::null_mut(), |base| base as *mut c_void))
    })
}

/// The block's thread, after work() enqueued all its work that reads `nitems` items from
/// `read_index` (GNU Radio's read index of input `port` before it consumes them): records
/// when those reads complete, so that the writer upstream waits for them before overwriting
/// the items. Ports in host memory record nothing; `nitems` 0 does nothing.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_consume(
    block: *const grcuda_block,
    port: usize,
    read_index: usize,
    nitems: usize,
) -> grcuda_status {
    guard(|| borrow(block, "block")?.block.consume(port, read_index, nitems))
}

/// The block's thread, after work() enqueued all its work, when nothing more will be enqueued
/// on the block's stream before the output buffers' grcuda_buffer_post_work() of this call
/// (a sync block): one entry per input port, in port order, as for grcuda_block_consume().
/// Records one event on the stream that marks the reads of every input and serves as this
/// call's post on every output, in place of a record per port. Where the block may enqueue
/// more work after consuming (a general block), use grcuda_block_consume() instead.
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
        block.block.end_work(consumed.iter().map(|c| Consumption { read_index: c.read_index, nitems: c.nitems }))
    })
}

/// Blocks until all work on the block's stream is complete (call it from stop()).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_block_synchronize(block: *const grcuda_block) -> grcuda_status {
    guard(|| borrow(block, "block")?.block.synchronize())
}
