// SPDX-License-Identifier: GPL-3.0-or-later

//! The block work-wrapper: what a GPU block holds and calls around its work().
//!
//! A [`Block`] owns the block's non-blocking stream and a table of its ports, numbered as GNU
//! Radio numbers them. [`Block::attach_ports`] (at every start()) makes the block the writer of
//! its output buffers and a reader of its input buffers, with its stream, and applies the rule
//! for ports in host memory: an input of a device-to-host buffer, or an output of a
//! host-to-device buffer, is read or written by the CPU and registers no stream. After work()
//! enqueued its kernels, the block reports what it consumed on each input, so that the writer
//! upstream waits for those reads before overwriting them: [`Block::end_work`] once for all
//! inputs when nothing more will be enqueued before the outputs' `post_work` (a sync block),
//! with one event recorded on the stream that marks the reads of every input and the posts of
//! every output, or [`Block::consume`] per input, one record each, where the block may enqueue
//! more work afterwards (a general block).
//!
//! The writer side is otherwise not called here: GNU Radio calls the output buffers'
//! `begin_write` and `post_work` hooks for every writer, GPU block or CPU block alike.
//!
//! One block is used by one thread at a time: GNU Radio's control thread at start() and stop(),
//! the block's own thread in between.

use crate::buffer::{Buffer, MAX_RECORDS_IN_FLIGHT, ReaderHandle, TransferType};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::event::{Event, HostWait};
use crate::stream::Stream;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Block {
    stream: Arc<Stream>,
    inputs: Vec<InputPort>,
    outputs: Vec<OutputPort>,
    /// The events `end_work` records, in turn. Twice as many as a buffer keeps records, so a
    /// buffer has moved past a record before the block records its event again.
    work_events: Vec<Arc<Event>>,
    next_work_event: AtomicUsize,
}

/// What a block consumed on one input port, for [`Block::end_work`].
#[derive(Clone, Copy, Debug)]
pub struct Consumption {
    /// GNU Radio's read index of the port before it consumes.
    pub read_index: usize,
    pub nitems: usize,
}

/// An input port: `Host` when no gr-cuda buffer feeds it, or when its buffer's readers read
/// host memory.
enum InputPort {
    Host,
    Device { buffer: Arc<Buffer>, reader: ReaderHandle },
}

/// An output port: `Host` when it writes no gr-cuda buffer, or writes one's host ring.
enum OutputPort {
    Host,
    Device(Arc<Buffer>),
}

impl Block {
    /// A block with a new non-blocking stream on `device` and no ports; host waits for its
    /// work spin or sleep as `host_wait` says.
    pub fn new(device: &Device, host_wait: HostWait) -> Result<Block> {
        let work_events = (0..2 * MAX_RECORDS_IN_FLIGHT)
            .map(|_| Event::new(device, host_wait).map(Arc::new))
            .collect::<Result<Vec<_>>>()?;
        Ok(Block {
            stream: Arc::new(Stream::new(device)?),
            inputs: Vec::new(),
            outputs: Vec::new(),
            work_events,
            next_work_event: AtomicUsize::new(0),
        })
    }

    pub fn stream(&self) -> &Arc<Stream> {
        &self.stream
    }

    /// The base address of the mirror input `port` reads instead of its buffer's ring (a
    /// block on a device without peer access to the buffer's), or `None` where it reads the
    /// ring itself or has no device buffer.
    pub fn input_mirror(&self, port: usize) -> Result<Option<u64>> {
        match self.inputs.get(port) {
            Some(InputPort::Device { buffer, reader }) => buffer.mirror_address(reader),
            Some(InputPort::Host) => Ok(None),
            None => Err(Error::invalid_argument(format!(
                "input port {port} does not exist: the block has {} input port(s) since its last attach_ports",
                self.inputs.len()
            ))),
        }
    }

