// SPDX-License-Identifier: GPL-3.0-or-later

//! The library's messages that no call returns (here: the automatic choice of the simulated
//! backend when no GPU is usable) reach the callback the application set, once, at their
//! level and without the "grcuda:" prefix stderr gets. This test is alone in its binary: the
//! message is sent once per process.

use grcuda::ffi::*;
use std::ffi::{CStr, c_char, c_void};
use std::sync::Mutex;

type Messages = Mutex<Vec<(u32, String)>>;

unsafe extern "C" fn collect(level: u32, message: *const c_char, context: *mut c_void) {
    let messages = unsafe { &*(context as *const Messages) };
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    messages.lock().unwrap().push((level, text));
}

/// Whether an automatic backend choice picks the GPU here.
fn gpu_usable() -> bool {
    let mut count = 0;
    grcuda_device_count(GRCUDA_BACKEND_CUDA, &mut count) == grcuda_status::GRCUDA_STATUS_OK && count > 0
}

#[test]
fn messages_reach_the_log_callback_once() {
    static MESSAGES: Messages = Mutex::new(Vec::new());
    grcuda_set_log_callback(Some(collect), &MESSAGES as *const Messages as *mut c_void);
    for _ in 0..2 {
        let mut device = std::ptr::null_mut();
        assert_eq!(grcuda_device_open(0, GRCUDA_BACKEND_AUTO, &mut device), grcuda_status::GRCUDA_STATUS_OK);
        grcuda_device_free(device);
    }
    grcuda_set_log_callback(None, std::ptr::null_mut());
    let messages = MESSAGES.lock().unwrap().clone();
    let environment = std::env::var("GRCUDA_BACKEND").unwrap_or_default();
    let automatic = environment.is_empty() || environment == "auto";
    if automatic && !gpu_usable() {
        assert_eq!(messages.len(), 1, "one message for two automatic choices: {messages:?}");
        let (level, text) = &messages[0];
        assert_eq!(*level, GRCUDA_LOG_INFO);
        assert!(text.contains("using the simulated backend") && !text.starts_with("grcuda:"), "{text}");
    } else {
        assert!(messages.is_empty(), "a backend chosen explicitly or found needs no message: {messages:?}");
    }
}
