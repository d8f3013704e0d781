// SPDX-License-Identifier: GPL-3.0-or-later

//! The kernel sources, embedded in the library, and how launchers name a kernel in them.
//!
//! Each `kernels/*.cu` file is one [`Program`], compiled by NVRTC as a unit and loaded as one
//! CUDA module; every program includes the shared header `grcuda_common.cuh`, which NVRTC
//! receives from memory. The text is embedded with `include_str!`, so an installed library
//! needs no files beside it. The list here is the single place that names them all: the CI
//! test compiles exactly this list. The kernel statics further down are likewise the single
//! place that names the kernels the launchers launch.

use crate::kernels::module_cache::Handles;
use crate::kernels::{element, move_unit, polyphase, shared_fft};

/// One kernel source file.
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// The file name, which NVRTC also uses in its messages ("add.cu").
    pub name: &'static str,
    pub source: &'static str,
}

/// Headers the programs may `#include "..."`, as (name, text).
pub(crate) const HEADERS: &[(&str, &str)] = &[
    ("grcuda_common.cuh", include_str!("../../kernels/grcuda_common.cuh")),
    ("fast_atan2.cuh", FAST_ATAN2_HEADER),
    ("shared_fft.cuh", include_str!("../../kernels/shared_fft.cuh")),
];

/// GNU Radio's fast_atan2f, for the kernels and (its table) for the CPU backend.
pub(crate) const FAST_ATAN2_HEADER: &str = include_str!("../../kernels/fast_atan2.cuh");

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
program!(ELEMENTWISE, "elementwise.cu");
program!(MOVING_AVERAGE, "moving_average.cu");
program!(PHASE, "phase.cu");
program!(FIR_FILTER, "fir_filter.cu");
program!(LOAD, "load.cu");
program!(POLYPHASE, "polyphase.cu");
program!(LOGPWRFFT, "logpwrfft.cu");

const PROGRAMS: &[Program] = &[
    COPY,
    MULTIPLY_CONST,
    ADD,
    MAGNITUDE,
    NLOG10,
    FFT_SHIFT,
    WINDOW,
    INTERLEAVE,
    ELEMENTWISE,
    MOVING_AVERAGE,
    PHASE,
    FIR_FILTER,
    LOAD,
    POLYPHASE,
    LOGPWRFFT,
];

/// Every kernel source of the library.
pub fn programs() -> &'static [Program] {
    PROGRAMS
}

