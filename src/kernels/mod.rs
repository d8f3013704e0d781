// SPDX-License-Identifier: GPL-3.0-or-later

//! Kernels: the CUDA C++ sources in `kernels/`, compiled at first use, and safe launchers.
//!
//! Each launcher takes a [`Stream`](crate::Stream), device addresses as `u64`, counts and
//! constants, checks them (a count of 0 does nothing; NULL, misaligned, overflowing or
//! wrongly overlapping arrays are InvalidArgument), and enqueues the work without waiting
//! for it. On the simulated backend the same launchers run the CPU versions in `cpu`
//! immediately on the host addresses. Launchers are `unsafe` because an address is a plain
//! number: the caller guarantees that it is memory of the right size that stays valid until
//! the work completes.
//!
//! On a CUDA device, the first launch of a kernel compiles its source file with NVRTC for that
//! GPU's architecture (`nvrtc`), keeps the result in an on-disk cache (`disk_cache`) and loads
//! it into the device's context for the rest of the process (`module_cache`). Without NVRTC
//! the launchers fail with Unsupported and say how to install it. [`compile`] and
//! [`programs`] compile the sources for any architecture without a GPU, for CI.
//!
//! Element types are generic parameters ([`Element`], [`WindowElement`]), never separate
//! functions per type; a type's name is the suffix of its kernel's name.

mod add;
mod copy;
mod cpu;
pub(crate) mod disk_cache;
mod element;
mod elementwise;
mod fft_shift;
pub mod fir_filter;
mod interleave;
pub(crate) mod launch;
mod load;
mod logpwrfft;
mod magnitude;
pub(crate) mod module_cache;
mod move_unit;
mod moving_average;
mod multiply_const;
mod nlog10;
mod nvrtc;
mod phase;
mod polyphase;
pub(crate) mod program;
pub(crate) mod shared_fft;
pub(crate) mod validate;
mod window;

pub use add::add;
pub use copy::copy;
pub use disk_cache::CACHE_DIRECTORY_ENV;
pub(crate) use disk_cache::DiskCache;
pub use element::{Complex32, Element, MultipliesInto, MultiplyAdd, WindowElement};
pub use elementwise::{
    ComplexPart, complex_part, complex_to_float, conjugate, float_to_complex, keep_one_in_n, multiply,
    multiply_conjugate,
};
pub use fft_shift::{fft_shift, ifft_shift};
pub use fir_filter::{FirTypes, Rotation, fir_filter, fir_input_items};
pub use interleave::{deinterleave, interleave};
pub use load::load;
pub use logpwrfft::{
    SpectrumInput, logpwrfft_frames, logpwrfft_power, logpwrfft_spectra, logpwrfft_spectra_scratch,
    logpwrfft_spectra_supported, logpwrfft_spectra_twiddles,
};
pub use magnitude::{magnitude, magnitude_squared};
pub use moving_average::{moving_average, moving_average_history};
pub use multiply_const::multiply_const;
pub use nlog10::nlog10;
pub use nvrtc::{compile, version as nvrtc_version};
pub use phase::{advance_phase, quadrature_demod, rotator};
pub use polyphase::{
    ChannelizerOutputs, ChannelizerShape, PolyphaseSample, PolyphaseTap, pfb_channelizer_filter,
    pfb_channelizer_gather, pfb_channelizer_scatter, pfb_channelizer_spectra, pfb_channelizer_spectra_supported,
    pfb_channelizer_spectra_twiddles, rational_resampler, rational_resampler_input_items,
};
pub use program::{Program, programs};
pub use window::window;
