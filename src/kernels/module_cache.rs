// SPDX-License-Identifier: GPL-3.0-or-later

//! Loaded kernels: each program's CUDA module on each device, and the function handles that
//! launchers ask for.
//!
//! A program is compiled (or read from the disk cache) and loaded into a device's context the
//! first time one of its kernels is launched there, then stays loaded for the life of the
//! process, like the primary context it lives in. Function handles are looked up under a
//! mutex that is never held while compiling; compiles are serialised by a second mutex, so
//! threads that need the same program compile it once, and launches of kernels already
//! loaded never wait for someone else's compile.

use crate::device::Device;
use crate::error::{Error, Result};
use crate::kernels::disk_cache::{CacheKey, DiskCache};
use crate::kernels::nvrtc;
use crate::kernels::program::{Kernel, Program};
use cudarc::driver::{result, sys};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::ffi::CString;
use std::sync::{LazyLock, Mutex, MutexGuard, Once};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct FunctionKey {
    ordinal: usize,
    program: &'static str,
    base: &'static str,
    variant: &'static str,
}

/// A module handle; the driver lets any thread use it.
struct Module(sys::CUmodule);
unsafe impl Send for Module {}

/// A function handle; the driver lets any thread use it.
#[derive(Clone, Copy)]
struct Function(sys::CUfunction);
unsafe impl Send for Function {}

static FUNCTIONS: LazyLock<Mutex<HashMap<FunctionKey, Function>>> = LazyLock::new(Default::default);

/// Loaded modules by (device ordinal, program name). Held while compiling and loading.
static MODULES: LazyLock<Mutex<HashMap<(usize, &'static str), Module>>> = LazyLock::new(Default::default);

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The maps stay consistent even if a thread panicked while holding them: entries are
    // inserted whole.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The handle of `kernel` on `device` (a CUDA device), compiling and loading its program on
/// first use.
pub(crate) fn function(device: &Device, kernel: &Kernel) -> Result<sys::CUfunction> {
    let ordinal = device.info().ordinal;
    let key = FunctionKey { ordinal, program: kernel.program.name, base: kernel.base, variant: kernel.variant };
    if let Some(function) = lock(&FUNCTIONS).get(&key) {
        return Ok(function.0);
    }
    let mut modules = lock(&MODULES);
    let module = match modules.entry((ordinal, kernel.program.name)) {
        Entry::Occupied(entry) => entry.into_mut(),
        Entry::Vacant(entry) => entry.insert(load_program(device, kernel.program)?),
    };
    device.bind()?;
    let name = kernel.name();
    let c_name = CString::new(name.as_str()).expect("kernel names contain no NUL");
    let function = unsafe { result::module::get_function(module.0, c_name) }
        .map_err(|e| Error::driver(&format!("cuModuleGetFunction({name}) in {}", kernel.program.name), e))?;
    lock(&FUNCTIONS).insert(key, Function(function));
    Ok(function)
}

fn load_program(device: &Device, program: &Program) -> Result<Module> {
    let target = nvrtc::target_for(device.info().compute_capability)?;
    let (major, minor) = nvrtc::version()?;
    let compiler = format!("nvrtc {major}.{minor} {}", nvrtc::OPTIONS.join(" "));
    let key = CacheKey::new(program, &target, &compiler);
    let cache = DiskCache::from_environment();
    if let Some(cache) = &cache
        && let Some(image) = cache.load(&key)
    {
        match load_image(device, program, &image) {
            Ok(module) => return Ok(module),
            // An intact entry the driver refuses (written by a faulty earlier build, say):
            // drop it and compile afresh.
            Err(_) => cache.discard(&key),
        }
    }
    let image = nvrtc::compile(program, &target)?;
    if let Some(cache) = &cache
        && let Err(error) = cache.store(&key, &image)
    {
        static NOTICE: Once = Once::new();
        NOTICE.call_once(|| {
            eprintln!(
                "grcuda: cannot write the kernel cache in {} ({error}); kernels will be compiled \
                 again by every process. Set {}= to a writable directory to fix this.",
                cache.directory().display(),
                crate::kernels::disk_cache::CACHE_DIRECTORY_ENV,
            )
        });
    }
    load_image(device, program, &image)
}

fn load_image(device: &Device, program: &Program, image: &[u8]) -> Result<Module> {
    // A CUBIN is an ELF image the driver reads in place; give it the alignment an ELF file
    // mapped from disk would have rather than whatever a byte vector happens to get.
    let mut aligned = vec![0u128; image.len().div_ceil(size_of::<u128>())];
    let aligned_bytes = unsafe { std::slice::from_raw_parts_mut(aligned.as_mut_ptr().cast::<u8>(), image.len()) };
    aligned_bytes.copy_from_slice(image);
    device.bind()?;
    let module = unsafe { result::module::load_data(aligned.as_ptr().cast()) }
        .map_err(|e| Error::driver(&format!("cuModuleLoadData({})", program.name), e))?;
    Ok(Module(module))
}
