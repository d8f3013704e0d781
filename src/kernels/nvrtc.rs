// SPDX-License-Identifier: GPL-3.0-or-later

//! NVRTC: compiling the kernel sources for one GPU architecture at run time.
//!
//! libnvrtc is loaded at first use through cudarc's dynamic loading, which panics when the
//! library is missing, so every entry point here checks for it first and reports Unsupported
//! with how to install it. Compiling for a real architecture (`sm_90`) produces a CUBIN, which
//! the driver loads as it is; a virtual one (`compute_90`) produces PTX, which the driver
//! compiles when it loads it. [`target_for`] picks the device's own `sm_XY` when this NVRTC
//! knows it, and otherwise PTX for the newest architecture it knows that the device can run
//! (a GPU newer than the compiler).

use crate::error::{Error, ErrorKind, Result};
use crate::kernels::program::{HEADERS, Program};
use cudarc::nvrtc::sys;
use std::ffi::{CStr, CString, c_char, c_int};
use std::sync::OnceLock;

/// Options of every compile (part of the disk-cache key). No fast math: the results must
/// agree with the CPU backend to within float rounding, so log10f, sqrtf and division stay
/// IEEE-accurate.
pub(crate) const OPTIONS: &[&str] = &["--std=c++17"];

/// Fails with Unsupported, and how to get NVRTC, when libnvrtc cannot be loaded.
fn ensure_loaded() -> Result<()> {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    if *PRESENT.get_or_init(|| unsafe { sys::is_culib_present() }) {
        return Ok(());
    }
    Err(Error::unsupported(
        "NVRTC, the CUDA runtime compiler that builds grcuda's kernels at first use, could not \
         be loaded (libnvrtc.so.13 or another version of libnvrtc.so): install the CUDA 13 \
         toolkit's NVRTC (and make sure its lib64 directory is on the loader path), or run \
         `pip install nvidia-cuda-nvrtc` and add its library directory \
         (site-packages/nvidia/cu13/lib) to LD_LIBRARY_PATH",
    ))
}

/// The NVRTC version as (major, minor), e.g. (13, 0).
pub fn version() -> Result<(i32, i32)> {
    ensure_loaded()?;
    let (mut major, mut minor): (c_int, c_int) = (0, 0);
    check("nvrtcVersion", unsafe { sys::nvrtcVersion(&mut major, &mut minor) })?;
    Ok((major, minor))
}

/// The real architectures this NVRTC compiles for, as compute capability numbers (75, 90, …).
fn supported_architectures() -> Result<&'static [c_int]> {
    static SUPPORTED: OnceLock<Vec<c_int>> = OnceLock::new();
    if let Some(supported) = SUPPORTED.get() {
        return Ok(supported);
    }
    ensure_loaded()?;
    let mut count: c_int = 0;
    check("nvrtcGetNumSupportedArchs", unsafe { sys::nvrtcGetNumSupportedArchs(&mut count) })?;
    let mut supported = vec![0; count.max(0) as usize];
    check("nvrtcGetSupportedArchs", unsafe { sys::nvrtcGetSupportedArchs(supported.as_mut_ptr()) })?;
    Ok(SUPPORTED.get_or_init(|| supported))
}

/// The architecture to compile for on a device of this compute capability: `sm_XY` (CUBIN)
/// when NVRTC supports it, else `compute_XY` (PTX) for the newest older architecture it
/// supports.
pub(crate) fn target_for(compute_capability: (i32, i32)) -> Result<String> {
    let (major, minor) = compute_capability;
    let device = major * 10 + minor;
    let supported = supported_architectures()?;
    if supported.contains(&device) {
        return Ok(format!("sm_{device}"));
    }
    match supported.iter().copied().filter(|&architecture| architecture < device).max() {
        Some(architecture) => Ok(format!("compute_{architecture}")),
        None => {
            let (nvrtc_major, nvrtc_minor) = version()?;
            let oldest = supported.iter().copied().min().unwrap_or(0);
            Err(Error::unsupported(format!(
                "the GPU's compute capability {major}.{minor} is older than every architecture \
                 NVRTC {nvrtc_major}.{nvrtc_minor} compiles for ({supported:?}); use a GPU of \
                 compute capability {}.{} or newer, or an older CUDA toolkit's NVRTC",
                oldest / 10,
                oldest % 10,
            )))
        }
    }
}

