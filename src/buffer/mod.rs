// SPDX-License-Identifier: GPL-3.0-or-later

//! The buffer: the Rust half of a GNU Radio custom buffer, and its synchronisation protocol.
//!
//! A buffer is a ring of N items shared by one writer (the upstream block) and any number of
//! readers. GNU Radio keeps the read and write indices; the buffer receives them in every
//! call. Its storage depends on the transfer type, set once when the flowgraph is wired:
//!
//! | transfer         | writer writes          | readers read           | copy at post_work |
//! |------------------|------------------------|------------------------|-------------------|
//! | host-to-device   | pinned host ring (CPU) | device ring (GPU)      | host -> device    |
//! | device-to-host   | device ring (GPU)      | pinned host ring (CPU) | device -> host    |
//! | device-to-device | device ring (GPU)      | device ring (GPU)      | none              |
//!
//! Each party has a stream, or none. A party without a stream is host-synchronous: its device
//! work (if any) is complete when it returns to GNU Radio, and the buffer waits on the host on
//! its behalf. The copies run on the buffer's own copy stream. The device ring, the writer's
//! stream, the posts and the copies are the buffer's device's; a GPU reader may be on another
//! device with peer access to it: its kernels read the ring in place, its read records are
//! events of its own device, and the waits between the two devices' streams are the same
//! event waits (CUDA orders streams across devices with them). A GPU reader of a
//! device-to-device edge on a device without peer access reads a mirror of the ring on its
//! own device instead, which every post fills through pinned host memory (`mirror`), at
//! [`Buffer::reader_address`].
//!
//! # Protocol
//!
//! Read-after-write (RAW): `post_work(index, n)` records a *post* event after the work that
//! produced `[index, index + n)` (the writer's stream on device-to-device edges, the copy
//! stream after the DMA otherwise), then makes every reader stream wait for it on the GPU.
//! GNU Radio publishes the items only after `post_work` returns, so a reader can never enqueue
//! work on them before that wait. CPU readers call `wait_published` before touching host data.
//!
//! Write-after-read (WAR): GNU Radio hands the writer a span only after every reader consumed
//! it, but consumed means *enqueued*, not *done*. So readers with streams report each
//! consumption (`consume`), which records a *read* event on their stream for that span. Before
//! a span is overwritten, whoever overwrites it waits for the newest read (and, where a copy
//! reads it, post) record that overlaps it: the writer's stream on the GPU in `begin_write`
//! (device-to-device, device-to-host), the copy stream before the DMA (host-to-device), or the
//! host for host-synchronous writers (the CPU writer of a host-to-device edge waits for the
//! DMA that last read its host span).
//!
//! Nothing waits on the host in the steady state: every post and read record goes into a
//! ring of `pending::SLOTS` events, and only reusing a slot whose work is still in flight
//! waits. That bounds the CPU's lead over the GPU without serialising consecutive work()
//! calls; waiting only for *overlapping* records lets the copy of the next chunk overlap the
//! kernels still reading the previous one.
//!
//! # Threads
//!
//! The control thread creates the buffer, sets the transfer type and registers parties. The
//! writer's thread calls `begin_write` and `post_work`; each reader's thread calls `consume`
//! and `wait_published`. Any thread may read pointers. Internal state is behind mutexes held
//! only for bookkeeping, never across a host wait on another party.

mod mirror;
mod pending;
pub mod ring_span;

use crate::device::Device;
use crate::error::{Error, Result};
use crate::event::{Event, HostWait};
use crate::memory::{DeviceRing, HostRing, sizing};
use crate::stream::Stream;
use mirror::Mirror;
use pending::PendingWork;
use ring_span::RingSpan;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock};

pub(crate) use pending::SLOTS as MAX_RECORDS_IN_FLIGHT;

/// Which side of the edge is on the GPU; decided by GNU Radio when it wires the flowgraph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransferType {
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
}

impl TransferType {
    /// The writer is a CPU block writing the host ring (host-to-device).
    pub fn writer_on_host(self) -> bool {
        self == TransferType::HostToDevice
    }

    /// The readers are CPU blocks reading the host ring (device-to-host).
    pub fn readers_on_host(self) -> bool {
        self == TransferType::DeviceToHost
    }
}

/// Identifies a reader of one buffer in the C API: its place in registration order.
pub type ReaderId = usize;

