// SPDX-License-Identifier: GPL-3.0-or-later

//! The block work-wrapper: what a GPU block holds and calls around its work().
//!
//! A [`Block`] owns the block's non-blocking stream and knows the buffers on its ports: it is
//! the writer of its output buffers and a reader of its input buffers, registered with its
//! stream. Around each work() call the block (or the buffer hooks, for it) calls
//! [`Block::begin_work`] before enqueuing kernels on [`Block::stream`], and
//! [`Block::end_work`] after, reporting what it consumed. `post_work` on each output buffer
//! stays with GNU Radio's hook, which runs after work() returns. One block is used by one
//! thread at a time (GNU Radio's thread for that block).

use crate::buffer::{Buffer, ReaderId};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::stream::Stream;
use std::sync::Arc;

pub struct Block {
    stream: Arc<Stream>,
    inputs: Vec<Input>,
    outputs: Vec<Arc<Buffer>>,
}

struct Input {
    buffer: Arc<Buffer>,
    reader: ReaderId,
}

/// What a block is about to write on one output port.
#[derive(Clone, Copy, Debug)]
pub struct WriteRequest {
    pub write_index: usize,
    pub max_items: usize,
}

/// What a block consumed on one input port.
#[derive(Clone, Copy, Debug)]
pub struct Consumption {
    pub read_index: usize,
    pub nitems: usize,
}

impl Block {
    /// A block with a new non-blocking stream on `device`.
    pub fn new(device: &Device) -> Result<Block> {
        Ok(Block { stream: Arc::new(Stream::new(device)?), inputs: Vec::new(), outputs: Vec::new() })
    }

    pub fn stream(&self) -> &Arc<Stream> {
        &self.stream
    }

    /// Registers this block as a reader of `buffer`; returns the input port number.
    pub fn attach_input(&mut self, buffer: Arc<Buffer>) -> Result<usize> {
        let reader = buffer.add_reader(Some(self.stream.clone()))?;
        self.inputs.push(Input { buffer, reader });
        Ok(self.inputs.len() - 1)
    }

    /// Makes this block the writer of `buffer`; returns the output port number.
    pub fn attach_output(&mut self, buffer: Arc<Buffer>) -> Result<usize> {
        buffer.set_writer_stream(Some(self.stream.clone()))?;
        self.outputs.push(buffer);
        Ok(self.outputs.len() - 1)
    }

    /// The reader id of input `port` in its buffer.
    pub fn input_reader(&self, port: usize) -> Result<ReaderId> {
        Ok(self.input(port)?.reader)
    }

    fn input(&self, port: usize) -> Result<&Input> {
        self.inputs.get(port).ok_or_else(|| {
            Error::invalid_argument(format!(
                "input port {port} does not exist: the block has {} input(s)",
                self.inputs.len()
            ))
        })
    }

    /// Before work(): orders this block's stream after every earlier read of the spans it is
    /// about to write. One request per output port, in port order.
    pub fn begin_work(&self, writes: impl ExactSizeIterator<Item = WriteRequest>) -> Result<()> {
        check_port_count("begin_work", "output", writes.len(), self.outputs.len())?;
        for (buffer, write) in self.outputs.iter().zip(writes) {
            buffer.begin_write(write.write_index, write.max_items)?;
        }
        Ok(())
    }

    /// After work() enqueued its kernels: reports what was consumed on each input port, in
    /// port order, so writers upstream wait for these reads before overwriting.
    pub fn end_work(&self, consumed: impl ExactSizeIterator<Item = Consumption>) -> Result<()> {
        check_port_count("end_work", "input", consumed.len(), self.inputs.len())?;
        for (input, consumption) in self.inputs.iter().zip(consumed) {
            input.buffer.consume(input.reader, consumption.read_index, consumption.nitems)?;
        }
        Ok(())
    }

    /// Blocks until everything enqueued on the block's stream is complete (at stop()).
    pub fn synchronize(&self) -> Result<()> {
        self.stream.synchronize()
    }
}

fn check_port_count(call: &str, kind: &str, given: usize, attached: usize) -> Result<()> {
    if given != attached {
        return Err(Error::invalid_argument(format!(
            "{call} got {given} {kind} port entries but the block has {attached} {kind}(s) attached"
        )));
    }
    Ok(())
}
