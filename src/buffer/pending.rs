// SPDX-License-Identifier: GPL-3.0-or-later

//! A small ring of events that mark work still in flight on a buffer's memory.
//!
//! Each record says "this span of the ring is being written (or read) by device work that
//! completes when this event does". A buffer keeps one ring for its posts (the producer's work
//! and the DMA copies) and one per GPU reader (the reader's kernels). All records of one ring
//! come from one stream at a time, so they complete in the order they were made: knowing that
//! one is complete means every older one is. The ring keeps that knowledge as a flag per record
//! (`pending`), so waits skip records known to be complete without asking the driver.
//!
//! Recording into a slot whose record is still pending first retires it: one query of the
//! record half a ring newer usually proves it and its elders complete; otherwise the host
//! waits for that newer record, which frees half the ring in one wait. That wait is what
//! bounds how far the CPU runs ahead of the GPU (at most `SLOTS` records in flight, and at
//! least `SLOTS / 2 - 1` still queued when the thread wakes), and it guarantees that every
//! record dropped from the ring is complete, so only the records still in the ring need to be
//! waited for.

use super::ring_span::RingSpan;
use crate::device::Device;
use crate::error::Result;
use crate::event::{Event, HostWait};
use crate::stream::Stream;
use std::sync::Arc;

/// Records in flight per ring before the recording thread waits.
pub(crate) const SLOTS: usize = 16;

struct Record {
    /// The slot's own event, which `record` records.
    own_event: Arc<Event>,
    /// The event that marks this record's work: the slot's own, or one the recording party
    /// recorded for several records at once (`adopt`).
    event: Arc<Event>,
    span: RingSpan,
    /// Position in the order of records made by this ring.
    sequence: u64,
    /// Not yet known to be complete.
    pending: bool,
}

/// A record that may still be in flight, to wait for without holding the ring's lock.
pub struct PendingRecord {
    pub event: Arc<Event>,
    pub sequence: u64,
}

pub struct PendingWork {
    /// The device of the ring's events: that of the streams that record into it.
    device: Device,
    records: Vec<Record>,
    /// The slot the next record goes into: the oldest record; the newest is just before it.
    next: usize,
    recorded: u64,
}

