// SPDX-License-Identifier: GPL-3.0-or-later

//! Devices: choosing the backend, opening a device, and what it can do.
//!
//! A [`Device`] is a cheap, clonable handle (an `Arc`) on either a CUDA device's primary
//! context or the simulated backend. Every other object (streams, events, memory, buffers,
//! kernels) keeps a `Device` so the context outlives it. Primary contexts are retained once
//! per process and never released, so stopping and restarting a flowgraph does not tear the
//! context down, and objects freed during process exit still find it alive.
//!
//! Backend choice: `GRCUDA_BACKEND=cuda|simulated|auto` (default `auto`). `auto` uses CUDA when
//! the driver loads and reports a device, otherwise the simulated backend, and says so once
//! on standard error.

use crate::error::{DriverResultExt, Error, ErrorKind, Result};
use crate::log;
use crate::memory::host_mapping;
use crate::simulated;
use cudarc::driver::{CudaContext, result, sys};
use std::sync::{Arc, Mutex, Once};

/// The environment variable that picks the backend when the caller asks for [`BackendChoice::Auto`].
pub const BACKEND_ENV: &str = "GRCUDA_BACKEND";

/// What the caller asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    /// Read `GRCUDA_BACKEND`; when unset, CUDA if a driver and device exist, else simulated.
    Auto,
    /// The real GPU; fail with NoDriver/NoDevice when there is none.
    Cuda,
    /// Host memory and CPU kernels behind the same API.
    Simulated,
}

/// What a device actually runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Cuda,
    Simulated,
}

/// What a device can do, read once when it is opened.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub backend: Backend,
    pub ordinal: usize,
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessor_count: i32,
    pub total_memory: usize,
    /// Whether the device supports CUDA virtual memory management (needed for device rings).
    pub vmm_supported: bool,
    /// The size every ring is rounded up to: the VMM allocation granularity, or the page
    /// size on the simulated backend.
    pub ring_granularity: usize,
    /// The dynamic shared memory a block may have when its kernel asks for more than the 48
    /// KiB every GPU gives (MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: 64 KiB on Turing, 227 KiB on
    /// Hopper); 48 KiB on the simulated backend, whose kernels run on the CPU.
    pub shared_bytes_per_block_optin: usize,
}

/// A handle on one device. Clones share the same context.
#[derive(Clone)]
pub struct Device(Arc<DeviceShared>);

struct DeviceShared {
    context: Option<Arc<CudaContext>>,
    info: DeviceInfo,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Device").field(&self.0.info).finish()
    }
}

/// Primary contexts retained for the life of the process, by ordinal.
static CONTEXTS: Mutex<Vec<Option<Arc<CudaContext>>>> = Mutex::new(Vec::new());

/// The environment variable that keeps blocks on different devices from reading each other's
/// memory in place: `none` makes every pair of distinct devices one without peer access, so
/// their edges go through mirrors filled over host memory (GPUs whose PCIe topology has no
/// peer-to-peer; the simulated backend's devices in tests; a comparison of the two paths on
/// GPUs that have peer access). Unset (or `all`), devices read each other's memory wherever
/// the hardware lets them.
pub(crate) const PEER_ACCESS_ENV: &str = "GRCUDA_PEER_ACCESS";

/// Whether distinct devices may read each other's memory in place (`PEER_ACCESS_ENV`).
fn peer_access_allowed() -> Result<bool> {
    match std::env::var(PEER_ACCESS_ENV).ok().as_deref() {
        None | Some("") | Some("all") => Ok(true),
        Some("none") => Ok(false),
        Some(other) => Err(Error::invalid_argument(format!(
            "{PEER_ACCESS_ENV}=\"{other}\" is refused: use all (the default: devices read each other's memory \
             wherever the hardware lets them) or none (never: edges between devices go through host memory), or \
             unset it"
        ))),
    }
}

impl Device {
    /// Opens device `ordinal` on the chosen backend.
    pub fn open(ordinal: usize, choice: BackendChoice) -> Result<Device> {
        // A bad value is refused where the other settings are, when the first device is
        // opened, rather than at the first edge between two devices (or the first compile).
        peer_access_allowed()?;
        crate::kernels::DiskCache::check_environment()?;
        match resolve_backend(choice)? {
            Backend::Simulated => Self::open_simulated(ordinal),
            Backend::Cuda => Self::open_cuda(ordinal),
        }
    }

    /// How many devices the chosen backend has (the simulated backend: `GRCUDA_SIMULATED_DEVICES`,
    /// two by default).
    pub fn count(choice: BackendChoice) -> Result<usize> {
        match resolve_backend(choice)? {
            Backend::Simulated => simulated::device_count(),
            Backend::Cuda => {
                init_driver()?;
                Ok(result::device::get_count().during("cuDeviceGetCount")? as usize)
            }
        }
    }

