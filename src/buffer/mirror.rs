// SPDX-License-Identifier: GPL-3.0-or-later

//! A reader's copy of a device-to-device ring, for a GPU reader on a device that cannot read
//! the buffer's device memory (no peer access: GPUs whose PCIe topology has no peer-to-peer).
//!
//! The mirror is a ring of the buffer ring's size on the reader's device, filled through a
//! pinned host staging ring: at each post, a copy stream of the buffer's device waits for the
//! post and copies the span to the host, a copy stream of the reader's device waits for that
//! and copies it into the mirror, and the reader's stream waits for the second copy, where an
//! in-place reader waits for the post. The reader reads the mirror at the ring's offsets.
//!
//! Reuse needs no records of its own: a span of the buffer ring is written again only after
//! the reader's read record of it (the writer waits for it), that record follows the reader's
//! kernels, and those follow both copies of the span; so the next lap's copies into the
//! staging and mirror spans come after the last lap's reads of them. Both copy streams and
//! both events are used by the writer's thread only (in `post_work`), which records each event
//! and has the next stream wait for it before it records the event again.

use crate::device::Device;
use crate::error::Result;
use crate::event::{Event, HostWait};
use crate::memory::{DeviceRing, HostRing};
use crate::stream::Stream;

use super::ring_span::RingSpan;

pub(crate) struct Mirror {
    ring: DeviceRing,
    staging: HostRing,
    /// On the buffer's device: ring -> staging.
    to_host: Stream,
    /// On the reader's device: staging -> mirror.
    to_mirror: Stream,
    staged: Event,
    copied: Event,
}

impl Mirror {
    /// A mirror on `reader` of a ring of `bytes` bytes on `buffer`.
    pub(crate) fn new(buffer: &Device, reader: &Device, bytes: usize, host_wait: HostWait) -> Result<Mirror> {
        Ok(Mirror {
            ring: DeviceRing::new(reader, bytes)?,
            staging: HostRing::new(buffer, bytes)?,
            to_host: Stream::new(buffer)?,
            to_mirror: Stream::new(reader)?,
            staged: Event::new(buffer, host_wait)?,
            copied: Event::new(reader, host_wait)?,
        })
    }

    pub(crate) fn device(&self) -> &Device {
        self.ring.device()
    }

    /// The mirror's base address; item i is where it is in the buffer's ring.
    pub(crate) fn address(&self) -> u64 {
        self.ring.address()
    }

    /// Copies `span` (items of `item_size` bytes) from the buffer's ring at `ring` into the
    /// mirror after `post` (None: the data is complete already), and makes `reader` wait for
    /// the copy. Copies are split at the wrap point: DMA uses only the staging ring's first
    /// mapping, the one registered with CUDA.
    pub(crate) fn copy_posted(
        &self,
        ring: u64,
        span: RingSpan,
        ring_items: usize,
        item_size: usize,
        post: Option<&Event>,
        reader: &Stream,
    ) -> Result<()> {
        if let Some(post) = post {
            self.to_host.wait(post)?;
        }
        let pieces = span.unwrapped(ring_items);
        for &(start, len) in pieces.iter().filter(|(_, len)| *len > 0) {
            let offset = (start * item_size) as u64;
            // Safety: the span lies inside the buffer's ring and the staging ring, which the
            // protocol keeps other parties off until the reader's read record of it.
            unsafe { self.to_host.copy_async(self.staging.address() + offset, ring + offset, len * item_size)? };
            self.staging.note_written(offset as usize, len * item_size);
        }
        self.to_host.record(&self.staged)?;
        self.to_mirror.wait(&self.staged)?;
        for &(start, len) in pieces.iter().filter(|(_, len)| *len > 0) {
            let offset = (start * item_size) as u64;
            // Safety: as above, for the staging ring and the mirror.
            unsafe {
                self.to_mirror.copy_async(
                    self.ring.address() + offset,
                    self.staging.address() + offset,
                    len * item_size,
                )?
            };
        }
        self.to_mirror.record(&self.copied)?;
        reader.wait(&self.copied)
    }

    /// Blocks until both copies of every post are done.
    pub(crate) fn synchronize(&self) -> Result<()> {
        self.to_host.synchronize()?;
        self.to_mirror.synchronize()
    }
}