/// A registered reader, as [`Buffer::add_reader`] and [`Buffer::reader`] return it: its id, and
/// direct access to its records for the reader's thread, which reports every consumption
/// through it without looking the reader up.
pub struct ReaderHandle {
    id: ReaderId,
    reader: Arc<Reader>,
    /// The [`Buffer::serial`] of the buffer it belongs to.
    buffer: u64,
}

impl ReaderHandle {
    pub fn id(&self) -> ReaderId {
        self.id
    }
}

pub struct Buffer {
    /// Tells this buffer's reader handles from another's: unique in the process.
    serial: u64,
    device: Device,
    item_size: usize,
    ring_items: usize,
    host_wait: HostWait,
    device_ring: DeviceRing,
    transfer: OnceLock<Transfer>,
    writer: Mutex<Writer>,
    posts: Mutex<PendingWork>,
    readers: RwLock<Vec<Arc<Reader>>>,
}

/// What exists once the transfer type is known.
struct Transfer {
    kind: TransferType,
    /// The host side of host-to-device and device-to-host edges.
    host_ring: Option<HostRing>,
    /// Runs the DMA of host-to-device and device-to-host edges.
    copy_stream: Option<Stream>,
}

struct Writer {
    stream: Option<Arc<Stream>>,
    /// Marks the writer's work for the copy stream to wait on (device-to-host).
    done: Event,
    /// An event the writer recorded after all its work of the current call
    /// ([`Buffer::offer_post_event`]), which the call's post uses instead of a record of
    /// its own. Cleared by `begin_write`, so it never outlives the call.
    offered: Option<Arc<Event>>,
}

struct Reader {
    stream: Mutex<Option<Arc<Stream>>>,
    reads: Mutex<PendingWork>,
    /// The reader's copy of the ring, for a reader without peer access to the ring's device.
    mirror: Mutex<Option<Mirror>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock is reported at the C boundary; the bookkeeping stays
    // usable, so keep going rather than poisoning every later call.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Buffer {
    /// A buffer of at least `min_items` items of `item_size` bytes, rounded up to the device's
    /// ring granularity and to whole items. `host_wait` says how host waits wait (spin or sleep).
    pub fn new(device: &Device, item_size: usize, min_items: usize, host_wait: HostWait) -> Result<Buffer> {
        let bytes = sizing::ring_bytes(min_items, item_size, device.info().ring_granularity)?;
        let device_ring = DeviceRing::new(device, bytes)?;
        static SERIALS: AtomicU64 = AtomicU64::new(0);
        Ok(Buffer {
            serial: SERIALS.fetch_add(1, Ordering::Relaxed),
            device: device.clone(),
            item_size,
            ring_items: bytes / item_size,
            host_wait,
            device_ring,
            transfer: OnceLock::new(),
            writer: Mutex::new(Writer { stream: None, done: Event::new(device, host_wait)?, offered: None }),
            posts: Mutex::new(PendingWork::new(device, host_wait)?),
            readers: RwLock::new(Vec::new()),
        })
    }

    pub fn item_size(&self) -> usize {
        self.item_size
    }

    /// N: the items in one lap of the ring.
    pub fn ring_items(&self) -> usize {
        self.ring_items
    }

    pub fn transfer_type(&self) -> Option<TransferType> {
        self.transfer.get().map(|t| t.kind)
    }

    /// Sets the transfer type, once, and allocates what it needs (host ring, copy stream).
    pub fn set_transfer_type(&self, kind: TransferType) -> Result<()> {
        if let Some(existing) = self.transfer.get() {
            return Err(Error::invalid_argument(format!(
                "the transfer type is already set (to {:?}); it can be set only once per buffer",
                existing.kind
            )));
        }
        if kind.writer_on_host() && lock(&self.writer).stream.is_some() {
            return Err(host_writer_with_stream());
        }
        if kind.readers_on_host() && self.read_readers().iter().any(|r| lock(&r.stream).is_some()) {
            return Err(host_reader_with_stream());
        }
        let transfer = match kind {
            TransferType::DeviceToDevice => Transfer { kind, host_ring: None, copy_stream: None },
            _ => Transfer {
                kind,
                host_ring: Some(HostRing::new(&self.device, self.device_ring.size())?),
                copy_stream: Some(Stream::new(&self.device)?),
            },
        };
        self.transfer
            .set(transfer)
            .map_err(|_| Error::invalid_argument("the transfer type was set twice at once from two threads"))
    }