    fn open_simulated(ordinal: usize) -> Result<Device> {
        let count = simulated::device_count()?;
        if ordinal >= count {
            return Err(Error::new(
                ErrorKind::NoDevice,
                format!(
                    "device ordinal {ordinal} does not exist: the simulated backend has {count} device(s), ordinals \
                     0 to {} ({} sets how many)",
                    count - 1,
                    simulated::DEVICES_ENV
                ),
            ));
        }
        let info = DeviceInfo {
            backend: Backend::Simulated,
            ordinal,
            name: simulated::DEVICE_NAME.to_string(),
            compute_capability: (0, 0),
            multiprocessor_count: std::thread::available_parallelism().map_or(1, |n| n.get() as i32),
            total_memory: simulated::TOTAL_MEMORY,
            vmm_supported: true,
            ring_granularity: host_mapping::page_size(),
            shared_bytes_per_block_optin: 48 << 10,
        };
        Ok(Device(Arc::new(DeviceShared { context: None, info })))
    }

    fn open_cuda(ordinal: usize) -> Result<Device> {
        init_driver()?;
        let count = result::device::get_count().during("cuDeviceGetCount")? as usize;
        if ordinal >= count {
            return Err(Error::new(
                ErrorKind::NoDevice,
                format!(
                    "device ordinal {ordinal} does not exist: {count} CUDA device(s) visible; \
                     check nvidia-smi and CUDA_VISIBLE_DEVICES"
                ),
            ));
        }
        let context = {
            let mut contexts = CONTEXTS.lock().unwrap_or_else(|p| p.into_inner());
            if contexts.len() <= ordinal {
                contexts.resize(ordinal + 1, None);
            }
            match &contexts[ordinal] {
                Some(context) => context.clone(),
                None => {
                    let context = CudaContext::new(ordinal).during("retaining the primary context")?;
                    contexts[ordinal] = Some(context.clone());
                    context
                }
            }
        };
        context.bind_to_thread().during("cuCtxSetCurrent")?;
        let info = cuda_device_info(&context)?;
        Ok(Device(Arc::new(DeviceShared { context: Some(context), info })))
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.0.info
    }

    pub fn backend(&self) -> Backend {
        self.0.info.backend
    }

    pub fn is_simulated(&self) -> bool {
        self.backend() == Backend::Simulated
    }

    /// Whether `other` is the same device (backend and ordinal).
    pub fn is_same_device(&self, other: &Device) -> bool {
        self.backend() == other.backend() && self.0.info.ordinal == other.0.info.ordinal
    }

    /// Whether kernels running on `reader` can access this device's memory directly (peer
    /// access): always for the device itself; never across backends, nor where
    /// `PEER_ACCESS_ENV` is `none`; between simulated devices, whose memory is all host
    /// memory, otherwise; between CUDA devices as cuDeviceCanAccessPeer says.
    pub fn can_be_read_by(&self, reader: &Device) -> Result<bool> {
        if self.is_same_device(reader) {
            return Ok(true);
        }
        if !peer_access_allowed()? {
            return Ok(false);
        }
        match (self.cuda_context(), reader.cuda_context()) {
            (None, None) => Ok(true),
            (Some(own), Some(other)) => {
                let mut can_access = 0;
                unsafe { sys::cuDeviceCanAccessPeer(&mut can_access, other.cu_device(), own.cu_device()) }
                    .result()
                    .during("cuDeviceCanAccessPeer")?;
                Ok(can_access != 0)
            }
            _ => Ok(false),
        }
    }

    /// A name for messages: "the simulated device" or "CUDA device 0".
    pub(crate) fn describe(&self) -> String {
        match self.backend() {
            Backend::Simulated => "the simulated device".to_string(),
            Backend::Cuda => format!("CUDA device {}", self.0.info.ordinal),
        }
    }

    /// The CUDA context, or `None` on the simulated backend.
    pub(crate) fn cuda_context(&self) -> Option<&Arc<CudaContext>> {
        self.0.context.as_ref()
    }

    /// Makes this device's context current on the calling thread. GNU Radio calls blocks
    /// from many threads, so every operation that uses raw driver calls starts here.
    pub(crate) fn bind(&self) -> Result<()> {
        match &self.0.context {
            Some(context) => context.bind_to_thread().during("cuCtxSetCurrent"),
            None => Ok(()),
        }
    }