    /// Sets the block's ports: one entry per input and per output port, in port order; `None`
    /// for a port without a gr-cuda buffer. A port whose buffer is unchanged keeps its
    /// registration; a buffer that left a port is released (its recorded reads complete first),
    /// and a new one is registered with the block's stream unless the port is in host memory.
    /// Output buffers on another device than the block, and input buffers whose memory the
    /// block's device cannot access, are refused before anything changes.
    pub fn attach_ports(&mut self, inputs: &[Option<Arc<Buffer>>], outputs: &[Option<Arc<Buffer>>]) -> Result<()> {
        for buffer in inputs.iter().flatten() {
            buffer.check_reader_device(self.stream.device())?;
        }
        for (port, buffer) in outputs.iter().enumerate() {
            if let Some(buffer) = buffer {
                buffer.check_writer_device(self.stream.device())?;
                self.check_sole_writer(port, buffer, inputs, outputs)?;
            }
        }
        let kept: Vec<bool> = inputs
            .iter()
            .enumerate()
            .map(|(port, buffer)| matches!((self.inputs.get(port), buffer), (Some(old), Some(new)) if old.holds(new)))
            .collect();
        let mut registered = Vec::new();
        for (port, buffer) in inputs.iter().enumerate() {
            let Some(buffer) = buffer.as_ref().filter(|b| !kept[port] && !reads_host_memory(b)) else {
                continue;
            };
            match buffer.add_reader(Some(self.stream.clone())) {
                Ok(reader) => registered.push((port, InputPort::Device { buffer: buffer.clone(), reader })),
                Err(error) => {
                    for (_, input) in registered {
                        input.release()?;
                    }
                    return Err(error);
                }
            }
        }

        let mut old_inputs = std::mem::take(&mut self.inputs);
        let mut registered = registered.into_iter().peekable();
        for port in 0..inputs.len() {
            self.inputs.push(if kept[port] {
                std::mem::replace(&mut old_inputs[port], InputPort::Host)
            } else if registered.peek().is_some_and(|(registered_port, _)| *registered_port == port) {
                registered.next().expect("peeked").1
            } else {
                InputPort::Host
            });
        }
        for old in old_inputs {
            old.release()?;
        }

        let old_outputs = std::mem::take(&mut self.outputs);
        for buffer in outputs {
            self.outputs.push(match buffer {
                Some(buffer) if !buffer.transfer_type().is_some_and(TransferType::writer_on_host) => {
                    buffer.set_writer_stream(Some(self.stream.clone()))?;
                    OutputPort::Device(buffer.clone())
                }
                _ => OutputPort::Host,
            });
        }
        for old in old_outputs {
            if let OutputPort::Device(buffer) = old
                && !self.outputs.iter().any(|port| matches!(port, OutputPort::Device(b) if Arc::ptr_eq(b, &buffer)))
            {
                buffer.set_writer_stream(None)?;
            }
        }
        Ok(())
    }

    /// Refuses an output buffer the block cannot be the one writer of: a buffer on two of its
    /// output ports, or on one of its inputs too (the block would wait for its own reads), or
    /// one that another block's stream writes. GNU Radio gives every output port a buffer of
    /// its own; these are misuses of the C API, which would interleave two writers' items.
    fn check_sole_writer(
        &self,
        port: usize,
        buffer: &Arc<Buffer>,
        inputs: &[Option<Arc<Buffer>>],
        outputs: &[Option<Arc<Buffer>>],
    ) -> Result<()> {
        let same = |other: &Option<Arc<Buffer>>| other.as_ref().is_some_and(|other| Arc::ptr_eq(other, buffer));
        if let Some(other) = outputs[..port].iter().position(same) {
            return Err(Error::invalid_argument(format!(
                "output ports {other} and {port} name the same buffer: a buffer has one writer, give each output port its own"
            )));
        }
        if let Some(input) = inputs.iter().position(same) {
            return Err(Error::invalid_argument(format!(
                "output port {port} and input port {input} name the same buffer: a block cannot read the buffer it writes"
            )));
        }
        let writes_on_device = !buffer.transfer_type().is_some_and(TransferType::writer_on_host);
        if writes_on_device && !buffer.is_written_by(None) && !buffer.is_written_by(Some(&self.stream)) {
            return Err(Error::invalid_argument(format!(
                "the buffer of output port {port} has another writer: a buffer has one writer, so detach the other \
                 block first (grcuda_block_attach_ports with no ports) or give this port its own buffer"
            )));
        }
        Ok(())
    }

    /// After work() enqueued all its work reading `nitems` items from `read_index` on input
    /// `port`: records when those reads complete. Ports in host memory record nothing.
    pub fn consume(&self, port: usize, read_index: usize, nitems: usize) -> Result<()> {
        match self.inputs.get(port) {
            Some(InputPort::Device { buffer, reader }) => buffer.consume(reader, read_index, nitems),
            Some(InputPort::Host) => Ok(()),
            None => Err(Error::invalid_argument(format!(
                "input port {port} does not exist: the block has {} input port(s) (attach_ports sets them)",
                self.inputs.len()
            ))),
        }
    }

    /// After work() enqueued all its work, with nothing more to enqueue before GNU Radio posts
    /// the outputs: one entry per input port, in port order. Records one event on the stream
    /// that marks the reads of every input and the posts of this call on every output.
    pub fn end_work(&self, consumed: impl ExactSizeIterator<Item = Consumption> + Clone) -> Result<()> {
        if consumed.len() != self.inputs.len() {
            return Err(Error::invalid_argument(format!(
                "end_work got {} input port entries but the block has {} input port(s) (attach_ports sets them)",
                consumed.len(),
                self.inputs.len()
            )));
        }
        let reads_on_device = self
            .inputs
            .iter()
            .zip(consumed.clone())
            .any(|(port, c)| c.nitems > 0 && matches!(port, InputPort::Device { .. }));
        let posts_on_device = self.outputs.iter().any(|port| matches!(port, OutputPort::Device(_)));
        if !reads_on_device && !posts_on_device {
            return Ok(());
        }
        let turn = self.next_work_event.fetch_add(1, Ordering::Relaxed);
        let event = &self.work_events[turn % self.work_events.len()];
        self.stream.record(event)?;
        for (port, consumption) in self.inputs.iter().zip(consumed) {
            if let InputPort::Device { buffer, reader } = port {
                buffer.consume_recorded(reader, consumption.read_index, consumption.nitems, event)?;
            }
        }
        for port in &self.outputs {
            if let OutputPort::Device(buffer) = port {
                buffer.offer_post_event(event);
            }
        }
        Ok(())
    }

