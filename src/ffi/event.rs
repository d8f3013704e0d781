// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: events.

use super::{borrow, free_handle, grcuda_device, grcuda_status, grcuda_stream, guard, guard_out, into_handle};
use crate::error::{Error, Result};
use crate::event::{Event, HostWait};

/// Host waits poll the event: lowest latency, one busy core while waiting.
pub const GRCUDA_HOST_WAIT_SPIN: u32 = 0;
/// Host waits sleep in the driver (CU_EVENT_BLOCKING_SYNC): frees the core, adds wake-up time,
/// and every record of the event interrupts the driver's event thread, which costs the process
/// CPU time whether anyone waits or not.
pub const GRCUDA_HOST_WAIT_BLOCK: u32 = 1;
/// Host waits poll for 50 us where the thread's previous wait was shorter, then sleep in naps
/// between polls: most of the previous wait's length at once, then an eighth of the time
/// waited so far (10 us to 1 ms). Short waits answer at once; a GPU-bound thread, whose waits
/// are long and alike, wakes a few times per wait. Records cost no interrupt.
pub const GRCUDA_HOST_WAIT_ADAPTIVE: u32 = 2;

/// A synchronisation event (no timing).
#[allow(non_camel_case_types)]
pub struct grcuda_event {
    pub(crate) event: Event,
}

pub(crate) fn host_wait(value: u32) -> Result<HostWait> {
    match value {
        GRCUDA_HOST_WAIT_SPIN => Ok(HostWait::Spin),
        GRCUDA_HOST_WAIT_BLOCK => Ok(HostWait::Block),
        GRCUDA_HOST_WAIT_ADAPTIVE => Ok(HostWait::Adaptive),
        other => Err(Error::invalid_argument(format!(
            "host wait {other} is unknown: use GRCUDA_HOST_WAIT_SPIN (0), GRCUDA_HOST_WAIT_BLOCK (1) or \
             GRCUDA_HOST_WAIT_ADAPTIVE (2)"
        ))),
    }
}

/// Creates an event whose host waits spin, sleep or both (GRCUDA_HOST_WAIT_*).
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_event_new(
    device: *const grcuda_device,
    host_wait_mode: u32,
    event_out: *mut *mut grcuda_event,
) -> grcuda_status {
    guard_out(event_out, "event_out", std::ptr::null_mut(), || {
        let device = &borrow(device, "device")?.device;
        Ok(into_handle(grcuda_event { event: Event::new(device, host_wait(host_wait_mode)?)? }))
    })
}

/// Frees an event handle. NULL is ignored. Pending waits on it stay valid.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_event_free(event: *mut grcuda_event) {
    free_handle(event)
}

/// Records the event at the current end of `stream`'s work. The stream must be on the event's
/// device.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_event_record(event: *const grcuda_event, stream: *const grcuda_stream) -> grcuda_status {
    guard(|| borrow(stream, "stream")?.stream.record(&borrow(event, "event")?.event))
}

/// Blocks the calling thread until the event's latest record is complete.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_event_synchronize(event: *const grcuda_event) -> grcuda_status {
    guard(|| borrow(event, "event")?.event.synchronize())
}

/// GRCUDA_STATUS_OK if the event's latest record is complete, GRCUDA_STATUS_NOT_READY if not.
#[must_use]
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_event_query(event: *const grcuda_event) -> grcuda_status {
    let mut complete = false;
    let status = guard(|| {
        complete = borrow(event, "event")?.event.is_complete()?;
        Ok(())
    });
    match (status, complete) {
        (grcuda_status::GRCUDA_STATUS_OK, false) => grcuda_status::GRCUDA_STATUS_NOT_READY,
        _ => status,
    }
}