/// Compiles `program` for `architecture`: `sm_XY` gives a CUBIN, `compute_XY` gives PTX
/// (NUL-terminated, as `cuModuleLoadData` wants it). Needs no GPU, only libnvrtc.
pub fn compile(program: &Program, architecture: &str) -> Result<Vec<u8>> {
    let cubin = if architecture.starts_with("sm_") {
        true
    } else if architecture.starts_with("compute_") {
        false
    } else {
        return Err(Error::invalid_argument(format!(
            "GPU architecture {architecture:?} is neither real (sm_XY, e.g. sm_90) nor virtual \
             (compute_XY, e.g. compute_90)"
        )));
    };
    ensure_loaded()?;
    let text = |what: &str, value: &str| {
        CString::new(value).map_err(|_| {
            Error::invalid_argument(format!("{what} of kernel program {} contains a NUL byte", program.name))
        })
    };
    let source = text("the source", program.source)?;
    let name = text("the name", program.name)?;
    let header_texts = HEADERS.iter().map(|(_, header)| text("a header", header)).collect::<Result<Vec<_>>>()?;
    let header_names = HEADERS.iter().map(|(header, _)| text("a header name", header)).collect::<Result<Vec<_>>>()?;
    let header_text_pointers: Vec<*const c_char> = header_texts.iter().map(|t| t.as_ptr()).collect();
    let header_name_pointers: Vec<*const c_char> = header_names.iter().map(|n| n.as_ptr()).collect();

    let mut handle = std::ptr::null_mut();
    check("nvrtcCreateProgram", unsafe {
        sys::nvrtcCreateProgram(
            &mut handle,
            source.as_ptr(),
            name.as_ptr(),
            HEADERS.len() as c_int,
            header_text_pointers.as_ptr(),
            header_name_pointers.as_ptr(),
        )
    })?;
    let handle = ProgramHandle(handle);

    let architecture_option = format!("--gpu-architecture={architecture}");
    let options = OPTIONS
        .iter()
        .copied()
        .chain([architecture_option.as_str()])
        .map(|option| text("an option", option))
        .collect::<Result<Vec<_>>>()?;
    let option_pointers: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    let status =
        unsafe { sys::nvrtcCompileProgram(handle.0, option_pointers.len() as c_int, option_pointers.as_ptr()) };
    if status != sys::nvrtcResult::NVRTC_SUCCESS {
        let log = handle.log().unwrap_or_else(|e| format!("(no log: {e})"));
        return Err(Error::new(
            ErrorKind::KernelCompile,
            format!(
                "NVRTC could not compile kernel program {} for {architecture}: {}\n{}",
                program.name,
                describe(status),
                log.trim_end()
            ),
        ));
    }
    if cubin {
        handle.output("nvrtcGetCUBIN", sys::nvrtcGetCUBINSize, sys::nvrtcGetCUBIN)
    } else {
        handle.output("nvrtcGetPTX", sys::nvrtcGetPTXSize, sys::nvrtcGetPTX)
    }
}

/// An NVRTC program, destroyed on drop.
struct ProgramHandle(sys::nvrtcProgram);

type SizeQuery = unsafe fn(sys::nvrtcProgram, *mut usize) -> sys::nvrtcResult;
type ContentQuery = unsafe fn(sys::nvrtcProgram, *mut c_char) -> sys::nvrtcResult;

impl ProgramHandle {
    /// One of the program's outputs (CUBIN, PTX or log), read with its size and content calls.
    fn output(&self, what: &str, size: SizeQuery, content: ContentQuery) -> Result<Vec<u8>> {
        let mut length = 0;
        check(what, unsafe { size(self.0, &mut length) })?;
        let mut bytes = vec![0u8; length];
        check(what, unsafe { content(self.0, bytes.as_mut_ptr().cast()) })?;
        Ok(bytes)
    }

    fn log(&self) -> Result<String> {
        let bytes = self.output("nvrtcGetProgramLog", sys::nvrtcGetProgramLogSize, sys::nvrtcGetProgramLog)?;
        Ok(String::from_utf8_lossy(&bytes).trim_end_matches('\0').to_string())
    }
}

impl Drop for ProgramHandle {
    fn drop(&mut self) {
        let _ = unsafe { sys::nvrtcDestroyProgram(&mut self.0) };
    }
}

fn describe(status: sys::nvrtcResult) -> String {
    let text = unsafe { sys::nvrtcGetErrorString(status) };
    if text.is_null() { format!("{status:?}") } else { unsafe { CStr::from_ptr(text) }.to_string_lossy().into_owned() }
}

fn check(what: &str, status: sys::nvrtcResult) -> Result<()> {
    if status == sys::nvrtcResult::NVRTC_SUCCESS {
        return Ok(());
    }
    Err(Error::new(ErrorKind::KernelCompile, format!("{what} failed: {}", describe(status))))
}