    /// Free device memory in bytes, as the driver (or the simulated backend's accounting)
    /// sees it now.
    pub fn free_memory(&self) -> Result<usize> {
        match &self.0.context {
            Some(context) => Ok(context.mem_get_info().during("cuMemGetInfo")?.0),
            None => Ok(simulated::free_memory(self.0.info.ordinal)),
        }
    }

    /// Waits until all work on every stream of this device is complete.
    pub fn synchronize(&self) -> Result<()> {
        match &self.0.context {
            Some(context) => context.synchronize().during("cuCtxSynchronize"),
            None => Ok(()),
        }
    }
}

fn resolve_backend(choice: BackendChoice) -> Result<Backend> {
    let choice = match choice {
        BackendChoice::Auto => match std::env::var(BACKEND_ENV).ok().as_deref() {
            None | Some("") | Some("auto") => BackendChoice::Auto,
            Some("cuda") => BackendChoice::Cuda,
            Some("simulated") => BackendChoice::Simulated,
            Some(other) => {
                return Err(Error::invalid_argument(format!(
                    "{BACKEND_ENV}={other:?} is not a backend: use cuda, simulated or auto"
                )));
            }
        },
        explicit => explicit,
    };
    match choice {
        BackendChoice::Cuda => Ok(Backend::Cuda),
        BackendChoice::Simulated => Ok(Backend::Simulated),
        BackendChoice::Auto => match cuda_usable() {
            Ok(()) => Ok(Backend::Cuda),
            Err(why) => {
                static NOTICE: Once = Once::new();
                NOTICE.call_once(|| {
                    log::log(
                        log::Level::Info,
                        &format!("{why}; using the simulated backend (CPU). Set {BACKEND_ENV}=cuda to require a GPU."),
                    )
                });
                Ok(Backend::Simulated)
            }
        },
    }
}

/// Whether the real backend can work here: a driver that loads and at least one device.
fn cuda_usable() -> Result<()> {
    init_driver()?;
    match result::device::get_count().during("cuDeviceGetCount")? {
        0 => Err(Error::new(ErrorKind::NoDevice, "the CUDA driver reports no device")),
        _ => Ok(()),
    }
}

/// Loads the driver and runs `cuInit`. cudarc panics when libcuda is missing, so look for the
/// library first and report NoDriver instead.
pub(crate) fn init_driver() -> Result<()> {
    if !unsafe { sys::is_culib_present() } {
        return Err(Error::new(
            ErrorKind::NoDriver,
            "no CUDA driver found (libcuda.so.1 could not be loaded): install the NVIDIA driver, \
             or use the simulated backend (GRCUDA_BACKEND=simulated)",
        ));
    }
    result::init().during("cuInit")
}

fn cuda_device_info(context: &Arc<CudaContext>) -> Result<DeviceInfo> {
    use sys::CUdevice_attribute as A;
    let attribute = |a: A, name: &str| context.attribute(a).during(name);
    let vmm_supported = attribute(
        A::CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED,
        "cuDeviceGetAttribute(VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED)",
    )? != 0;
    let ring_granularity = if vmm_supported { vmm_granularity(context.cu_device())? } else { 0 };
    Ok(DeviceInfo {
        backend: Backend::Cuda,
        ordinal: context.ordinal(),
        name: context.name().during("cuDeviceGetName")?,
        compute_capability: context.compute_capability().during("cuDeviceGetAttribute(COMPUTE_CAPABILITY)")?,
        multiprocessor_count: attribute(
            A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)",
        )?,
        total_memory: context.total_mem().during("cuDeviceTotalMem")?,
        vmm_supported,
        ring_granularity,
        shared_bytes_per_block_optin: attribute(
            A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)",
        )? as usize,
    })
}

/// The properties of a pinned VMM allocation on `device`, as rings are made.
pub(crate) fn allocation_properties(device: sys::CUdevice) -> sys::CUmemAllocationProp {
    let mut properties: sys::CUmemAllocationProp = unsafe { std::mem::zeroed() };
    properties.type_ = sys::CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
    properties.location.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
    properties.location.id = device;
    properties
}

/// The minimum VMM allocation granularity of `device`: every ring is a multiple of it.
pub(crate) fn vmm_granularity(device: sys::CUdevice) -> Result<usize> {
    let properties = allocation_properties(device);
    let mut granularity = 0usize;
    unsafe {
        sys::cuMemGetAllocationGranularity(
            &mut granularity,
            &properties,
            sys::CUmemAllocationGranularity_flags::CU_MEM_ALLOC_GRANULARITY_MINIMUM,
        )
    }
    .result()
    .during("cuMemGetAllocationGranularity")?;
    Ok(granularity)
}