    fn transfer(&self) -> Result<&Transfer> {
        self.transfer.get().ok_or_else(|| {
            Error::invalid_argument(
                "the buffer's transfer type is not set: call set_transfer_type before reading or writing",
            )
        })
    }

    fn check_writer_stream(&self, stream: &Option<Arc<Stream>>) -> Result<()> {
        stream.as_ref().map_or(Ok(()), |stream| self.check_writer_device(stream.device()))
    }

    /// Refuses a writer on another device than the buffer's: the writer's records and the
    /// ring's memory are the buffer's device's.
    pub fn check_writer_device(&self, device: &Device) -> Result<()> {
        if !device.is_same_device(&self.device) {
            return Err(Error::invalid_argument(format!(
                "the stream belongs to {} (ordinal {}) but the buffer to {} (ordinal {})",
                device.info().name,
                device.info().ordinal,
                self.device.info().name,
                self.device.info().ordinal
            )));
        }
        Ok(())
    }

    /// Sets the writer's stream (`None`: the writer is host-synchronous or on the CPU). Work
    /// recorded with the previous stream is waited for first.
    pub fn set_writer_stream(&self, stream: Option<Arc<Stream>>) -> Result<()> {
        self.check_writer_stream(&stream)?;
        if stream.is_some() && self.transfer_type().is_some_and(TransferType::writer_on_host) {
            return Err(host_writer_with_stream());
        }
        let mut writer = lock(&self.writer);
        lock(&self.posts).wait_all()?;
        writer.stream = stream;
        Ok(())
    }

    /// Whether `stream` is the writer's stream (true for `None` when the writer has none).
    pub fn is_written_by(&self, stream: Option<&Arc<Stream>>) -> bool {
        match (&lock(&self.writer).stream, stream) {
            (Some(writer), Some(stream)) => Arc::ptr_eq(writer, stream),
            (writer, stream) => writer.is_none() && stream.is_none(),
        }
    }

    /// Registers a reader (`None`: a CPU reader, or a host-synchronous device reader). Its
    /// stream may be on another device than the buffer's: one that can access its memory
    /// ([`Buffer::check_reader_device`]) reads the ring in place; one without peer access, of
    /// a device-to-device edge, reads a mirror of it ([`Buffer::reader_address`]).
    pub fn add_reader(&self, stream: Option<Arc<Stream>>) -> Result<ReaderHandle> {
        let mirror = self.reader_access(&stream)?;
        let reads = PendingWork::new(self.reader_device(&stream), self.host_wait)?;
        let reader =
            Arc::new(Reader { stream: Mutex::new(stream), reads: Mutex::new(reads), mirror: Mutex::new(mirror) });
        let mut readers = self.readers.write().unwrap_or_else(|p| p.into_inner());
        readers.push(reader.clone());
        Ok(ReaderHandle { id: readers.len() - 1, reader, buffer: self.serial })
    }

    /// Changes a reader's stream: a block restarted with a new stream, or `None` for a reader
    /// that left (its block reads another buffer now), for which writers then stop ordering a
    /// stream after this buffer's posts. Its recorded reads are waited for first.
    pub fn set_reader_stream(&self, reader: &ReaderHandle, stream: Option<Arc<Stream>>) -> Result<()> {
        let reader = self.own(reader)?;
        let mut current = lock(&reader.stream);
        let mut reads = lock(&reader.reads);
        reads.wait_all()?;
        let mut mirror = lock(&reader.mirror);
        let device = stream.as_ref().map(|stream| stream.device());
        if !matches!((mirror.as_ref(), device), (Some(kept), Some(device)) if kept.device().is_same_device(device)) {
            if let Some(old) = mirror.take() {
                old.synchronize()?;
            }
            *mirror = self.reader_access(&stream)?;
        }
        // A stream of another device records into events of its own device.
        let device = self.reader_device(&stream);
        if !reads.device().is_same_device(device) {
            *reads = PendingWork::new(device, self.host_wait)?;
        }
        *current = stream;
        Ok(())
    }

    /// The device whose events a reader's records use: its stream's, or the buffer's.
    fn reader_device<'a>(&'a self, stream: &'a Option<Arc<Stream>>) -> &'a Device {
        stream.as_ref().map_or(&self.device, |stream| stream.device())
    }

