// SPDX-License-Identifier: GPL-3.0-or-later

//! The kernel sources, embedded in the library, and how launchers name a kernel in them.
//!
//! Each `kernels/*.cu` file is one [`Program`], compiled by NVRTC as a unit and loaded as one
//! CUDA module; every program includes the shared header `grcuda_common.cuh`, which NVRTC
//! receives from memory. The text is embedded with `include_str!`, so an installed library
//! needs no files beside it. The list here is the single place that names them all: the CI
//! test compiles exactly this list.

/// One kernel source file.
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// The file name, which NVRTC also uses in its messages ("add.cu").
    pub name: &'static str,
    pub source: &'static str,
}

/// Headers the programs may `#include "..."`, as (name, text).
pub(crate) const HEADERS: &[(&str, &str)] = &[("grcuda_common.cuh", include_str!("../../kernels/grcuda_common.cuh"))];

macro_rules! program {
    ($constant:ident, $file:literal) => {
        pub(crate) const $constant: Program =
            Program { name: $file, source: include_str!(concat!("../../kernels/", $file)) };
    };
}

program!(COPY, "copy.cu");
program!(MULTIPLY_CONST, "multiply_const.cu");
program!(ADD, "add.cu");
program!(MAGNITUDE, "magnitude.cu");
program!(NLOG10, "nlog10.cu");
program!(FFT_SHIFT, "fft_shift.cu");
program!(WINDOW, "window.cu");
program!(INTERLEAVE, "interleave.cu");

const PROGRAMS: &[Program] = &[COPY, MULTIPLY_CONST, ADD, MAGNITUDE, NLOG10, FFT_SHIFT, WINDOW, INTERLEAVE];

/// Every kernel source of the library.
pub fn programs() -> &'static [Program] {
    PROGRAMS
}

/// One `extern "C" __global__` function: its program and its name, which is `base` followed by
/// `variant` (an item type such as "float32", or a unit width such as "16"). Keeping the two
/// parts separate lets generic launchers name a kernel without building a string per launch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kernel {
    pub program: &'static Program,
    pub base: &'static str,
    pub variant: &'static str,
}

impl Kernel {
    pub const fn new(program: &'static Program, base: &'static str, variant: &'static str) -> Kernel {
        Kernel { program, base, variant }
    }

    pub fn name(&self) -> String {
        format!("{}{}", self.base, self.variant)
    }
}