    /// Blocks until everything enqueued on the block's stream is complete (at stop()).
    pub fn synchronize(&self) -> Result<()> {
        self.stream.synchronize()
    }
}

/// Readers of device-to-host buffers are CPU blocks: a GPU block's port there is in host memory.
fn reads_host_memory(buffer: &Buffer) -> bool {
    buffer.transfer_type().is_some_and(TransferType::readers_on_host)
}

impl InputPort {
    fn holds(&self, candidate: &Arc<Buffer>) -> bool {
        matches!(self, InputPort::Device { buffer, .. } if Arc::ptr_eq(buffer, candidate))
    }

    /// Gives up the port's registration, once its recorded reads are complete.
    fn release(self) -> Result<()> {
        match self {
            InputPort::Device { buffer, reader } => buffer.set_reader_stream(&reader, None),
            InputPort::Host => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::BackendChoice;

    fn buffer(device: &Device, transfer: TransferType) -> Arc<Buffer> {
        let buffer = Buffer::new(device, 4, 1024, HostWait::Spin).unwrap();
        buffer.set_transfer_type(transfer).unwrap();
        Arc::new(buffer)
    }

    fn reader_count(buffer: &Buffer) -> usize {
        (0..).find(|&id| buffer.reader(id).is_err()).unwrap()
    }

    #[test]
    fn ports_keep_their_registration_across_restarts_and_release_buffers_that_left() {
        let device = Device::open(0, BackendChoice::Simulated).unwrap();
        let mut block = Block::new(&device, HostWait::Spin).unwrap();
        let (first, second) =
            (buffer(&device, TransferType::DeviceToDevice), buffer(&device, TransferType::DeviceToDevice));
        let to_host = buffer(&device, TransferType::DeviceToHost);
        block.attach_ports(&[Some(first.clone()), None, Some(to_host.clone())], &[Some(second.clone())]).unwrap();
        assert_eq!((reader_count(&first), reader_count(&to_host)), (1, 0), "a host port registers nothing");
        block.consume(0, 10, 5).unwrap();
        block.consume(1, 10, 5).unwrap();
        block.consume(2, 10, 5).unwrap();
        assert!(block.consume(3, 0, 1).unwrap_err().to_string().contains("input port 3 does not exist"));

        block.attach_ports(&[Some(first.clone()), None, Some(to_host.clone())], &[Some(second.clone())]).unwrap();
        assert_eq!(reader_count(&first), 1, "a restart keeps the port's reader");

        block.attach_ports(&[Some(second.clone())], &[]).unwrap();
        assert_eq!(reader_count(&second), 1);
        // The reader that left stays registered without a stream: posts no longer order the
        // block's stream, and its reads were complete before it was released.
        let left = first.reader(0).unwrap();
        assert!(first.consume(&left, 0, 1).is_ok());
        assert!(second.consume(&left, 0, 1).unwrap_err().to_string().contains("belongs to another buffer"));
    }

    #[test]
    fn a_buffer_has_one_writer() {
        let device = Device::open(0, BackendChoice::Simulated).unwrap();
        let (mut block, mut other) =
            (Block::new(&device, HostWait::Spin).unwrap(), Block::new(&device, HostWait::Spin).unwrap());
        let (input, output) =
            (buffer(&device, TransferType::DeviceToDevice), buffer(&device, TransferType::DeviceToDevice));
        let refusal = |result: Result<()>| result.unwrap_err().to_string();

        assert!(
            refusal(block.attach_ports(&[], &[Some(output.clone()), None, Some(output.clone())]))
                .contains("output ports 0 and 2 name the same buffer")
        );
        assert!(
            refusal(block.attach_ports(&[None, Some(output.clone())], &[Some(output.clone())]))
                .contains("output port 0 and input port 1 name the same buffer")
        );
        assert!(output.is_written_by(None), "a refused call changes nothing");

        block.attach_ports(&[Some(input.clone())], &[Some(output.clone())]).unwrap();
        block.attach_ports(&[Some(input.clone())], &[Some(output.clone())]).unwrap();
        assert!(refusal(other.attach_ports(&[], &[Some(output.clone())])).contains("has another writer"));
        assert!(output.is_written_by(Some(block.stream())));
        // Two readers of one buffer are GNU Radio's fan-out, even on one block.
        other.attach_ports(&[Some(output.clone()), Some(output.clone())], &[]).unwrap();
        assert_eq!(reader_count(&output), 2);

        block.attach_ports(&[], &[]).unwrap();
        other.attach_ports(&[], &[Some(output.clone())]).unwrap();
        assert!(output.is_written_by(Some(other.stream())), "a detached block's buffer takes a new writer");
    }
}
