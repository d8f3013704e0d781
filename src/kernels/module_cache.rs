// SPDX-License-Identifier: GPL-3.0-or-later

//! Loaded kernels: each program's CUDA module on each device, and each kernel's function
//! handle there.
//!
//! A program is compiled (or read from the disk cache) and loaded into a device's context the
//! first time one of its kernels is launched there, then stays loaded for the life of the
//! process, like the primary context it lives in, and so do its function handles. Each kernel
//! keeps its handles in its own [`Handles`] (in the kernel statics of `program`), which are
//! read without a lock: a launch of a kernel already loaded takes no lock and builds or hashes
//! no name, so it never waits for someone else's compile. Loading is serialised by one mutex,
//! so threads that need the same program compile it once.

use crate::device::Device;
use crate::error::{Error, Result};
use crate::kernels::disk_cache::{CacheKey, DiskCache};
use crate::kernels::nvrtc;
use crate::kernels::program::{Kernel, Program};
use cudarc::driver::{result, sys};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::ffi::CString;
use std::sync::{LazyLock, Mutex, MutexGuard, Once, OnceLock};

/// A module handle; the driver lets any thread use it.
struct Module(sys::CUmodule);
unsafe impl Send for Module {}

/// A function handle; the driver lets any thread use it.
#[derive(Clone, Copy)]
struct Function(sys::CUfunction);
unsafe impl Send for Function {}
unsafe impl Sync for Function {}

/// One kernel's function handles, one per device where it is loaded: a list that only grows,
/// so a reader follows links that never change once set. Each link is a `OnceLock`, read with
/// one atomic load; a process uses few devices, so the list stays short.
pub(crate) struct Handles(OnceLock<Box<Handle>>);

struct Handle {
    ordinal: usize,
    function: Function,
    next: Handles,
}

impl Handles {
    pub(crate) const fn new() -> Handles {
        Handles(OnceLock::new())
    }

    /// The handle on device `ordinal`, if the kernel is loaded there.
    fn get(&self, ordinal: usize) -> Option<sys::CUfunction> {
        let mut link = self;
        while let Some(handle) = link.0.get() {
            if handle.ordinal == ordinal {
                return Some(handle.function.0);
            }
            link = &handle.next;
        }
        None
    }

    /// Adds the handle on device `ordinal` unless the list holds one for that device. Safe
    /// without a lock, as the `OnceLock`s decide which of two racing threads fills a link;
    /// loads call it under `MODULES` all the same.
    fn insert(&self, ordinal: usize, function: sys::CUfunction) {
        let mut link = self;
        // The first empty link takes the handle; the walk ends at the link for this device.
        loop {
            let handle =
                link.0.get_or_init(|| Box::new(Handle { ordinal, function: Function(function), next: Handles::new() }));
            if handle.ordinal == ordinal {
                return;
            }
            link = &handle.next;
        }
    }
}

/// Loaded modules by (device ordinal, program name). Held while compiling and loading.
static MODULES: LazyLock<Mutex<HashMap<(usize, &'static str), Module>>> = LazyLock::new(Default::default);

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // The map stays consistent even if a thread panicked while holding it: entries are
    // inserted whole.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The handle of `kernel` on `device` (a CUDA device), compiling and loading its program on
/// first use.
pub(crate) fn function(device: &Device, kernel: Kernel) -> Result<sys::CUfunction> {
    let ordinal = device.info().ordinal;
    match kernel.handles.get(ordinal) {
        Some(function) => Ok(function),
        None => load_function(device, kernel),
    }
}

/// The first launch of `kernel` on `device`: loads its program there unless another of its
/// kernels did, and keeps the handle in the kernel's `Handles`.
#[cold]
fn load_function(device: &Device, kernel: Kernel) -> Result<sys::CUfunction> {
    let ordinal = device.info().ordinal;
    let mut modules = lock(&MODULES);
    // Another thread may have loaded it while this one waited for the lock.
    if let Some(function) = kernel.handles.get(ordinal) {
        return Ok(function);
    }
    let module = match modules.entry((ordinal, kernel.program.name)) {
        Entry::Occupied(entry) => entry.into_mut(),
        Entry::Vacant(entry) => entry.insert(load_program(device, kernel.program)?),
    };
    device.bind()?;
    let name = kernel.name();
    let c_name = CString::new(name.as_str()).expect("kernel names contain no NUL");
    let function = unsafe { result::module::get_function(module.0, c_name) }
        .map_err(|e| Error::driver(&format!("cuModuleGetFunction({name}) in {}", kernel.program.name), e))?;
    if kernel.shared_memory_optin {
        allow_shared_memory_optin(device, function, &name)?;
    }
    kernel.handles.insert(ordinal, function);
    Ok(function)
}

/// Lets launches of `function` ask for as much dynamic shared memory as the device gives a
/// block (beyond the 48 KiB it gives without asking), less the kernel's static shared memory:
/// its launcher sizes the shared memory from the device's
/// [`DeviceInfo`](crate::device::DeviceInfo).
fn allow_shared_memory_optin(device: &Device, function: sys::CUfunction, name: &str) -> Result<()> {
    use sys::CUfunction_attribute as A;
    let static_bytes =
        unsafe { result::function::get_function_attribute(function, A::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) }
            .map_err(|e| Error::driver(&format!("cuFuncGetAttribute({name}, SHARED_SIZE_BYTES)"), e))?;
    let dynamic_bytes = device.info().shared_bytes_per_block_optin.saturating_sub(static_bytes.max(0) as usize);
    unsafe {
        result::function::set_function_attribute(
            function,
            A::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            i32::try_from(dynamic_bytes).unwrap_or(i32::MAX),
        )
    }
    .map_err(|e| Error::driver(&format!("cuFuncSetAttribute({name}, MAX_DYNAMIC_SHARED_SIZE_BYTES)"), e))
}

fn load_program(device: &Device, program: &Program) -> Result<Module> {
    let target = nvrtc::target_for(device.info().compute_capability)?;
    let (major, minor) = nvrtc::version()?;
    let compiler = format!("nvrtc {major}.{minor} {}", nvrtc::OPTIONS.join(" "));
    let key = CacheKey::new(program, &target, &compiler);
    let cache = DiskCache::in_use();
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
            crate::log::log(
                crate::log::Level::Warning,
                &format!(
                    "cannot write the kernel cache in {} ({error}); kernels will be compiled again by \
                     every process. Name a writable directory with {} or \
                     grcuda_set_kernel_cache_directory() (GNU Radio: [cuda] kernel_cache) to fix this.",
                    cache.directory().display(),
                    crate::kernels::disk_cache::CACHE_DIRECTORY_ENV,
                ),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn function(value: usize) -> sys::CUfunction {
        value as sys::CUfunction
    }

    #[test]
    fn handles_are_found_by_device() {
        let handles = Handles::new();
        assert_eq!(handles.get(0), None);
        handles.insert(1, function(0x10));
        handles.insert(0, function(0x20));
        assert_eq!(handles.get(1), Some(function(0x10)));
        assert_eq!(handles.get(0), Some(function(0x20)));
        assert_eq!(handles.get(2), None);
    }

    #[test]
    fn concurrent_inserts_keep_every_device() {
        let handles = Handles::new();
        std::thread::scope(|scope| {
            for ordinal in 0..8 {
                let handles = &handles;
                scope.spawn(move || handles.insert(ordinal, function(0x100 + ordinal)));
            }
        });
        for ordinal in 0..8 {
            assert_eq!(handles.get(ordinal), Some(function(0x100 + ordinal)));
        }
    }
}
