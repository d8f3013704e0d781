// SPDX-License-Identifier: GPL-3.0-or-later

//! C API: where the library's messages go (see `crate::log`).

use super::guard_value;
use crate::log::{self, Level};
use std::ffi::{CString, c_char, c_void};

/// Message level: information, such as the backend chosen when no GPU is usable.
pub const GRCUDA_LOG_INFO: u32 = 1;
/// Message level: something the user should fix, such as a kernel cache that cannot be
/// written.
pub const GRCUDA_LOG_WARNING: u32 = 2;

/// Receives one message of the library: its level (GRCUDA_LOG_*), the text (valid only during
/// the call; no "grcuda:" prefix, no newline) and the `context` given to
/// grcuda_set_log_callback(). Called from any thread; it must not call back into the library.
#[allow(non_camel_case_types)]
pub type grcuda_log_callback = Option<unsafe extern "C" fn(level: u32, message: *const c_char, context: *mut c_void)>;

/// The application's context pointer, passed back untouched; the application answers for
/// using it from any thread.
struct Context(*mut c_void);
unsafe impl Send for Context {}
unsafe impl Sync for Context {}

impl Context {
    fn pointer(&self) -> *mut c_void {
        self.0
    }
}

/// Sends the library's messages that are not the result of a call (the backend chosen when no
/// GPU is usable, a kernel cache that cannot be written) to `callback`, with `context`; NULL
/// sends them to stderr again (the default). Failed calls report through their status and
/// grcuda_last_error_message(), never here. Call it at start-up, before other calls.
#[unsafe(no_mangle)]
pub extern "C" fn grcuda_set_log_callback(callback: grcuda_log_callback, context: *mut c_void) {
    guard_value((), || {
        let sink = callback.map(|callback| {
            let context = Context(context);
            Box::new(move |level: Level, message: &str| {
                let level = match level {
                    Level::Info => GRCUDA_LOG_INFO,
                    Level::Warning => GRCUDA_LOG_WARNING,
                };
                let text = CString::new(message.replace('\0', " ")).unwrap_or_default();
                unsafe { callback(level, text.as_ptr(), context.pointer()) };
            }) as log::Sink
        });
        log::set_sink(sink);
    })
}