    /// Checks a reader's stream and gives its device access to the ring: in place where it
    /// can read the ring's memory, else through a mirror (returned), on device-to-device edges.
    fn reader_access(&self, stream: &Option<Arc<Stream>>) -> Result<Option<Mirror>> {
        let Some(stream) = stream else { return Ok(None) };
        self.check_reader_device(stream.device())?;
        if self.transfer_type().is_some_and(TransferType::readers_on_host) {
            return Err(host_reader_with_stream());
        }
        if self.device.can_be_read_by(stream.device())? {
            self.device_ring.grant_access(stream.device())?;
            return Ok(None);
        }
        Ok(Some(Mirror::new(&self.device, stream.device(), self.device_ring.size(), self.host_wait)?))
    }

    /// Refuses a reader on a device whose kernels cannot reach the buffer's data: one of
    /// another backend, or, but on device-to-device edges (where it reads a mirror), a GPU
    /// without peer access to the buffer's GPU. Readers on the buffer's device, or on a GPU
    /// with peer access to it, are accepted.
    pub fn check_reader_device(&self, device: &Device) -> Result<()> {
        if device.backend() != self.device.backend() {
            return Err(Error::invalid_argument(format!(
                "a reader on {} cannot read a buffer on {}: a buffer's readers are on its own backend",
                device.describe(),
                self.device.describe()
            )));
        }
        if self.device.can_be_read_by(device)? || self.transfer_type() == Some(TransferType::DeviceToDevice) {
            return Ok(());
        }
        Err(Error::invalid_argument(format!(
            "a reader on {} (ordinal {}) cannot read a buffer on {} (ordinal {}): the devices have no peer \
             access to each other's memory, and only device-to-device edges are copied across; put both \
             blocks on one device",
            device.describe(),
            device.info().ordinal,
            self.device.describe(),
            self.device.info().ordinal
        )))
    }

