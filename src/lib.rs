// SPDX-License-Identifier: GPL-3.0-or-later

//! grcuda: CUDA buffers, event synchronisation, a block work-wrapper and kernels for GNU Radio,
//! behind a C ABI.
//!
//! The safe core (everything but `ffi`) knows nothing of GNU Radio or C: devices, streams,
//! events, memory, the buffer protocol, the block wrapper, kernels, FFT and filters. `ffi` is the only
//! module with `extern "C"` functions; it validates every argument, catches every panic and
//! turns errors into status codes. The header `include/grcuda.h` is generated from it.

#![deny(unsafe_op_in_unsafe_fn)]

pub mod block;
pub mod buffer;
pub mod device;
pub mod driver_calls;
pub mod error;
pub mod event;
pub mod expression;
mod fallible;
pub mod ffi;
pub mod fft;
pub mod filter;
pub mod kernels;
pub mod log;
pub mod memory;
pub(crate) mod simulated;
pub mod stream;

pub use device::{Backend, BackendChoice, Device, DeviceInfo};
pub use error::{Error, ErrorKind, Result};
pub use event::{Event, HostWait};
pub use stream::Stream;
