//! A small ring of events that mark work still in flight on a buffer's memory.
//!
//! Each record says "this span of the ring is being written (or read) by device work that
//! completes when this event does". A buffer keeps one ring for its posts (the producer's work
//! and the DMA copies) and one per GPU reader (the reader's kernels). Recording into a slot
//! that is still pending first waits for it on the host: that wait is what bounds how far the
//! CPU runs ahead of the GPU (at most `SLOTS` records in flight), and it guarantees that every
//! record dropped from the ring is complete, so only the records still in the ring need to be
//! waited for. All records of one ring come from one stream at a time.

use super::ring_span::RingSpan;
use crate::device::Device;
use crate::error::Result;
use crate::event::{Event, HostWait};
use crate::stream::Stream;
use std::sync::Arc;

/// Records in flight per ring before the recording thread waits.
pub const SLOTS: usize = 16;

struct Record {
    event: Arc<Event>,
    span: RingSpan,
    in_use: bool,
}

pub struct PendingWork {
    records: Vec<Record>,
    /// The slot the next record goes into; the newest record is just before it.
    next: usize,
}

impl PendingWork {
    pub fn new(device: &Device, host_wait: HostWait) -> Result<Self> {
        let records = (0..SLOTS)
            .map(|_| {
                Ok(Record { event: Arc::new(Event::new(device, host_wait)?), span: RingSpan::new(0, 0), in_use: false })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { records, next: 0 })
    }

    /// Marks `span` as busy until the work enqueued so far on `stream` completes.
    pub fn record(&mut self, span: RingSpan, stream: &Stream) -> Result<()> {
        let record = &mut self.records[self.next];
        if record.in_use {
            record.event.synchronize()?;
        }
        record.event.record(stream)?;
        record.span = span;
        record.in_use = true;
        self.next = (self.next + 1) % SLOTS;
        Ok(())
    }

    /// Records from newest to oldest.
    fn newest_first(&self) -> impl Iterator<Item = &Record> {
        (1..=SLOTS).map(move |back| &self.records[(self.next + SLOTS - back) % SLOTS]).filter(|r| r.in_use)
    }

    /// The newest record whose span shares items with `span`: once it completes, all earlier
    /// work on those items has too (records come from one stream, in order).
    pub fn newest_overlapping(&self, span: RingSpan, ring_items: usize) -> Option<Arc<Event>> {
        self.newest_first().find(|r| r.span.overlaps(&span, ring_items)).map(|r| r.event.clone())
    }

    /// The newest record, covering all work recorded so far.
    pub fn newest(&self) -> Option<Arc<Event>> {
        self.newest_first().next().map(|r| r.event.clone())
    }

    /// Waits on the host for every record, then forgets them. Called before the recording
    /// stream changes, because the ring's "newest covers older" rule holds for one stream.
    pub fn wait_all(&mut self) -> Result<()> {
        for record in self.records.iter_mut().filter(|r| r.in_use) {
            record.event.synchronize()?;
            record.in_use = false;
        }
        Ok(())
    }
}