/// The kernels of one program whose names are `base` followed by one of `variants`: an item
/// type such as "float32", a unit width such as "16", a suffix such as "_squared", or "" for
/// the kernel named `base` itself. Keeping the parts separate lets generic launchers pick a
/// kernel by its suffix without building a string per launch.
///
/// Every kernel a launcher uses is in one of the statics below, which also hold each kernel's
/// function handles on the devices where it is loaded (`module_cache`): a launch finds its
/// handle there, rather than in a table of all kernels that would need a lock and a key.
pub(crate) struct Kernels<const N: usize> {
    program: &'static Program,
    base: &'static str,
    variants: [&'static str; N],
    handles: [Handles; N],
    shared_memory_optin: bool,
}

impl<const N: usize> Kernels<N> {
    const fn new(program: &'static Program, base: &'static str, variants: [&'static str; N]) -> Kernels<N> {
        Kernels { program, base, variants, handles: [const { Handles::new() }; N], shared_memory_optin: false }
    }

    /// Kernels whose launches may ask for more dynamic shared memory than the 48 KiB every GPU
    /// gives a block without asking, up to the device's limit
    /// ([`DeviceInfo::shared_bytes_per_block_optin`](crate::device::DeviceInfo)): they ask
    /// the driver for it once, when they are loaded.
    const fn with_shared_memory_optin(
        program: &'static Program,
        base: &'static str,
        variants: [&'static str; N],
    ) -> Kernels<N> {
        Kernels { program, base, variants, handles: [const { Handles::new() }; N], shared_memory_optin: true }
    }

    /// The kernel named `base` followed by `variant`, which must be one of the variants: the
    /// launchers ask only for those of their item types and units.
    pub fn variant(&'static self, variant: &str) -> Kernel {
        let index =
            self.variants.iter().position(|&known| known == variant).expect("launchers ask only for listed variants");
        Kernel {
            program: self.program,
            base: self.base,
            variant: self.variants[index],
            handles: &self.handles[index],
            shared_memory_optin: self.shared_memory_optin,
        }
    }
}

pub(crate) static COPY_KERNELS: Kernels<5> = Kernels::new(&COPY, "grcuda_copy_unit", move_unit::VARIANTS);
pub(crate) static MULTIPLY_CONST_KERNELS: Kernels<4> =
    Kernels::new(&MULTIPLY_CONST, "grcuda_multiply_const_", element::ELEMENT_NAMES);
pub(crate) static ADD_KERNELS: Kernels<4> = Kernels::new(&ADD, "grcuda_add_", element::ELEMENT_NAMES);
pub(crate) static MAGNITUDE_KERNELS: Kernels<2> = Kernels::new(&MAGNITUDE, "grcuda_magnitude", ["", "_squared"]);
pub(crate) static NLOG10_KERNELS: Kernels<1> = Kernels::new(&NLOG10, "grcuda_nlog10", [""]);
pub(crate) static FFT_SHIFT_KERNELS: Kernels<1> = Kernels::new(&FFT_SHIFT, "grcuda_fft_shift", [""]);
pub(crate) static WINDOW_KERNELS: Kernels<2> = Kernels::new(&WINDOW, "grcuda_window_", element::WINDOW_ELEMENT_NAMES);
pub(crate) static INTERLEAVE_KERNELS: Kernels<5> =
    Kernels::new(&INTERLEAVE, "grcuda_interleave_unit", move_unit::VARIANTS);
pub(crate) static DEINTERLEAVE_KERNELS: Kernels<5> =
    Kernels::new(&INTERLEAVE, "grcuda_deinterleave_unit", move_unit::VARIANTS);
pub(crate) static FIR_FILTER_KERNELS: Kernels<3> =
    Kernels::new(&FIR_FILTER, "grcuda_fir_filter_", ["ccc", "ccf", "fff"]);
pub(crate) static FIR_FILTER_TILED_KERNELS: Kernels<3> =
    Kernels::new(&FIR_FILTER, "grcuda_fir_filter_tiled_", ["ccc", "ccf", "fff"]);
pub(crate) static FIR_FILTER_TILED_UNDECIMATED_KERNELS: Kernels<3> =
    Kernels::new(&FIR_FILTER, "grcuda_fir_filter_tiled_undecimated_", ["ccc", "ccf", "fff"]);
pub(crate) static FIR_FILTER_ROWS_KERNELS: Kernels<3> =
    Kernels::new(&FIR_FILTER, "grcuda_fir_filter_rows_", ["ccc", "ccf", "fff"]);
pub(crate) static FIR_FILTER_ROWS3_KERNELS: Kernels<3> =
    Kernels::new(&FIR_FILTER, "grcuda_fir_filter_rows3_", ["ccc", "ccf", "fff"]);
/// Five outputs per thread: float samples only (`rows_tile` in fir_filter.rs).
pub(crate) static FIR_FILTER_ROWS5_KERNELS: Kernels<1> = Kernels::new(&FIR_FILTER, "grcuda_fir_filter_rows5_", ["fff"]);
pub(crate) static OVERLAP_SAVE_GATHER_KERNELS: Kernels<2> =
    Kernels::new(&FIR_FILTER, "grcuda_overlap_save_gather_", element::WINDOW_ELEMENT_NAMES);
pub(crate) static OVERLAP_SAVE_MULTIPLY_KERNELS: Kernels<1> =
    Kernels::new(&FIR_FILTER, "grcuda_overlap_save_multiply", [""]);
pub(crate) static OVERLAP_SAVE_EXTRACT_KERNELS: Kernels<2> =
    Kernels::new(&FIR_FILTER, "grcuda_overlap_save_extract_", element::WINDOW_ELEMENT_NAMES);
/// Per sample type (float32, complex64), the kernels of each FFT size.
pub(crate) static OVERLAP_SAVE_SEGMENTS_KERNELS: [Kernels<8>; 2] = [
    Kernels::new(&FIR_FILTER, "grcuda_overlap_save_segments_float32_", shared_fft::LENGTH_NAMES),
    Kernels::new(&FIR_FILTER, "grcuda_overlap_save_segments_complex64_", shared_fft::LENGTH_NAMES),
];
pub(crate) static LOAD_KERNELS: Kernels<1> = Kernels::new(&LOAD, "grcuda_load", [""]);
pub(crate) static LOGPWRFFT_FRAMES_KERNELS: Kernels<2> =
    Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_frames_", element::WINDOW_ELEMENT_NAMES);
pub(crate) static LOGPWRFFT_POWER_KERNELS: Kernels<1> = Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_power", [""]);
pub(crate) static LOGPWRFFT_AVERAGE_KERNELS: Kernels<1> = Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_average", [""]);
/// Per input type (float32, complex64), the kernels of each frame length.
pub(crate) static LOGPWRFFT_SPECTRA_KERNELS: [Kernels<8>; 2] = [
    Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_spectra_float32_", shared_fft::LENGTH_NAMES),
    Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_spectra_complex64_", shared_fft::LENGTH_NAMES),
];
/// The four-step form's lengths: columns of N1 = 64 to 1024 values, rows of N2 = 128 to 1024.
const FOUR_STEP_COLUMN_NAMES: [&str; 5] = ["64", "128", "256", "512", "1024"];
const FOUR_STEP_ROW_NAMES: [&str; 4] = ["128", "256", "512", "1024"];
/// Per input type (float32, complex64), the kernels of each column length.
pub(crate) static LOGPWRFFT_COLUMNS_KERNELS: [Kernels<5>; 2] = [
    Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_columns_float32_", FOUR_STEP_COLUMN_NAMES),
    Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_columns_complex64_", FOUR_STEP_COLUMN_NAMES),
];
pub(crate) static LOGPWRFFT_ROWS_KERNELS: Kernels<4> =
    Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_rows_", FOUR_STEP_ROW_NAMES);
pub(crate) static LOGPWRFFT_AVERAGE_POWERS_KERNELS: Kernels<1> =
    Kernels::new(&LOGPWRFFT, "grcuda_logpwrfft_average_powers", [""]);

pub(crate) static MULTIPLY_KERNELS: Kernels<4> = Kernels::new(&ELEMENTWISE, "grcuda_multiply_", element::ELEMENT_NAMES);
pub(crate) static MULTIPLY_CONJUGATE_KERNELS: Kernels<1> =
    Kernels::new(&ELEMENTWISE, "grcuda_multiply_conjugate", [""]);
pub(crate) static CONJUGATE_KERNELS: Kernels<1> = Kernels::new(&ELEMENTWISE, "grcuda_conjugate", [""]);
pub(crate) static COMPLEX_PART_KERNELS: Kernels<3> =
    Kernels::new(&ELEMENTWISE, "grcuda_complex_to_", ["real", "imag", "arg"]);
pub(crate) static COMPLEX_TO_FLOAT_KERNELS: Kernels<1> = Kernels::new(&ELEMENTWISE, "grcuda_complex_to_float", [""]);
pub(crate) static FLOAT_TO_COMPLEX_KERNELS: Kernels<2> =
    Kernels::new(&ELEMENTWISE, "grcuda_float_to_complex", ["", "_real"]);
pub(crate) static KEEP_ONE_IN_N_KERNELS: Kernels<5> =
    Kernels::new(&ELEMENTWISE, "grcuda_keep_one_in_n_unit", move_unit::VARIANTS);
pub(crate) static MOVING_AVERAGE_KERNELS: Kernels<2> =
    Kernels::new(&MOVING_AVERAGE, "grcuda_moving_average_", element::WINDOW_ELEMENT_NAMES);
pub(crate) static MOVING_AVERAGE_TILED_KERNELS: Kernels<2> =
    Kernels::new(&MOVING_AVERAGE, "grcuda_moving_average_tiled_", element::WINDOW_ELEMENT_NAMES);
/// Long windows: the chunk sums of a block may take more than 48 KiB of shared memory.
pub(crate) static MOVING_AVERAGE_CHUNKED_KERNELS: Kernels<2> =
    Kernels::with_shared_memory_optin(&MOVING_AVERAGE, "grcuda_moving_average_chunked_", element::WINDOW_ELEMENT_NAMES);
pub(crate) static QUADRATURE_DEMOD_KERNELS: Kernels<1> = Kernels::new(&PHASE, "grcuda_quadrature_demod", [""]);
pub(crate) static ROTATOR_KERNELS: Kernels<1> = Kernels::new(&PHASE, "grcuda_rotator", [""]);
/// The filter bank, per oversampling: step advances M, M / 2, M / 4 and any other.
pub(crate) static PFB_CHANNELIZER_FILTER_KERNELS: Kernels<4> =
    Kernels::new(&POLYPHASE, "grcuda_pfb_channelizer_filter_oversample", ["1", "2", "4", "_any"]);
/// The filter bank and inverse FFT in one kernel, per number of channels (and at 1024
/// channels per steps a block takes: 8 need 68 KiB of shared memory).
pub(crate) static PFB_CHANNELIZER_SPECTRA_KERNELS: Kernels<7> = Kernels::with_shared_memory_optin(
    &POLYPHASE,
    "grcuda_pfb_channelizer_spectra_",
    polyphase::CHANNELIZER_SPECTRA_KERNEL_NAMES,
);
pub(crate) static PFB_CHANNELIZER_SCATTER_KERNELS: Kernels<1> =
    Kernels::new(&POLYPHASE, "grcuda_pfb_channelizer_scatter", [""]);
pub(crate) static PFB_CHANNELIZER_GATHER_KERNELS: Kernels<1> =
    Kernels::new(&POLYPHASE, "grcuda_pfb_channelizer_gather", [""]);

/// The family of `families` (one per sample type, in [`element::WINDOW_ELEMENT_NAMES`]'s order)
/// for samples named `sample_name` ("float32" or "complex64").
pub(crate) fn for_samples<const N: usize>(
    families: &'static [Kernels<N>; 2],
    sample_name: &str,
) -> &'static Kernels<N> {
    let index = element::WINDOW_ELEMENT_NAMES
        .iter()
        .position(|&known| known == sample_name)
        .expect("launchers ask only for float32 or complex64 samples");
    &families[index]
}

/// One `extern "C" __global__` function: its program, its name (`base` followed by `variant`)
/// and its handles on the devices where it is loaded.
#[derive(Clone, Copy)]
pub(crate) struct Kernel {
    pub program: &'static Program,
    pub base: &'static str,
    pub variant: &'static str,
    pub handles: &'static Handles,
    /// Whether its launches may have more than 48 KiB of dynamic shared memory.
    pub shared_memory_optin: bool,
}

impl Kernel {
    /// The full name, built when the kernel is loaded and for messages.
    pub fn name(&self) -> String {
        format!("{}{}", self.base, self.variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::nvrtc;

    fn kernels<const N: usize>(family: &'static Kernels<N>) -> impl Iterator<Item = Kernel> {
        family.variants.iter().map(|variant| family.variant(variant))
    }

    /// The statics name kernels that exist: each is an entry of its program's PTX, which NVRTC
    /// compiles without a GPU.
    #[test]
    fn every_kernel_is_an_entry_of_its_program() {
        if let Err(error) = nvrtc::version() {
            assert_ne!(std::env::var("GRCUDA_REQUIRE_NVRTC").as_deref(), Ok("1"), "NVRTC cannot be loaded: {error}");
            eprintln!("every_kernel_is_an_entry_of_its_program: skipped, NVRTC cannot be loaded: {error}");
            return;
        }
        let all = kernels(&COPY_KERNELS)
            .chain(kernels(&MULTIPLY_CONST_KERNELS))
            .chain(kernels(&ADD_KERNELS))
            .chain(kernels(&MAGNITUDE_KERNELS))
            .chain(kernels(&NLOG10_KERNELS))
            .chain(kernels(&FFT_SHIFT_KERNELS))
            .chain(kernels(&WINDOW_KERNELS))
            .chain(kernels(&INTERLEAVE_KERNELS))
            .chain(kernels(&DEINTERLEAVE_KERNELS))
            .chain(kernels(&MULTIPLY_KERNELS))
            .chain(kernels(&MULTIPLY_CONJUGATE_KERNELS))
            .chain(kernels(&CONJUGATE_KERNELS))
            .chain(kernels(&COMPLEX_PART_KERNELS))
            .chain(kernels(&COMPLEX_TO_FLOAT_KERNELS))
            .chain(kernels(&FLOAT_TO_COMPLEX_KERNELS))
            .chain(kernels(&KEEP_ONE_IN_N_KERNELS))
            .chain(kernels(&MOVING_AVERAGE_KERNELS))
            .chain(kernels(&MOVING_AVERAGE_TILED_KERNELS))
            .chain(kernels(&MOVING_AVERAGE_CHUNKED_KERNELS))
            .chain(kernels(&QUADRATURE_DEMOD_KERNELS))
            .chain(kernels(&ROTATOR_KERNELS))
            .chain(kernels(&FIR_FILTER_KERNELS))
            .chain(kernels(&FIR_FILTER_TILED_KERNELS))
            .chain(kernels(&FIR_FILTER_TILED_UNDECIMATED_KERNELS))
            .chain(kernels(&FIR_FILTER_ROWS_KERNELS))
            .chain(kernels(&FIR_FILTER_ROWS3_KERNELS))
            .chain(kernels(&FIR_FILTER_ROWS5_KERNELS))
            .chain(kernels(&OVERLAP_SAVE_GATHER_KERNELS))
            .chain(kernels(&OVERLAP_SAVE_MULTIPLY_KERNELS))
            .chain(kernels(&OVERLAP_SAVE_EXTRACT_KERNELS))
            .chain(kernels(&LOAD_KERNELS))
            .chain(kernels(&LOGPWRFFT_FRAMES_KERNELS))
            .chain(kernels(&LOGPWRFFT_POWER_KERNELS))
            .chain(kernels(&LOGPWRFFT_AVERAGE_KERNELS))
            .chain(LOGPWRFFT_SPECTRA_KERNELS.iter().flat_map(kernels))
            .chain(LOGPWRFFT_COLUMNS_KERNELS.iter().flat_map(kernels))
            .chain(kernels(&LOGPWRFFT_ROWS_KERNELS))
            .chain(kernels(&LOGPWRFFT_AVERAGE_POWERS_KERNELS))
            .chain(kernels(&PFB_CHANNELIZER_FILTER_KERNELS))
            .chain(kernels(&PFB_CHANNELIZER_SPECTRA_KERNELS))
            .chain(kernels(&PFB_CHANNELIZER_SCATTER_KERNELS))
            .chain(kernels(&PFB_CHANNELIZER_GATHER_KERNELS));
        let mut ptx = std::collections::HashMap::new();
        for kernel in all {
            let text = ptx
                .entry(kernel.program.name)
                .or_insert_with(|| String::from_utf8(nvrtc::compile(kernel.program, "compute_90").unwrap()).unwrap());
            let name = kernel.name();
            assert!(text.contains(&format!(".entry {name}(")), "no kernel {name} in {}", kernel.program.name);
        }
    }
}
