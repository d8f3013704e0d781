// SPDX-License-Identifier: GPL-3.0-or-later

//! Messages of the core that are not the result of a call: the backend chosen for want of a
//! driver, a kernel cache that cannot be written. They go to the sink the application set
//! (GNU Radio's module connects its logger, so each appears once, through `gr::logger`), or to
//! stderr while none is set. A call's own failure is never logged here: its status and
//! last-error message carry it.
//!
//! The sink is set once at start-up, before other calls, and may be called from any thread.

use std::sync::RwLock;

/// How much a message matters, as GNU Radio's logger levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Info,
    Warning,
}

/// Where messages go: called with each message's level and text, from any thread.
pub type Sink = Box<dyn Fn(Level, &str) + Send + Sync>;

static SINK: RwLock<Option<Sink>> = RwLock::new(None);

/// Sends the core's messages to `sink` from now on (`None`: to stderr).
pub fn set_sink(sink: Option<Sink>) {
    *SINK.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = sink;
}

/// Logs `message` at `level`.
pub(crate) fn log(level: Level, message: &str) {
    match SINK.read().unwrap_or_else(|poisoned| poisoned.into_inner()).as_ref() {
        Some(sink) => sink(level, message),
        None => eprintln!("grcuda: {message}"),
    }
}