impl PendingWork {
    pub fn new(device: &Device, host_wait: HostWait) -> Result<Self> {
        let records = (0..SLOTS)
            .map(|_| {
                let event = Arc::new(Event::new(device, host_wait)?);
                Ok(Record { own_event: event.clone(), event, span: RingSpan::new(0, 0), sequence: 0, pending: false })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self { device: device.clone(), records, next: 0, recorded: 0 })
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Marks `span` as busy until the work enqueued so far on `stream` completes; returns the
    /// record's event.
    pub fn record(&mut self, span: RingSpan, stream: &Stream) -> Result<Arc<Event>> {
        let own_event = self.free_slot()?.own_event.clone();
        stream.record(&own_event)?;
        Ok(self.fill_slot(span, own_event))
    }

    /// Marks `span` as busy until `event`'s latest record completes: an event the party
    /// recorded on its stream once for several records (its reads and its posts), to spare a
    /// record per ring. The party records it again only after this ring moved past it, or
    /// waits it sees are for later work on the same stream, which is safe.
    pub fn adopt(&mut self, span: RingSpan, event: &Arc<Event>) -> Result<()> {
        self.free_slot()?;
        self.fill_slot(span, event.clone());
        Ok(())
    }

    /// The slot the next record goes into, its previous record retired.
    fn free_slot(&mut self) -> Result<&Record> {
        if self.records[self.next].pending {
            self.retire_oldest()?;
        }
        Ok(&self.records[self.next])
    }

    fn fill_slot(&mut self, span: RingSpan, event: Arc<Event>) -> Arc<Event> {
        let sequence = self.recorded;
        let record = &mut self.records[self.next];
        record.event = event.clone();
        record.span = span;
        record.sequence = sequence;
        record.pending = true;
        self.recorded += 1;
        self.next = (self.next + 1) % SLOTS;
        event
    }

    /// Makes the oldest slot reusable. One query of the record half a ring newer usually
    /// proves it and its elders complete. If it is still running, the GPU is a whole ring
    /// behind the host, and the host waits for that newer record rather than the oldest: one
    /// wait (one sleep and wake-up of the thread) then frees half the ring, so a GPU-bound
    /// thread waits once every `SLOTS / 2` records instead of once per record, while the
    /// records newer than the one it waited for stay queued ahead of the GPU.
    fn retire_oldest(&mut self) -> Result<()> {
        let probe = &self.records[(self.next + SLOTS / 2) % SLOTS];
        let awaited = if probe.pending { probe } else { &self.records[self.next] };
        if !awaited.event.is_complete()? {
            awaited.event.synchronize()?;
        }
        self.mark_complete_through(awaited.sequence);
        Ok(())
    }

    /// Records that record `sequence` and every older one are complete.
    pub fn mark_complete_through(&mut self, sequence: u64) {
        for record in self.records.iter_mut().filter(|r| r.sequence <= sequence) {
            record.pending = false;
        }
    }

    /// Pending records from newest to oldest.
    fn pending_newest_first(&self) -> impl Iterator<Item = &Record> {
        (1..=SLOTS).map(move |back| &self.records[(self.next + SLOTS - back) % SLOTS]).filter(|r| r.pending)
    }

    fn handle(record: &Record) -> PendingRecord {
        PendingRecord { event: record.event.clone(), sequence: record.sequence }
    }

    /// The newest pending record whose span shares items with `span`: once it completes, all
    /// earlier work on those items has too.
    pub fn newest_pending_overlapping(&self, span: RingSpan, ring_items: usize) -> Option<PendingRecord> {
        self.pending_newest_first().find(|r| r.span.overlaps(&span, ring_items)).map(Self::handle)
    }

    /// Pending records whose spans share items with `span`, from oldest to newest.
    pub fn pending_overlapping_oldest_first(
        &self,
        span: RingSpan,
        ring_items: usize,
    ) -> Vec<(RingSpan, PendingRecord)> {
        let mut found: Vec<_> = self
            .pending_newest_first()
            .filter(|r| r.span.overlaps(&span, ring_items))
            .map(|r| (r.span, Self::handle(r)))
            .collect();
        found.reverse();
        found
    }

    /// The newest record, if it may still be in flight: it covers all work recorded so far.
    pub fn newest_pending(&self) -> Option<PendingRecord> {
        self.pending_newest_first().next().map(Self::handle)
    }

    /// Where the newest record's span ends (the ring index after its last item); `None` before
    /// the first record.
    pub fn newest_end(&self, ring_items: usize) -> Option<usize> {
        if self.recorded == 0 {
            return None;
        }
        let newest = &self.records[(self.next + SLOTS - 1) % SLOTS];
        Some((newest.span.start + newest.span.len) % ring_items)
    }

    /// Waits on the host until every record is complete. Called before the recording stream
    /// changes, because completion in order holds for one stream.
    pub fn wait_all(&mut self) -> Result<()> {
        if let Some(newest) = self.newest_pending() {
            newest.event.synchronize()?;
            self.mark_complete_through(newest.sequence);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::BackendChoice;

    #[test]
    fn completion_of_a_record_retires_its_elders_and_drops_them_from_waits() {
        let device = Device::open(0, BackendChoice::Simulated).unwrap();
        let stream = Stream::new(&device).unwrap();
        let mut ring = PendingWork::new(&device, HostWait::Spin).unwrap();
        for i in 0..5 {
            ring.record(RingSpan::new(i * 10, 10), &stream).unwrap();
        }
        let overlapping = ring.newest_pending_overlapping(RingSpan::new(25, 1), 100).unwrap();
        assert_eq!(overlapping.sequence, 2);
        ring.mark_complete_through(2);
        assert!(ring.newest_pending_overlapping(RingSpan::new(25, 1), 100).is_none());
        assert_eq!(ring.newest_pending().unwrap().sequence, 4);
        assert!(ring.newest_pending_overlapping(RingSpan::new(45, 1), 100).is_some());
        for i in 0..40 {
            ring.record(RingSpan::new(i % 100, 1), &stream).unwrap();
        }
        assert_eq!(ring.newest_pending().unwrap().sequence, 44);
        ring.wait_all().unwrap();
        assert!(ring.newest_pending().is_none());
    }
}