    fn read_readers(&self) -> std::sync::RwLockReadGuard<'_, Vec<Arc<Reader>>> {
        self.readers.read().unwrap_or_else(|p| p.into_inner())
    }

    /// The reader registered with id `reader`.
    pub fn reader(&self, reader: ReaderId) -> Result<ReaderHandle> {
        let readers = self.read_readers();
        let found = readers.get(reader).cloned().ok_or_else(|| {
            Error::invalid_argument(format!(
                "reader {reader} does not exist: the buffer has {} reader(s)",
                readers.len()
            ))
        })?;
        Ok(ReaderHandle { id: reader, reader: found, buffer: self.serial })
    }

    /// The reader behind a handle of this buffer; a handle of another buffer is refused.
    fn own<'a>(&self, handle: &'a ReaderHandle) -> Result<&'a Reader> {
        if handle.buffer != self.serial {
            return Err(Error::invalid_argument(format!(
                "reader {} belongs to another buffer: use the handle this buffer's add_reader returned",
                handle.id
            )));
        }
        Ok(&handle.reader)
    }

    fn span(&self, index: usize, nitems: usize, what: &str) -> Result<RingSpan> {
        if index >= self.ring_items {
            return Err(Error::invalid_argument(format!(
                "{what} index {index} is out of range: the ring holds {} items (indices 0..{})",
                self.ring_items,
                self.ring_items - 1
            )));
        }
        if nitems > self.ring_items {
            return Err(Error::invalid_argument(format!(
                "{what} of {nitems} items exceeds the ring's {} items",
                self.ring_items
            )));
        }
        Ok(RingSpan::new(index, nitems))
    }

    fn byte_offset(&self, index: usize) -> u64 {
        (index * self.item_size) as u64
    }

    /// Where the writer writes item `index`: host memory on host-to-device edges, device memory
    /// otherwise (also before the transfer type is set). Up to N items from there are contiguous.
    pub fn writer_pointer(&self, index: usize) -> Result<u64> {
        self.span(index, 0, "write")?;
        let base = match self.transfer.get() {
            Some(Transfer { kind: TransferType::HostToDevice, host_ring: Some(host), .. }) => host.address(),
            _ => self.device_ring.address(),
        };
        Ok(base + self.byte_offset(index))
    }

    /// Where readers read item `index`: host memory on device-to-host edges, device memory
    /// otherwise. Up to N items from there are contiguous.
    pub fn reader_pointer(&self, index: usize) -> Result<u64> {
        self.span(index, 0, "read")?;
        let base = match self.transfer.get() {
            Some(Transfer { kind: TransferType::DeviceToHost, host_ring: Some(host), .. }) => host.address(),
            _ => self.device_ring.address(),
        };
        Ok(base + self.byte_offset(index))
    }

    /// Where `reader` reads item `index`: its mirror of the ring where it has one (a reader
    /// without peer access to the buffer's device), else [`Buffer::reader_pointer`].
    pub fn reader_address(&self, reader: &ReaderHandle, index: usize) -> Result<u64> {
        let pointer = self.reader_pointer(index)?;
        Ok(match self.mirror_address(reader)? {
            Some(mirror) => mirror + self.byte_offset(index),
            None => pointer,
        })
    }

    /// The base of `reader`'s mirror of the ring (item i at base + i * item size), or `None`
    /// for a reader that reads the ring itself.
    pub fn mirror_address(&self, reader: &ReaderHandle) -> Result<Option<u64>> {
        Ok(lock(&self.own(reader)?.mirror).as_ref().map(Mirror::address))
    }

    /// Called by a reader before it reads from `read_index`: where it reads, as
    /// [`Buffer::reader_pointer`]. Readers of device-to-host edges are CPU blocks reading the host
    /// ring, so for them this first waits until the copies of everything posted past
    /// `read_index` are done; GPU readers are ordered on the GPU by `post_work` instead.
    pub fn begin_read(&self, read_index: usize) -> Result<u64> {
        let pointer = self.reader_pointer(read_index)?;
        if self.transfer_type().is_some_and(TransferType::readers_on_host) {
            let posted_end = lock(&self.posts).newest_end(self.ring_items);
            let unread = posted_end.map_or(0, |end| (end + self.ring_items - read_index) % self.ring_items);
            if unread > 0 {
                self.wait_newest_post_overlapping(RingSpan::new(read_index, unread), None)?;
            }
        }
        Ok(pointer)
    }

    /// Called by the writer before it writes up to `nitems` items from `write_index`: makes the
    /// writer wait until no earlier work still reads that span.
    pub fn begin_write(&self, write_index: usize, nitems: usize) -> Result<()> {
        let span = self.span(write_index, nitems, "write")?;
        let transfer = self.transfer()?;
        let writer_stream = {
            let mut writer = lock(&self.writer);
            writer.offered = None;
            writer.stream.clone()
        };
        if nitems == 0 {
            return Ok(());
        }
        if transfer.kind == TransferType::HostToDevice {
            // The CPU writes the host ring, possibly more than it posts.
            self.note_host_writes(transfer, span);
        }
        match transfer.kind {
            // The CPU writer must not overwrite host memory a DMA still reads.
            TransferType::HostToDevice => self.wait_newest_post_overlapping(span, None),
            // The writer must not overwrite device memory a DMA still reads.
            TransferType::DeviceToHost => self.wait_newest_post_overlapping(span, writer_stream.as_deref()),
            // The writer must not overwrite device memory a reader's kernel still reads.
            TransferType::DeviceToDevice => self.wait_reads_overlapping(span, writer_stream.as_deref()),
        }
    }

    /// Called by the writer after it wrote `nitems` items from `write_index`, before GNU Radio
    /// publishes them: copies them across host/device edges and orders every reader after them.
    pub fn post_work(&self, write_index: usize, nitems: usize) -> Result<()> {
        let span = self.span(write_index, nitems, "post_work")?;
        let transfer = self.transfer()?;
        if nitems == 0 {
            return Ok(());
        }
        self.note_host_writes(transfer, span);
        let (writer_stream, offered) = {
            let mut writer = lock(&self.writer);
            (writer.stream.clone(), writer.offered.take())
        };
        let post = match (transfer.kind, &transfer.copy_stream) {
            (TransferType::DeviceToDevice, _) => match (&writer_stream, offered) {
                (Some(_), Some(event)) => {
                    lock(&self.posts).adopt(span, &event)?;
                    event
                }
                (Some(stream), None) => lock(&self.posts).record(span, stream)?,
                // A host-synchronous writer's data is already complete: only mirrors copy it.
                (None, _) => return self.order_readers_after(span, None),
            },
            (TransferType::HostToDevice, Some(copy_stream)) => {
                self.wait_reads_overlapping(span, Some(copy_stream))?;
                self.copy(transfer, span, copy_stream)?;
                lock(&self.posts).record(span, copy_stream)?
            }
            (TransferType::DeviceToHost, Some(copy_stream)) => {
                match (&writer_stream, offered) {
                    (Some(_), Some(event)) => copy_stream.wait(&event)?,
                    (Some(writer_stream), None) => {
                        let writer = lock(&self.writer);
                        writer_stream.record(&writer.done)?;
                        copy_stream.wait(&writer.done)?;
                    }
                    (None, _) => {}
                }
                self.copy(transfer, span, copy_stream)?;
                lock(&self.posts).record(span, copy_stream)?
            }
            (_, None) => unreachable!("host/device transfers always have a copy stream"),
        };
        self.order_readers_after(span, Some(&post))
    }

    /// Makes every reader stream wait for `post` of `span` (None: complete already), through
    /// its mirror's copy of the span for a reader with one.
    fn order_readers_after(&self, span: RingSpan, post: Option<&Event>) -> Result<()> {
        for reader in self.read_readers().iter() {
            // Held while the mirror is locked, in set_reader_stream's order: no Arc clone per post.
            let stream = lock(&reader.stream);
            let Some(stream) = stream.as_ref() else { continue };
            match lock(&reader.mirror).as_ref() {
                Some(mirror) => mirror.copy_posted(
                    self.device_ring.address(),
                    span,
                    self.ring_items,
                    self.item_size,
                    post,
                    stream,
                )?,
                None => {
                    if let Some(post) = post {
                        stream.wait(post)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Tells the host ring of host-to-device and device-to-host edges that `span` is written
    /// (by the CPU writer or by a copy), for it to zero that part when it is freed. Writes
    /// happen only in spans a writer began or posted.
    fn note_host_writes(&self, transfer: &Transfer, span: RingSpan) {
        if let Some(host) = &transfer.host_ring {
            host.note_written(span.start * self.item_size, span.len * self.item_size);
        }
    }

    /// The DMA of one post, split at the wrap point: DMA uses only the first mapping of the
    /// host ring, the one registered with CUDA.
    fn copy(&self, transfer: &Transfer, span: RingSpan, stream: &Stream) -> Result<()> {
        let host = transfer.host_ring.as_ref().expect("host/device transfers have a host ring").address();
        let device = self.device_ring.address();
        for (start, len) in span.unwrapped(self.ring_items) {
            if len == 0 {
                continue;
            }
            let (host_at, device_at) = (host + self.byte_offset(start), device + self.byte_offset(start));
            let (destination, source) = match transfer.kind {
                TransferType::HostToDevice => (device_at, host_at),
                _ => (host_at, device_at),
            };
            // Safety: both spans lie inside rings this buffer owns; the protocol keeps other
            // parties off them until the copy's post record completes.
            unsafe { stream.copy_async(destination, source, len * self.item_size)? };
        }
        Ok(())
    }

    /// Makes `waiter` (or the host, when `None`) wait for the newest post that touched `span`.
    fn wait_newest_post_overlapping(&self, span: RingSpan, waiter: Option<&Stream>) -> Result<()> {
        order_after_overlapping(&self.posts, span, self.ring_items, waiter)
    }

    /// Makes `waiter` (or the host, when `None`) wait for every reader's newest read of `span`.
    fn wait_reads_overlapping(&self, span: RingSpan, waiter: Option<&Stream>) -> Result<()> {
        for reader in self.read_readers().iter() {
            order_after_overlapping(&reader.reads, span, self.ring_items, waiter)?;
        }
        Ok(())
    }

    /// Called by a reader after it enqueued all its work on `nitems` items from `read_index`
    /// and before GNU Radio frees them for the writer. Readers without a stream need not call
    /// it (their reads are complete when they return), but may.
    pub fn consume(&self, reader: &ReaderHandle, read_index: usize, nitems: usize) -> Result<()> {
        let reader = self.own(reader)?;
        let span = self.span(read_index, nitems, "consume")?;
        if nitems == 0 {
            return Ok(());
        }
        let stream = lock(&reader.stream);
        if let Some(stream) = stream.as_ref() {
            lock(&reader.reads).record(span, stream)?;
        }
        Ok(())
    }

    /// Reader thread: as [`Buffer::consume`], for a reader whose party recorded `event` on its
    /// stream after all the work that reads the span, so no record of its own is needed.
    pub fn consume_recorded(
        &self,
        reader: &ReaderHandle,
        read_index: usize,
        nitems: usize,
        event: &Arc<Event>,
    ) -> Result<()> {
        let reader = self.own(reader)?;
        let span = self.span(read_index, nitems, "consume")?;
        if nitems > 0 && lock(&reader.stream).is_some() {
            lock(&reader.reads).adopt(span, event)?;
        }
        Ok(())
    }

    /// Writer thread, after enqueuing all its work of this call and before `post_work`, with
    /// nothing enqueued on its stream in between: `event`, recorded on the writer's stream
    /// after that work, marks the call's post, which then needs no record of its own. The
    /// offer lasts until `post_work` or the next `begin_write`.
    pub fn offer_post_event(&self, event: &Arc<Event>) {
        lock(&self.writer).offered = Some(event.clone());
    }

    /// Blocks the calling thread until the posts that wrote `[read_index, read_index + nitems)`
    /// are complete: host-ready data on device-to-host edges, device-ready data otherwise.
    /// CPU readers call it before they read; `nitems` = N waits for everything posted.
    pub fn wait_published(&self, read_index: usize, nitems: usize) -> Result<()> {
        let span = self.span(read_index, nitems, "wait_published")?;
        self.wait_newest_post_overlapping(span, None)
    }

    /// How many of the items `[read_index, read_index + nitems)` are published now (host-ready
    /// on device-to-host edges), without waiting: readers that report only these as available
    /// never wait for a copy, and keep the copies queued back to back.
    pub fn published_items(&self, read_index: usize, nitems: usize) -> Result<usize> {
        let span = self.span(read_index, nitems, "published_items")?;
        let records = lock(&self.posts).pending_overlapping_oldest_first(span, self.ring_items);
        for (record_span, record) in records {
            if !record.event.is_complete()? {
                let first_item = RingSpan::new(read_index, 1);
                if record_span.overlaps(&first_item, self.ring_items) {
                    return Ok(0);
                }
                let ready = (record_span.start + self.ring_items - read_index) % self.ring_items;
                return Ok(ready.min(nitems));
            }
            lock(&self.posts).mark_complete_through(record.sequence);
        }
        Ok(nitems)
    }

    /// Blocks until all work this buffer knows of (posts, copies, recorded reads) is complete.
    pub fn synchronize(&self) -> Result<()> {
        lock(&self.posts).wait_all()?;
        for reader in self.read_readers().iter() {
            lock(&reader.reads).wait_all()?;
            if let Some(mirror) = lock(&reader.mirror).as_ref() {
                mirror.synchronize()?;
            }
        }
        if let Some(copy_stream) = self.transfer.get().and_then(|t| t.copy_stream.as_ref()) {
            copy_stream.synchronize()?;
        }
        Ok(())
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // The rings must outlive every copy and kernel that uses them. Errors here mean the
        // context is gone (process exit), and with it all pending work.
        let _ = self.synchronize();
    }
}

/// Orders `waiter` (or the host, when `None`) after the newest record of `ring` that touched
/// `span`. Write-after-read waits are mostly for work a lap of the ring ago, long complete:
/// records known complete cost nothing, and a record found complete by a query is not waited
/// for, which keeps needless cross-stream dependencies off the GPU's queues. The ring's lock
/// is not held while waiting, so the recording thread never waits for this one.
fn order_after_overlapping(
    ring: &Mutex<PendingWork>,
    span: RingSpan,
    ring_items: usize,
    waiter: Option<&Stream>,
) -> Result<()> {
    let Some(record) = lock(ring).newest_pending_overlapping(span, ring_items) else {
        return Ok(());
    };
    if record.event.is_complete()? {
        lock(ring).mark_complete_through(record.sequence);
        return Ok(());
    }
    match waiter {
        Some(stream) => stream.wait(&record.event),
        None => {
            record.event.synchronize()?;
            lock(ring).mark_complete_through(record.sequence);
            Ok(())
        }
    }
}

fn host_writer_with_stream() -> Error {
    Error::invalid_argument(
        "the writer of a host-to-device buffer is a CPU block and writes host memory: register it without a stream",
    )
}

fn host_reader_with_stream() -> Error {
    Error::invalid_argument(
        "readers of a device-to-host buffer are CPU blocks and read host memory: register them without a stream",
    )
}
