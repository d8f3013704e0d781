// SPDX-License-Identifier: GPL-3.0-or-later

//! The C API: the only module with `extern "C"` functions.
//!
//! Every entry point runs inside [`guard`], which catches panics (a panic unwinding into C
//! would abort GNU Radio) and turns errors into a [`grcuda_status`] plus a thread-local
//! message. Handles are opaque structs owning an object of the safe core; `*_new` returns one
//! through an out-parameter, `*_free` accepts NULL. C passes enums as plain integers, which
//! are validated here before any Rust enum exists. The header is generated from this module
//! by cbindgen; the doc comments below become its documentation.

// C hands us raw pointers: this module checks them for NULL, and the rest of their validity
// is the caller's contract, written in the header. So the entry points are plain (safe)
// extern "C" functions that dereference pointer arguments.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

mod block;
mod buffer;
mod device;
mod event;
mod expression;
mod fft;
mod filter;
mod kernel_cache;
mod kernels;
mod log;
mod memory;
mod status;
mod stream;

pub use block::*;
pub use buffer::*;
pub use device::*;
pub use event::*;
pub use expression::*;
pub use fft::*;
pub use filter::*;
pub use kernel_cache::*;
pub use kernels::*;
pub use log::*;
pub use memory::*;
pub use status::*;
pub use stream::*;

use crate::error::{Error, Result};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `body`, turning its error or panic into a status and the thread's last-error message.
pub(crate) fn guard(body: impl FnOnce() -> Result<()>) -> grcuda_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => grcuda_status::GRCUDA_STATUS_OK,
        Ok(Err(error)) => status::set_last_error(&error),
        Err(payload) => {
            let what = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            status::set_last_panic(what)
        }
    }
}

/// Runs an infallible getter; a panic (a bug) yields `fallback`.
pub(crate) fn guard_value<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// Borrows a handle argument, rejecting NULL with a message naming the argument.
pub(crate) fn borrow<'a, T>(pointer: *const T, name: &str) -> Result<&'a T> {
    unsafe { pointer.as_ref() }.ok_or_else(|| Error::invalid_argument(format!("{name} is NULL")))
}

/// Borrows a mutable handle argument, rejecting NULL.
pub(crate) fn borrow_mut<'a, T>(pointer: *mut T, name: &str) -> Result<&'a mut T> {
    unsafe { pointer.as_mut() }.ok_or_else(|| Error::invalid_argument(format!("{name} is NULL")))
}

/// Runs the body of a function with an out-parameter, inside [`guard`]. The out-parameter is
/// cleared (set to `cleared`: NULL, 0 or an all-zero struct) before anything else happens,
/// before any other argument is checked, so it holds a defined value however the call fails:
/// a NULL handle, a bad argument, an error or a panic. A NULL `pointer` is InvalidArgument
/// naming `name`. `body` returns the result, which is stored only when it succeeds; a handle
/// made by `body` is thus either handed to C or dropped, never both.
///
/// Every exported function with an out-parameter goes through here, which is what the
/// header's promise about out-parameters rests on.
pub(crate) fn guard_out<T: Copy>(
    pointer: *mut T,
    name: &str,
    cleared: T,
    body: impl FnOnce() -> Result<T>,
) -> grcuda_status {
    guard(|| {
        if pointer.is_null() {
            return Err(Error::invalid_argument(format!("{name} is NULL")));
        }
        // Written through the raw pointer: what C left there may not be a valid `T`.
        unsafe { pointer.write(cleared) };
        let value = body()?;
        unsafe { pointer.write(value) };
        Ok(())
    })
}

/// Borrows `count` elements from C, rejecting NULL unless the count is 0.
pub(crate) fn borrow_slice<'a, T>(pointer: *const T, count: usize, name: &str) -> Result<&'a [T]> {
    if count == 0 {
        return Ok(&[]);
    }
    if pointer.is_null() {
        return Err(Error::invalid_argument(format!("{name} is NULL but its count is {count}")));
    }
    Ok(unsafe { std::slice::from_raw_parts(pointer, count) })
}

/// Moves an object to the heap and hands its ownership to C.
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Takes back ownership of a handle from C and drops it; NULL is ignored.
pub(crate) fn free_handle<T>(handle: *mut T) {
    if !handle.is_null() {
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(handle) })));
    }
}
