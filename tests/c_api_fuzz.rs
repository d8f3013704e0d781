//! A seeded random-call fuzzer of the C API: a long run of calls to the exported functions with
//! random arguments, checking the API's contract after every call.
//!
//! Arguments are drawn from what a C caller may legally pass: NULL or live handles of the
//! right type (never freed ones: using a freed handle is undefined behaviour by contract),
//! zero, small, huge and negative-as-unsigned sizes and indices, unknown enum values, NULL
//! out-parameters, NULL or in-bounds (sometimes misaligned or overlapping) addresses, and calls
//! in any order (consume before add_reader, post_work before set_transfer_type, a transfer type
//! set twice...). An address is never paired with a size that runs past its memory unless the
//! size cannot be valid at all (it overflows, or runs past the end of the address space),
//! since the library cannot know how big caller memory is; device memory is only passed with
//! a stream of its own backend; and a list's count never exceeds the list unless it is NULL.
//!
//! After every call it checks: the status is one the call may return (never PANIC; NOT_READY
//! only from grcuda_event_query; NO_DRIVER and NO_DEVICE only from device calls; on the
//! simulated backend only OK, INVALID_ARGUMENT and OUT_OF_MEMORY); a failed call leaves a new,
//! non-empty last-error message (a sentinel message is set before each call) and a successful
//! one leaves it alone; out-parameters are cleared on failure and plausible on success;
//! getters agree with what the fuzzer knows. A panic or abort in the library fails the test by
//! itself. At the end every exported function must have been called, and with every handle
//! freed the simulated device's memory must be back where it started.
//!
//! Environment: GRCUDA_FUZZ_SEED (default 0x6772637564612121, or `random`; printed either way),
//! GRCUDA_FUZZ_CALLS (default 1000000; `long` means 100000000), GRCUDA_FUZZ_TRACE=1 (print
//! every call and a per-function summary; run with --nocapture). A failure names the seed and
//! the step, so `GRCUDA_FUZZ_SEED=<seed> GRCUDA_FUZZ_CALLS=<step + 1>` replays it. Uses the
//! simulated backend always and CUDA too where GRCUDA_BACKEND=auto finds a device.
//!
//! Speed: 10^6 steps (about 1.09 million checked calls, plus a sentinel call before each) take
//! 13-20 s in the debug build on the 2-core development machine, so the default count needs
//! no optimised test profile.

use grcuda::ffi::*;
use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_void};
use std::ptr::{null, null_mut};
use std::time::Instant;

const SEED_ENV: &str = "GRCUDA_FUZZ_SEED";
const CALLS_ENV: &str = "GRCUDA_FUZZ_CALLS";
const TRACE_ENV: &str = "GRCUDA_FUZZ_TRACE";
const DEFAULT_SEED: u64 = 0x6772_6375_6461_2121;
const DEFAULT_CALLS: u64 = 1_000_000;
const LONG_CALLS: u64 = 100_000_000;

/// A backend value no fuzzed call uses: the sentinel call's message is recognisably its own.
const SENTINEL_BACKEND: u32 = 0x5e47_1e11;
/// What uninitialised out-parameters hold before a call.
const GARBAGE: usize = 0xdead_beef;

/// Largest count of items a valid-size call works on: keeps the calls cheap.
const MAX_ITEMS: usize = 4096;

/// SplitMix64: small, fast, and the same sequence whatever crates are upgraded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, n); n > 0.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in [low, high].
    fn range(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    fn percent(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A size no valid call can have: -1 .. -4096 as unsigned. With any item size of at least
    /// one byte it runs past the end of the address space from any address above 4096.
    fn huge(&mut self) -> usize {
        usize::MAX - self.below(4096)
    }

    /// An index or count of any kind: mostly in [0, limit], sometimes just past it, huge, or
    /// negative as unsigned. Only for arguments the library checks against its own state.
    fn index(&mut self, limit: usize) -> usize {
        match self.below(10) {
            0 => limit.saturating_add(self.below(3)),
            1 => self.huge(),
            2 => self.pick(&[usize::MAX / 2, 1 << 32, 1 << 62, (i32::MAX as usize) + 1]),
            _ => self.range(0, limit),
        }
    }

    /// A span of a ring of `ring_items` items that data is copied over: mostly at most
    /// `MAX_ITEMS` items (large rings would make the copies slow), sometimes the whole ring when
    /// it is small, or too many items.
    fn span(&mut self, ring_items: usize) -> usize {
        match self.below(10) {
            0 => ring_items.saturating_add(self.range(1, 3)),
            1 => self.huge(),
            2 if ring_items <= 1 << 16 => ring_items,
            _ => self.range(0, ring_items.min(MAX_ITEMS)),
        }
    }

    /// An enum value: mostly a valid one from `valid`, sometimes anything.
    fn enum_value(&mut self, valid: &[u32]) -> u32 {
        match self.below(10) {
            0 => self.next() as u32,
            1 => self.pick(&[u32::MAX, u32::MAX - 1, 4, 5, 99, 0x8000_0000]),
            _ => self.pick(valid),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Backend {
    Simulated,
    Cuda,
}

struct Device {
    handle: *mut grcuda_device,
    backend: Backend,
}

struct StreamHandle {
    handle: *mut grcuda_stream,
    backend: Backend,
}

struct EventHandle {
    handle: *mut grcuda_event,
    backend: Backend,
}

struct Memory {
    handle: *mut grcuda_memory,
    backend: Backend,
    kind: u32,
    address: usize,
    /// Addressable bytes from `address`: the size, or twice it for rings.
    span: usize,
}

impl Memory {
    /// Whether kernels and memsets on a `backend` stream may use it: on CUDA only device memory.
    fn device_accessible(&self, backend: Backend) -> bool {
        self.backend == backend
            && (backend == Backend::Simulated || matches!(self.kind, GRCUDA_MEMORY_DEVICE | GRCUDA_MEMORY_DEVICE_RING))
    }
}

struct BufferHandle {
    handle: *mut grcuda_buffer,
    backend: Backend,
    ring_items: usize,
    item_size: usize,
    /// Readers registered so far: exactly, or at least when `readers_exact` is false (a block
    /// attached the buffer to its ports, which may register readers).
    readers: usize,
    readers_exact: bool,
}

struct PlanHandle {
    handle: *mut grcuda_fft_plan,
    backend: Backend,
    kind: u32,
    size: usize,
}

struct FilterHandle {
    handle: *mut grcuda_fir_filter,
    backend: Backend,
    /// 0 = ccc, 1 = ccf, 2 = fff.
    types: usize,
    decimation: usize,
}

struct ExpressionHandle {
    handle: *mut grcuda_expression,
    backend: Backend,
    /// Bytes of one input and of one output value.
    input_bytes: usize,
    output_bytes: usize,
    inputs: usize,
    vector_length: usize,
}

struct BlockHandle {
    handle: *mut grcuda_block,
    backend: Backend,
    /// Input ports set by the last grcuda_block_attach_ports.
    inputs: usize,
}

/// How many live objects of each kind the fuzzer keeps at most.
const POOL: usize = 6;

/// The statuses a call may return beyond OK, INVALID_ARGUMENT and OUT_OF_MEMORY.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Simulated objects only: nothing else.
    Simulated,
    /// A call that may reach the CUDA driver: any failure but PANIC and NOT_READY.
    Cuda,
    /// Device enumeration: NO_DRIVER, NO_DEVICE and, with a driver, any failure.
    DeviceLookup,
    /// grcuda_event_query: NOT_READY too.
    Query(bool),
}

struct Fuzzer {
    rng: Rng,
    seed: u64,
    call: u64,
    devices: Vec<Device>,
    /// One device per backend that stays open: the one to synchronise before freeing memory.
    anchors: Vec<Device>,
    streams: Vec<StreamHandle>,
    events: Vec<EventHandle>,
    memories: Vec<Memory>,
    buffers: Vec<BufferHandle>,
    blocks: Vec<BlockHandle>,
    plans: Vec<PlanHandle>,
    filters: Vec<FilterHandle>,
    expressions: Vec<ExpressionHandle>,
    calls_by_function: BTreeMap<&'static str, u64>,
    statuses: BTreeMap<&'static str, u64>,
    /// Successful calls by function, for the summary.
    successes: BTreeMap<&'static str, u64>,
    sentinel: String,
    /// The kernel cache's directory before any call set one.
    kernel_cache_from_environment: Option<CString>,
    /// Print every checked call (GRCUDA_FUZZ_TRACE=1), to see what a replayed run does.
    trace: bool,
}

fn status_name(status: grcuda_status) -> &'static str {
    unsafe { CStr::from_ptr(grcuda_status_name(status as i32)) }.to_str().unwrap()
}

fn last_error() -> Option<String> {
    let message = grcuda_last_error_message();
    (!message.is_null()).then(|| unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned())
}

impl Fuzzer {
    fn new(seed: u64) -> Fuzzer {
        let mut fuzzer = Fuzzer {
            rng: Rng(seed),
            seed,
            call: 0,
            devices: Vec::new(),
            anchors: Vec::new(),
            streams: Vec::new(),
            events: Vec::new(),
            memories: Vec::new(),
            buffers: Vec::new(),
            blocks: Vec::new(),
            plans: Vec::new(),
            filters: Vec::new(),
            expressions: Vec::new(),
            calls_by_function: BTreeMap::new(),
            statuses: BTreeMap::new(),
            successes: BTreeMap::new(),
            sentinel: String::new(),
            kernel_cache_from_environment: None,
            trace: std::env::var_os(TRACE_ENV).is_some(),
        };
        let mut count = 0;
        let _ = grcuda_device_count(SENTINEL_BACKEND, &mut count);
        fuzzer.sentinel = last_error().unwrap();
        let directory = grcuda_kernel_cache_directory();
        fuzzer.kernel_cache_from_environment =
            (!directory.is_null()).then(|| unsafe { CStr::from_ptr(directory) }.to_owned());
        // The anchors: the simulated device, and the default one (CUDA where there is a GPU).
        for backend in [GRCUDA_BACKEND_SIMULATED, GRCUDA_BACKEND_AUTO] {
            let mut handle = null_mut();
            if grcuda_device_open(0, backend, &mut handle) == grcuda_status::GRCUDA_STATUS_OK {
                let backend = backend_of(handle);
                if fuzzer.anchors.iter().any(|a| a.backend == backend) {
                    grcuda_device_free(handle);
                } else {
                    fuzzer.anchors.push(Device { handle, backend });
                }
            }
        }
        fuzzer
    }

    /// Sets the sentinel message, so that a failed call that forgets its message shows.
    fn arm(&mut self) {
        let mut count = 0;
        let _ = grcuda_device_count(SENTINEL_BACKEND, &mut count);
    }

    /// Checks a call's status and the last-error message; returns whether it succeeded.
    fn check(
        &mut self,
        function: &'static str,
        status: grcuda_status,
        scope: Scope,
        describe: impl Fn() -> String,
    ) -> bool {
        use grcuda_status::*;
        *self.calls_by_function.entry(function).or_default() += 1;
        *self.statuses.entry(status_name(status)).or_default() += 1;
        if status == GRCUDA_STATUS_OK {
            *self.successes.entry(function).or_default() += 1;
        }
        let allowed = match status {
            GRCUDA_STATUS_OK | GRCUDA_STATUS_INVALID_ARGUMENT | GRCUDA_STATUS_OUT_OF_MEMORY => true,
            GRCUDA_STATUS_PANIC => false,
            GRCUDA_STATUS_NOT_READY => scope == Scope::Query(true),
            GRCUDA_STATUS_NO_DRIVER | GRCUDA_STATUS_NO_DEVICE => scope == Scope::DeviceLookup,
            _ => matches!(scope, Scope::Cuda | Scope::DeviceLookup | Scope::Query(true)),
        };
        let traced = self.trace.then(|| {
            let arguments = describe();
            eprintln!("{} {function}({arguments}) -> {}", self.call, status_name(status));
            arguments
        });
        let message = last_error();
        let failed = !matches!(status, GRCUDA_STATUS_OK | GRCUDA_STATUS_NOT_READY);
        let problem = if !allowed {
            Some(format!("returned {}, which it must not", status_name(status)))
        } else if failed {
            match &message {
                None => Some("failed without a last-error message".to_string()),
                Some(m) if *m == self.sentinel => Some("failed without setting its own last-error message".to_string()),
                Some(m) if !m.starts_with("grcuda: ") || m.len() < 16 => Some(format!("failed with the message {m:?}")),
                Some(_) if scope == Scope::Simulated && grcuda_last_cuda_result() != 0 => {
                    Some(format!("failed on the simulated backend with CUresult {}", grcuda_last_cuda_result()))
                }
                _ => None,
            }
        } else if message.as_deref() != Some(self.sentinel.as_str()) {
            Some(format!("succeeded but changed the last-error message to {message:?}"))
        } else {
            None
        };
        if let Some(problem) = problem {
            let arguments = traced.unwrap_or_else(describe);
            self.fail(&format!("{function}({arguments}) {problem}; last error: {message:?}"));
        }
        !failed
    }

    fn fail(&self, problem: &str) -> ! {
        panic!(
            "step {} (seed {:#x}): {problem}\nreplay: {SEED_ENV}={:#x} {CALLS_ENV}={}",
            self.call,
            self.seed,
            self.seed,
            self.call + 1
        );
    }

    /// Fails unless `cleared` when the call failed.
    fn check_cleared(&self, function: &str, succeeded: bool, cleared: bool) {
        if !succeeded && !cleared {
            self.fail(&format!("{function} failed but left its out-parameter uncleared"));
        }
    }

    // ---- argument choice ----

    fn device(&mut self) -> (*const grcuda_device, Option<Backend>) {
        let live = self.devices.len() + self.anchors.len();
        if live == 0 || self.rng.percent(8) {
            return (null(), None);
        }
        let index = self.rng.below(live);
        let device =
            if index < self.devices.len() { &self.devices[index] } else { &self.anchors[index - self.devices.len()] };
        (device.handle, Some(device.backend))
    }

    /// A stream: NULL, a stream handle, or a block's stream.
    fn stream(&mut self) -> (*const grcuda_stream, Option<Backend>) {
        let live = self.streams.len() + self.blocks.len();
        if live == 0 || self.rng.percent(8) {
            return (null(), None);
        }
        let index = self.rng.below(live);
        if index < self.streams.len() {
            (self.streams[index].handle, Some(self.streams[index].backend))
        } else {
            let block = &self.blocks[index - self.streams.len()];
            (grcuda_block_stream(block.handle), Some(block.backend))
        }
    }

    fn event(&mut self) -> (*const grcuda_event, Option<Backend>) {
        if self.events.is_empty() || self.rng.percent(8) {
            return (null(), None);
        }
        let event = &self.events[self.rng.below(self.events.len())];
        (event.handle, Some(event.backend))
    }

    fn buffer(&mut self) -> Option<usize> {
        (!self.buffers.is_empty() && !self.rng.percent(8)).then(|| self.rng.below(self.buffers.len()))
    }

    fn buffer_handle(&self, index: Option<usize>) -> *mut grcuda_buffer {
        index.map_or(null_mut(), |i| self.buffers[i].handle)
    }

    fn block(&mut self) -> Option<usize> {
        (!self.blocks.is_empty() && !self.rng.percent(8)).then(|| self.rng.below(self.blocks.len()))
    }

    fn block_handle(&self, index: Option<usize>) -> *mut grcuda_block {
        index.map_or(null_mut(), |i| self.blocks[i].handle)
    }

    /// An address with `bytes` valid bytes in memory that `accessible` accepts, aligned to
    /// `align` (or, sometimes, misaligned by a byte); NULL sometimes, or when nothing fits.
    fn address(&mut self, bytes: usize, align: usize, accessible: impl Fn(&Memory) -> bool) -> usize {
        if self.rng.percent(5) {
            return 0;
        }
        let misaligned = align > 1 && self.rng.percent(3);
        let needed = bytes + if misaligned { align } else { 0 };
        let fitting: Vec<usize> = (0..self.memories.len())
            .filter(|&i| accessible(&self.memories[i]) && self.memories[i].span >= needed)
            .collect();
        if fitting.is_empty() {
            return 0;
        }
        let memory = &self.memories[fitting[self.rng.below(fitting.len())]];
        // Offsets near the start, so that two arrays from one memory often overlap.
        let room = (memory.span - needed) / align;
        let slot = if self.rng.percent(50) { self.rng.below(room.min(64) + 1) } else { self.rng.below(room + 1) };
        memory.address + slot * align + if misaligned { self.rng.range(1, align - 1) } else { 0 }
    }

    /// An array of `count` items of `item` bytes for a kernel on a `backend` stream, or, when
    /// `count` cannot be valid, any address (the library must reject the count before using it).
    fn array(&mut self, backend: Option<Backend>, count: usize, item: usize) -> usize {
        let backend = backend.unwrap_or(Backend::Simulated);
        match count.checked_mul(item) {
            Some(bytes) if bytes <= MAX_ITEMS * 16 => self.address(bytes, item, |m| m.device_accessible(backend)),
            _ => self.address(item, item, |m| m.device_accessible(backend)),
        }
    }

    /// A count of items for a kernel: mostly small, sometimes 0 or impossible.
    fn count(&mut self) -> usize {
        match self.rng.below(20) {
            0 => 0,
            1 => self.rng.huge(),
            2..=9 => self.rng.range(1, 16),
            _ => self.rng.range(1, MAX_ITEMS),
        }
    }

    /// A list of `length` addresses as C passes `const void *const *`, or NULL.
    fn address_list(
        &mut self,
        backend: Option<Backend>,
        length: usize,
        bytes_each: usize,
        align: usize,
    ) -> Vec<*const c_void> {
        let backend = backend.unwrap_or(Backend::Simulated);
        (0..length)
            .map(|_| {
                let bytes = if bytes_each <= MAX_ITEMS * 16 { bytes_each } else { align };
                self.address(bytes, align, |m| m.device_accessible(backend)) as *const c_void
            })
            .collect()
    }

    /// A pointer to `list` with a count the caller may legally pass: at most its length, or
    /// any count with NULL.
    fn list_argument<T>(&mut self, list: &[T]) -> (*const T, usize) {
        match self.rng.below(12) {
            0 => (null(), self.rng.index(4)),
            1 => (null(), 0),
            2 | 3 => (list.as_ptr(), self.rng.range(0, list.len())),
            _ => (list.as_ptr(), list.len()),
        }
    }

    // ---- bookkeeping ----

    /// Waits for every CUDA stream (before CUDA memory is freed: pending kernels may use it).
    fn quiesce(&mut self, backend: Backend) {
        if backend == Backend::Simulated {
            return;
        }
        if let Some(anchor) = self.anchors.iter().find(|a| a.backend == Backend::Cuda) {
            let handle = anchor.handle;
            self.arm();
            let status = grcuda_device_synchronize(handle);
            self.check("grcuda_device_synchronize", status, Scope::Cuda, || "the CUDA anchor".into());
        }
    }

    fn free_memory_at(&mut self, index: usize) {
        let memory = self.memories.swap_remove(index);
        self.quiesce(memory.backend);
        grcuda_memory_free(memory.handle);
        self.count_call("grcuda_memory_free");
    }

    fn count_call(&mut self, function: &'static str) {
        *self.calls_by_function.entry(function).or_default() += 1;
    }

    // ---- the calls ----

    fn step(&mut self) {
        self.arm();
        match self.rng.below(100) {
            0..=2 => self.device_call(),
            3..=9 => self.stream_call(),
            10..=14 => self.event_call(),
            15..=21 => self.memory_call(),
            22..=49 => self.buffer_call(),
            50..=61 => self.block_call(),
            62..=93 => self.kernel_call(),
            _ => self.status_call(),
        }
        self.call += 1;
    }

    fn device_call(&mut self) {
        match self.rng.below(7) {
            0 | 1 => {
                let ordinal = match self.rng.below(6) {
                    0 => -(self.rng.range(1, 3) as i32),
                    1 => self.rng.pick(&[1, 2, 4096, i32::MAX, i32::MIN]),
                    _ => 0,
                };
                let backend =
                    self.rng.enum_value(&[GRCUDA_BACKEND_AUTO, GRCUDA_BACKEND_SIMULATED, GRCUDA_BACKEND_CUDA]);
                let scope = Scope::DeviceLookup;
                let null_out = self.rng.percent(5);
                let mut handle = garbage::<grcuda_device>();
                let out = if null_out { null_mut() } else { &mut handle as *mut _ };
                let status = grcuda_device_open(ordinal, backend, out);
                let ok = self.check("grcuda_device_open", status, scope, || {
                    format!("{ordinal}, {backend}, null_out {null_out}")
                });
                self.check_cleared("grcuda_device_open", ok, null_out || handle.is_null());
                if ok {
                    if self.devices.len() >= POOL {
                        let old = self.devices.swap_remove(self.rng.below(POOL));
                        grcuda_device_free(old.handle);
                        self.count_call("grcuda_device_free");
                    }
                    let backend = backend_of(handle);
                    self.devices.push(Device { handle, backend });
                }
            }
            2 => {
                if !self.devices.is_empty() {
                    let device = self.devices.swap_remove(self.rng.below(self.devices.len()));
                    grcuda_device_free(device.handle);
                } else {
                    grcuda_device_free(null_mut());
                }
                self.count_call("grcuda_device_free");
            }
            3 => {
                let backend =
                    self.rng.enum_value(&[GRCUDA_BACKEND_AUTO, GRCUDA_BACKEND_SIMULATED, GRCUDA_BACKEND_CUDA]);
                let mut count = -77i32;
                let status = grcuda_device_count(backend, &mut count);
                let ok = self.check("grcuda_device_count", status, Scope::DeviceLookup, || format!("{backend}"));
                self.check_cleared("grcuda_device_count", ok, count == 0);
                if ok && count < 0 {
                    self.fail(&format!("grcuda_device_count({backend}) gave {count}"));
                }
            }
            4 => {
                let (device, backend) = self.device();
                let null_out = self.rng.percent(5);
                let mut info: grcuda_device_info = unsafe { std::mem::zeroed() };
                info.backend = 0x5a5a;
                info.name[0] = 0x5a;
                info.total_memory = u64::MAX;
                let out = if null_out { null_mut() } else { &mut info as *mut _ };
                let status = grcuda_device_get_info(device, out);
                let ok = self.check("grcuda_device_get_info", status, scope_of(backend), || format!("{device:?}"));
                self.check_cleared(
                    "grcuda_device_get_info",
                    ok,
                    null_out || (info.backend == 0 && info.name[0] == 0 && info.total_memory == 0),
                );
                if ok && info.backend != GRCUDA_BACKEND_SIMULATED && info.backend != GRCUDA_BACKEND_CUDA {
                    self.fail("grcuda_device_get_info gave an unknown backend");
                }
            }
            5 => {
                let (device, backend) = self.device();
                let null_out = self.rng.percent(5);
                let mut bytes = GARBAGE as u64;
                let out = if null_out { null_mut() } else { &mut bytes as *mut _ };
                let status = grcuda_device_free_memory(device, out);
                let ok = self.check("grcuda_device_free_memory", status, scope_of(backend), || format!("{device:?}"));
                self.check_cleared("grcuda_device_free_memory", ok, null_out || bytes == 0);
            }
            _ => {
                let (device, backend) = self.device();
                let status = grcuda_device_synchronize(device);
                self.check("grcuda_device_synchronize", status, scope_of(backend), || format!("{device:?}"));
            }
        }
    }

    fn stream_call(&mut self) {
        match self.rng.below(8) {
            0 => {
                let (device, backend) = self.device();
                let null_out = self.rng.percent(5);
                let mut handle = garbage::<grcuda_stream>();
                let out = if null_out { null_mut() } else { &mut handle as *mut _ };
                let status = grcuda_stream_new(device, out);
                let ok = self.check("grcuda_stream_new", status, scope_of(backend), || {
                    format!("{device:?}, null_out {null_out}")
                });
                self.check_cleared("grcuda_stream_new", ok, null_out || handle.is_null());
                if ok {
                    if self.streams.len() >= POOL {
                        let index = self.rng.below(POOL);
                        self.free_stream(index);
                    }
                    self.streams.push(StreamHandle { handle, backend: backend.unwrap() });
                }
            }
            1 => {
                if self.streams.is_empty() {
                    grcuda_stream_free(null_mut());
                    self.count_call("grcuda_stream_free");
                } else {
                    let index = self.rng.below(self.streams.len());
                    self.free_stream(index);
                }
            }
            2 => {
                let (stream, backend) = self.stream();
                let handle = grcuda_stream_handle(stream);
                self.count_call("grcuda_stream_handle");
                if handle != 0 && backend != Some(Backend::Cuda) {
                    self.fail(&format!("grcuda_stream_handle gave {handle:#x} for a stream without a CUDA stream"));
                }
            }
            3 => {
                let (stream, backend) = self.stream();
                let status = grcuda_stream_synchronize(stream);
                self.check("grcuda_stream_synchronize", status, scope_of(backend), || format!("{stream:?}"));
            }
            4 => {
                let (stream, stream_backend) = self.stream();
                let (event, event_backend) = self.event();
                let status = grcuda_stream_wait_event(stream, event);
                self.check("grcuda_stream_wait_event", status, scope_of2(stream_backend, event_backend), || {
                    format!("{stream:?}, {event:?}")
                });
            }
            5 | 6 => {
                let (stream, backend) = self.stream();
                let huge = self.rng.percent(5);
                let bytes = if huge { self.rng.huge() } else { self.count() % (MAX_ITEMS * 4) };
                let any = |m: &Memory| Some(m.backend) == backend || backend.is_none();
                let size = if huge { 1 } else { bytes };
                let destination = self.address(size, 1, any);
                let source = self.address(size, 1, any);
                let status =
                    grcuda_stream_copy_async(stream, destination as *mut c_void, source as *const c_void, bytes);
                self.check("grcuda_stream_copy_async", status, scope_of(backend), || {
                    format!("{stream:?}, {destination:#x}, {source:#x}, {bytes}")
                });
            }
            _ => {
                let (stream, backend) = self.stream();
                let huge = self.rng.percent(5);
                let bytes = if huge { self.rng.huge() } else { self.count() % (MAX_ITEMS * 4) };
                let value = self.rng.next() as u8;
                let destination = self.array(backend, if huge { 1 } else { bytes }, 1);
                let status = grcuda_stream_memset_async(stream, destination as *mut c_void, value, bytes);
                self.check("grcuda_stream_memset_async", status, scope_of(backend), || {
                    format!("{stream:?}, {destination:#x}, {value}, {bytes}")
                });
            }
        }
    }

    fn free_stream(&mut self, index: usize) {
        let stream = self.streams.swap_remove(index);
        grcuda_stream_free(stream.handle);
        self.count_call("grcuda_stream_free");
    }

    fn event_call(&mut self) {
        match self.rng.below(6) {
            0 => {
                let (device, backend) = self.device();
                let mode =
                    self.rng.enum_value(&[GRCUDA_HOST_WAIT_SPIN, GRCUDA_HOST_WAIT_BLOCK, GRCUDA_HOST_WAIT_ADAPTIVE]);
                let null_out = self.rng.percent(5);
                let mut handle = garbage::<grcuda_event>();
                let out = if null_out { null_mut() } else { &mut handle as *mut _ };
                let status = grcuda_event_new(device, mode, out);
                let ok = self.check("grcuda_event_new", status, scope_of(backend), || {
                    format!("{device:?}, {mode}, null_out {null_out}")
                });
                self.check_cleared("grcuda_event_new", ok, null_out || handle.is_null());
                if ok {
                    if self.events.len() >= POOL {
                        let old = self.events.swap_remove(self.rng.below(POOL));
                        grcuda_event_free(old.handle);
                        self.count_call("grcuda_event_free");
                    }
                    self.events.push(EventHandle { handle, backend: backend.unwrap() });
                }
            }
            1 => {
                if self.events.is_empty() {
                    grcuda_event_free(null_mut());
                } else {
                    let event = self.events.swap_remove(self.rng.below(self.events.len()));
                    grcuda_event_free(event.handle);
                }
                self.count_call("grcuda_event_free");
            }
            2 | 3 => {
                let (event, event_backend) = self.event();
                let (stream, stream_backend) = self.stream();
                let status = grcuda_event_record(event, stream);
                self.check("grcuda_event_record", status, scope_of2(event_backend, stream_backend), || {
                    format!("{event:?}, {stream:?}")
                });
            }
            4 => {
                let (event, backend) = self.event();
                let status = grcuda_event_synchronize(event);
                self.check("grcuda_event_synchronize", status, scope_of(backend), || format!("{event:?}"));
            }
            _ => {
                let (event, backend) = self.event();
                let status = grcuda_event_query(event);
                let scope = Scope::Query(backend == Some(Backend::Cuda));
                self.check("grcuda_event_query", status, scope, || format!("{event:?}"));
            }
        }
    }

    fn memory_call(&mut self) {
        match self.rng.below(8) {
            0..=2 => {
                let (device, backend) = self.device();
                let kind = self.rng.enum_value(&[
                    GRCUDA_MEMORY_DEVICE,
                    GRCUDA_MEMORY_PINNED_HOST,
                    GRCUDA_MEMORY_DEVICE_RING,
                    GRCUDA_MEMORY_HOST_RING,
                ]);
                let bytes = match self.rng.below(20) {
                    0 => 0,
                    1 => self.rng.huge(),
                    2 => self.rng.pick(&[usize::MAX / 2, 1 << 40, 1 << 50]),
                    3 => self.rng.range(1 << 20, 64 << 20),
                    _ => self.rng.range(1, 256 << 10),
                };
                let null_out = self.rng.percent(5);
                let mut handle = garbage::<grcuda_memory>();
                let out = if null_out { null_mut() } else { &mut handle as *mut _ };
                let status = grcuda_memory_new(device, kind, bytes, out);
                let ok = self.check("grcuda_memory_new", status, scope_of(backend), || {
                    format!("{device:?}, {kind}, {bytes}, null_out {null_out}")
                });
                self.check_cleared("grcuda_memory_new", ok, null_out || handle.is_null());
                if ok {
                    let address = grcuda_memory_address(handle) as usize;
                    let size = grcuda_memory_size(handle);
                    self.count_call("grcuda_memory_address");
                    self.count_call("grcuda_memory_size");
                    if address == 0 || size < bytes {
                        self.fail(&format!("grcuda_memory_new({kind}, {bytes}) gave {size} bytes at {address:#x}"));
                    }
                    let ring = matches!(kind, GRCUDA_MEMORY_DEVICE_RING | GRCUDA_MEMORY_HOST_RING);
                    if self.memories.len() >= POOL {
                        let index = self.rng.below(POOL);
                        self.free_memory_at(index);
                    }
                    let span = if ring { 2 * size } else { size };
                    self.memories.push(Memory { handle, backend: backend.unwrap(), kind, address, span });
                }
            }
            3 | 4 => {
                if self.memories.is_empty() {
                    grcuda_memory_free(null_mut());
                    self.count_call("grcuda_memory_free");
                } else {
                    let index = self.rng.below(self.memories.len());
                    self.free_memory_at(index);
                }
            }
            5 => self.host_ring_cache_call(),
            _ => {
                let (handle, expected) = if self.memories.is_empty() || self.rng.percent(20) {
                    (null_mut(), (0, 0))
                } else {
                    let memory = &self.memories[self.rng.below(self.memories.len())];
                    let ring = matches!(memory.kind, GRCUDA_MEMORY_DEVICE_RING | GRCUDA_MEMORY_HOST_RING);
                    (memory.handle, (memory.address, if ring { memory.span / 2 } else { memory.span }))
                };
                let address = grcuda_memory_address(handle) as usize;
                let size = grcuda_memory_size(handle);
                self.count_call("grcuda_memory_address");
                self.count_call("grcuda_memory_size");
                if (address, size) != expected {
                    self.fail(&format!(
                        "memory {handle:?}: address {address:#x} and size {size}, expected {expected:?}"
                    ));
                }
            }
        }
    }

    fn buffer_call(&mut self) {
        let choice = self.rng.below(17);
        if choice == 0 {
            return self.new_buffer();
        }
        if choice == 1 {
            if self.buffers.is_empty() {
                grcuda_buffer_free(null_mut());
            } else {
                let buffer = self.buffers.swap_remove(self.rng.below(self.buffers.len()));
                grcuda_buffer_free(buffer.handle);
            }
            return self.count_call("grcuda_buffer_free");
        }
        let index = self.buffer();
        let buffer = self.buffer_handle(index);
        let backend = index.map(|i| self.buffers[i].backend);
        let scope = scope_of(backend);
        let ring_items = index.map_or(4096, |i| self.buffers[i].ring_items);
        let readers = index.map_or(2, |i| self.buffers[i].readers);
        match choice {
            2 => {
                let items = grcuda_buffer_ring_items(buffer);
                let item_size = grcuda_buffer_item_size(buffer);
                self.count_call("grcuda_buffer_ring_items");
                self.count_call("grcuda_buffer_item_size");
                let expected = index.map_or((0, 0), |i| (self.buffers[i].ring_items, self.buffers[i].item_size));
                let transfer_type = grcuda_buffer_transfer_type(buffer);
                self.count_call("grcuda_buffer_transfer_type");
                if transfer_type > GRCUDA_TRANSFER_DEVICE_TO_DEVICE || (index.is_none() && transfer_type != 0) {
                    self.fail(&format!("buffer {buffer:?}: transfer type {transfer_type}"));
                }
                if (items, item_size) != expected {
                    self.fail(&format!("buffer {buffer:?}: {items} items of {item_size} bytes, expected {expected:?}"));
                }
            }
            3 => {
                let transfer = self.rng.enum_value(&[
                    GRCUDA_TRANSFER_HOST_TO_DEVICE,
                    GRCUDA_TRANSFER_DEVICE_TO_HOST,
                    GRCUDA_TRANSFER_DEVICE_TO_DEVICE,
                ]);
                let status = grcuda_buffer_set_transfer_type(buffer, transfer);
                self.check("grcuda_buffer_set_transfer_type", status, scope, || format!("{buffer:?}, {transfer}"));
            }
            4 => {
                let (stream, stream_backend) = self.stream();
                let status = grcuda_buffer_set_writer_stream(buffer, stream);
                self.check("grcuda_buffer_set_writer_stream", status, scope_of2(backend, stream_backend), || {
                    format!("{buffer:?}, {stream:?}")
                });
            }
            5 => {
                let (stream, stream_backend) = self.stream();
                let null_out = self.rng.percent(5);
                let mut reader = GARBAGE;
                let out = if null_out { null_mut() } else { &mut reader as *mut _ };
                let status = grcuda_buffer_add_reader(buffer, stream, out);
                let ok = self.check("grcuda_buffer_add_reader", status, scope_of2(backend, stream_backend), || {
                    format!("{buffer:?}, {stream:?}")
                });
                self.check_cleared("grcuda_buffer_add_reader", ok, null_out || reader == 0);
                if ok {
                    let i = index.unwrap();
                    let expected = self.buffers[i].readers;
                    if reader < expected || (self.buffers[i].readers_exact && reader != expected) {
                        self.fail(&format!("grcuda_buffer_add_reader gave reader {reader}, expected {expected}"));
                    }
                    self.buffers[i].readers = reader + 1;
                }
            }
            6 => {
                let (stream, stream_backend) = self.stream();
                let reader = self.rng.index(readers);
                let status = grcuda_buffer_set_reader_stream(buffer, reader, stream);
                self.check("grcuda_buffer_set_reader_stream", status, scope_of2(backend, stream_backend), || {
                    format!("{buffer:?}, {reader}, {stream:?}")
                });
            }
            7 | 8 => {
                let item = self.rng.index(ring_items);
                let null_out = self.rng.percent(5);
                let mut pointer = garbage::<c_void>();
                let out = if null_out { null_mut() } else { &mut pointer as *mut _ };
                let (function, status) = match (choice, self.rng.percent(50)) {
                    (7, _) => ("grcuda_buffer_writer_pointer", grcuda_buffer_writer_pointer(buffer, item, out)),
                    (_, true) => {
                        ("grcuda_buffer_reader_pointer", grcuda_buffer_reader_pointer(buffer, item, out.cast()))
                    }
                    (_, false) => ("grcuda_buffer_begin_read", grcuda_buffer_begin_read(buffer, item, out.cast())),
                };
                let ok = self.check(function, status, scope, || format!("{buffer:?}, {item}"));
                self.check_cleared(function, ok, null_out || pointer.is_null());
                if ok && pointer.is_null() {
                    self.fail(&format!("{function} succeeded with NULL"));
                }
            }
            9 | 10 => {
                let item = self.rng.index(ring_items);
                let nitems = self.rng.span(ring_items);
                let status = grcuda_buffer_begin_write(buffer, item, nitems);
                self.check("grcuda_buffer_begin_write", status, scope, || format!("{buffer:?}, {item}, {nitems}"));
            }
            11 | 12 => {
                let item = self.rng.index(ring_items);
                let nitems = self.rng.span(ring_items);
                let status = grcuda_buffer_post_work(buffer, item, nitems);
                self.check("grcuda_buffer_post_work", status, scope, || format!("{buffer:?}, {item}, {nitems}"));
            }
            13 => {
                let reader = self.rng.index(readers);
                let item = self.rng.index(ring_items);
                let nitems = self.rng.index(ring_items);
                let status = grcuda_buffer_consume(buffer, reader, item, nitems);
                self.check("grcuda_buffer_consume", status, scope, || {
                    format!("{buffer:?}, {reader}, {item}, {nitems}")
                });
            }
            14 => {
                let item = self.rng.index(ring_items);
                let nitems = self.rng.index(ring_items);
                let status = grcuda_buffer_wait_published(buffer, item, nitems);
                self.check("grcuda_buffer_wait_published", status, scope, || format!("{buffer:?}, {item}, {nitems}"));
            }
            15 => {
                let item = self.rng.index(ring_items);
                let nitems = self.rng.index(ring_items);
                let null_out = self.rng.percent(5);
                let mut published = GARBAGE;
                let out = if null_out { null_mut() } else { &mut published as *mut _ };
                let status = grcuda_buffer_published_items(buffer, item, nitems, out);
                let ok = self
                    .check("grcuda_buffer_published_items", status, scope, || format!("{buffer:?}, {item}, {nitems}"));
                self.check_cleared("grcuda_buffer_published_items", ok, null_out || published == 0);
                if ok && published > nitems {
                    self.fail(&format!("grcuda_buffer_published_items gave {published} of {nitems}"));
                }
            }
            _ => {
                let status = grcuda_buffer_synchronize(buffer);
                self.check("grcuda_buffer_synchronize", status, scope, || format!("{buffer:?}"));
            }
        }
    }

    fn new_buffer(&mut self) {
        let (device, backend) = self.device();
        let item_size = match self.rng.below(12) {
            0 => 0,
            1 => self.rng.huge(),
            2 => self.rng.pick(&[3, 12, 24, 4096]),
            _ => self.rng.pick(&[1, 2, 4, 8, 16]),
        };
        let min_items = match self.rng.below(12) {
            0 => 0,
            1 => self.rng.huge(),
            2 => self.rng.pick(&[1 << 32, usize::MAX / 8, 1 << 28]),
            _ => self.rng.range(1, 20_000),
        };
        let mode = self.rng.enum_value(&[GRCUDA_HOST_WAIT_SPIN, GRCUDA_HOST_WAIT_BLOCK, GRCUDA_HOST_WAIT_ADAPTIVE]);
        let null_out = self.rng.percent(5);
        let mut handle = garbage::<grcuda_buffer>();
        let out = if null_out { null_mut() } else { &mut handle as *mut _ };
        let status = grcuda_buffer_new(device, item_size, min_items, mode, out);
        let ok = self.check("grcuda_buffer_new", status, scope_of(backend), || {
            format!("{device:?}, {item_size}, {min_items}, {mode}")
        });
        self.check_cleared("grcuda_buffer_new", ok, null_out || handle.is_null());
        if ok {
            let ring_items = grcuda_buffer_ring_items(handle);
            if ring_items < min_items || ring_items == 0 {
                self.fail(&format!("grcuda_buffer_new({item_size}, {min_items}) made a ring of {ring_items} items"));
            }
            if self.buffers.len() >= POOL {
                let old = self.buffers.swap_remove(self.rng.below(POOL));
                grcuda_buffer_free(old.handle);
                self.count_call("grcuda_buffer_free");
            }
            self.buffers.push(BufferHandle {
                handle,
                backend: backend.unwrap(),
                ring_items,
                item_size,
                readers: 0,
                readers_exact: true,
            });
        }
    }

    fn block_call(&mut self) {
        let choice = self.rng.below(12);
        match choice {
            0 => {
                let (device, backend) = self.device();
                let null_out = self.rng.percent(5);
                let mut handle = garbage::<grcuda_block>();
                let out = if null_out { null_mut() } else { &mut handle as *mut _ };
                let mode =
                    self.rng.enum_value(&[GRCUDA_HOST_WAIT_SPIN, GRCUDA_HOST_WAIT_BLOCK, GRCUDA_HOST_WAIT_ADAPTIVE]);
                let status = grcuda_block_new(device, mode, out);
                let ok = self.check("grcuda_block_new", status, scope_of(backend), || {
                    format!("{device:?}, {mode}, null_out {null_out}")
                });
                self.check_cleared("grcuda_block_new", ok, null_out || handle.is_null());
                if ok {
                    if self.blocks.len() >= POOL {
                        let index = self.rng.below(POOL);
                        self.free_block(index);
                    }
                    self.blocks.push(BlockHandle { handle, backend: backend.unwrap(), inputs: 0 });
                }
            }
            1 => {
                if self.blocks.is_empty() {
                    grcuda_block_free(null_mut());
                    self.count_call("grcuda_block_free");
                } else {
                    let index = self.rng.below(self.blocks.len());
                    self.free_block(index);
                }
            }
            2 => {
                let index = self.block();
                let stream = grcuda_block_stream(self.block_handle(index));
                let handle = grcuda_block_stream_handle(self.block_handle(index));
                self.count_call("grcuda_block_stream");
                self.count_call("grcuda_block_stream_handle");
                let backend = index.map(|i| self.blocks[i].backend);
                if stream.is_null() != index.is_none() || (handle != 0 && backend != Some(Backend::Cuda)) {
                    self.fail(&format!("block {index:?}: stream {stream:?}, handle {handle:#x}"));
                }
            }
            3..=5 => {
                let index = self.block();
                let block = self.block_handle(index);
                let mut backends = vec![index.map(|i| self.blocks[i].backend)];
                let mut ports = |fuzzer: &mut Self| -> Vec<*const grcuda_buffer> {
                    (0..fuzzer.rng.below(4))
                        .map(|_| {
                            if fuzzer.rng.percent(25) {
                                return null();
                            }
                            let buffer = fuzzer.buffer();
                            backends.push(buffer.map(|i| fuzzer.buffers[i].backend));
                            fuzzer.buffer_handle(buffer).cast_const()
                        })
                        .collect()
                };
                let inputs = ports(self);
                let outputs = ports(self);
                let (input_list, ninputs) = self.list_argument(&inputs);
                let (output_list, noutputs) = self.list_argument(&outputs);
                let scope = if backends.contains(&Some(Backend::Cuda)) { Scope::Cuda } else { Scope::Simulated };
                let status = grcuda_block_attach_ports(block, input_list, ninputs, output_list, noutputs);
                let ok = self.check("grcuda_block_attach_ports", status, scope, || {
                    format!("{block:?}, {ninputs} of {inputs:?}, {noutputs} of {outputs:?}")
                });
                if ok {
                    let block = index.unwrap();
                    self.blocks[block].inputs = ninputs;
                    // Ports may register readers: later reader ids are larger, by how much
                    // depends on the ports kept and the edges' transfer types.
                    for buffer in &inputs[..ninputs] {
                        if let Some(entry) = self.buffers.iter_mut().find(|b| b.handle.cast_const() == *buffer) {
                            entry.readers_exact = false;
                        }
                    }
                }
            }
            9 | 10 => {
                let index = self.block();
                let block = self.block_handle(index);
                let ports = index.map_or(1, |i| self.blocks[i].inputs);
                let length = if self.rng.percent(80) { ports } else { self.rng.below(4) };
                let consumed: Vec<grcuda_consumption> = (0..length)
                    .map(|_| grcuda_consumption { read_index: self.rng.index(4096), nitems: self.rng.index(MAX_ITEMS) })
                    .collect();
                let (pointer, count) = self.list_argument(&consumed);
                let status = grcuda_block_end_work(block, pointer, count);
                self.check("grcuda_block_end_work", status, scope_of(index.map(|i| self.blocks[i].backend)), || {
                    format!("{block:?}, {count} of {}", consumed.len())
                });
            }
            6..=8 => {
                let index = self.block();
                let block = self.block_handle(index);
                let port = self.rng.index(index.map_or(1, |i| self.blocks[i].inputs + 1));
                let (read_index, nitems) = (self.rng.index(4096), self.rng.index(MAX_ITEMS));
                let status = grcuda_block_consume(block, port, read_index, nitems);
                self.check("grcuda_block_consume", status, scope_of(index.map(|i| self.blocks[i].backend)), || {
                    format!("{block:?}, port {port}, {read_index}, {nitems}")
                });
            }
            _ => {
                let index = self.block();
                let status = grcuda_block_synchronize(self.block_handle(index));
                self.check("grcuda_block_synchronize", status, scope_of(index.map(|i| self.blocks[i].backend)), || {
                    format!("{index:?}")
                });
            }
        }
    }

    fn free_block(&mut self, index: usize) {
        let block = self.blocks.swap_remove(index);
        grcuda_block_free(block.handle);
        self.count_call("grcuda_block_free");
    }

    fn kernel_call(&mut self) {
        let (stream, backend) = self.stream();
        let scope = scope_of(backend);
        let choice = self.rng.below(34);
        match choice {
            0 => {
                let count = self.count();
                let bytes = if count > MAX_ITEMS { count } else { count * self.rng.pick(&[1, 4, 8]) };
                let input = self.array(backend, bytes, 1);
                let output = if self.rng.percent(15) { input } else { self.array(backend, bytes, 1) };
                let status = grcuda_copy(stream, input as *const c_void, output as *mut c_void, bytes);
                self.check("grcuda_copy", status, scope, || format!("{input:#x}, {output:#x}, {bytes}"));
            }
            1..=4 => {
                let item = [2, 4, 4, 8][choice - 1];
                let count = self.count();
                let input = self.array(backend, count, item);
                let output = if self.rng.percent(20) { input } else { self.array(backend, count, item) };
                let (function, status) = match choice {
                    1 => (
                        "grcuda_multiply_const_ss",
                        grcuda_multiply_const_ss(stream, input as _, output as _, count, self.rng.next() as i16),
                    ),
                    2 => (
                        "grcuda_multiply_const_ii",
                        grcuda_multiply_const_ii(stream, input as _, output as _, count, self.rng.next() as i32),
                    ),
                    3 => (
                        "grcuda_multiply_const_ff",
                        grcuda_multiply_const_ff(
                            stream,
                            input as _,
                            output as _,
                            count,
                            f32::from_bits(self.rng.next() as u32),
                        ),
                    ),
                    _ => {
                        let constant = grcuda_complex32 {
                            real: self.rng.below(100) as f32 - 50.0,
                            imag: f32::from_bits(self.rng.next() as u32),
                        };
                        (
                            "grcuda_multiply_const_cc",
                            grcuda_multiply_const_cc(stream, input as _, output as _, count, constant),
                        )
                    }
                };
                self.check(function, status, scope, || format!("{stream:?}, {input:#x}, {output:#x}, {count}"));
            }
            5..=8 => {
                let item = [2, 4, 4, 8][choice - 5];
                let count = self.count();
                let length = self.rng.pick(&[0, 1, 2, 3, 16, 17, 20]);
                let bytes = count.checked_mul(item).unwrap_or(item);
                let mut inputs = self.address_list(backend, length, bytes, item);
                let output = if !inputs.is_empty() && self.rng.percent(20) {
                    inputs[self.rng.below(inputs.len())] as usize
                } else {
                    self.array(backend, count, item)
                };
                if self.rng.percent(5) && !inputs.is_empty() {
                    let last = inputs.len() - 1;
                    inputs[last] = output as *const c_void;
                }
                let (list, list_length) = self.list_argument(&inputs);
                let output = output as *mut c_void;
                let (function, status) = match choice {
                    5 => ("grcuda_add_ss", grcuda_add_ss(stream, list, list_length, output, count)),
                    6 => ("grcuda_add_ii", grcuda_add_ii(stream, list, list_length, output, count)),
                    7 => ("grcuda_add_ff", grcuda_add_ff(stream, list, list_length, output, count)),
                    _ => ("grcuda_add_cc", grcuda_add_cc(stream, list, list_length, output, count)),
                };
                self.check(function, status, scope, || {
                    format!("{stream:?}, {list_length} inputs, {output:?}, {count}")
                });
            }
            9 | 10 => {
                let count = self.count();
                let input = self.array(backend, count, 8);
                let output = if self.rng.percent(10) { input } else { self.array(backend, count, 4) };
                let (function, status) = if choice == 9 {
                    ("grcuda_complex_to_mag", grcuda_complex_to_mag(stream, input as _, output as _, count))
                } else {
                    (
                        "grcuda_complex_to_mag_squared",
                        grcuda_complex_to_mag_squared(stream, input as _, output as _, count),
                    )
                };
                self.check(function, status, scope, || format!("{input:#x}, {output:#x}, {count}"));
            }
            11 => {
                let count = self.count();
                let input = self.array(backend, count, 4);
                let output = if self.rng.percent(20) { input } else { self.array(backend, count, 4) };
                let (factor, offset) = (self.rng.below(40) as f32 - 20.0, f32::from_bits(self.rng.next() as u32));
                let status = grcuda_nlog10_ff(stream, input as _, output as _, count, factor, offset);
                self.check("grcuda_nlog10_ff", status, scope, || format!("{input:#x}, {output:#x}, {count}"));
            }
            12..=14 => {
                let (length, vectors) = self.shape();
                let total = length.checked_mul(vectors).filter(|&t| t <= MAX_ITEMS).unwrap_or(usize::MAX);
                let item = if choice == 14 { 4 } else { 8 };
                let input = self.array(backend, total, item);
                let output = if self.rng.percent(15) { input } else { self.array(backend, total, item) };
                let (function, status) = match choice {
                    12 if self.rng.percent(50) => {
                        ("grcuda_fft_shift_cc", grcuda_fft_shift_cc(stream, input as _, output as _, length, vectors))
                    }
                    12 => {
                        ("grcuda_ifft_shift_cc", grcuda_ifft_shift_cc(stream, input as _, output as _, length, vectors))
                    }
                    _ => {
                        let taps = self.array(backend, if length <= MAX_ITEMS { length } else { usize::MAX }, 4);
                        if choice == 13 {
                            (
                                "grcuda_window_cc",
                                grcuda_window_cc(stream, input as _, taps as _, output as _, length, vectors),
                            )
                        } else {
                            (
                                "grcuda_window_ff",
                                grcuda_window_ff(stream, input as _, taps as _, output as _, length, vectors),
                            )
                        }
                    }
                };
                self.check(function, status, scope, || format!("{input:#x}, {output:#x}, {length} x {vectors}"));
            }
            15 | 16 => {
                let items = match self.rng.below(10) {
                    0 => 0,
                    1 => self.rng.huge(),
                    _ => self.rng.range(1, 64),
                };
                let item_size = match self.rng.below(10) {
                    0 => 0,
                    1 => self.rng.huge(),
                    _ => self.rng.pick(&[1, 2, 3, 4, 8, 12, 16]),
                };
                let streams = self.rng.pick(&[0, 1, 2, 3, 17]);
                let stream_bytes = items.checked_mul(item_size).filter(|&b| b <= MAX_ITEMS * 16);
                let each = stream_bytes.unwrap_or(usize::MAX);
                let arrays = self.address_list(backend, streams, each, 1);
                let interleaved_bytes = stream_bytes.and_then(|b| b.checked_mul(streams.max(1))).unwrap_or(usize::MAX);
                let interleaved = if interleaved_bytes <= MAX_ITEMS * 64 {
                    self.address(interleaved_bytes, 1, |m| m.device_accessible(backend.unwrap_or(Backend::Simulated)))
                } else {
                    self.address(1, 1, |m| m.device_accessible(backend.unwrap_or(Backend::Simulated)))
                };
                let (list, count) = self.list_argument(&arrays);
                let (function, status) = if choice == 15 {
                    ("grcuda_interleave", grcuda_interleave(stream, list, count, interleaved as _, items, item_size))
                } else {
                    (
                        "grcuda_deinterleave",
                        grcuda_deinterleave(stream, interleaved as _, list.cast(), count, items, item_size),
                    )
                };
                self.check(function, status, scope, || {
                    format!("{count} streams, {interleaved:#x}, {items} x {item_size}")
                });
            }
            17 | 18 => {
                let item = if choice == 17 { 4 } else { 8 };
                let count = self.count();
                let length = self.rng.pick(&[0, 1, 2, 3, 17]);
                let bytes = count.checked_mul(item).unwrap_or(item);
                let inputs = self.address_list(backend, length, bytes, item);
                let output = if !inputs.is_empty() && self.rng.percent(20) {
                    inputs[0] as *mut c_void
                } else {
                    self.array(backend, count, item) as *mut c_void
                };
                let (list, list_length) = self.list_argument(&inputs);
                let (function, status) = if choice == 17 {
                    ("grcuda_multiply_ff", grcuda_multiply_ff(stream, list, list_length, output, count))
                } else {
                    ("grcuda_multiply_cc", grcuda_multiply_cc(stream, list, list_length, output, count))
                };
                self.check(function, status, scope, || format!("{list_length} inputs, {output:?}, {count}"));
            }
            19 => {
                let count = self.count();
                let first = self.array(backend, count, 8);
                let second = self.array(backend, count, 8);
                let output = if self.rng.percent(20) { first } else { self.array(backend, count, 8) };
                let (function, status) = match self.rng.below(2) {
                    0 => (
                        "grcuda_multiply_conjugate_cc",
                        grcuda_multiply_conjugate_cc(stream, first as _, second as _, output as _, count),
                    ),
                    _ => ("grcuda_conjugate_cc", grcuda_conjugate_cc(stream, first as _, output as _, count)),
                };
                self.check(function, status, scope, || format!("{first:#x}, {second:#x}, {output:#x}, {count}"));
            }
            20 => {
                let count = self.count();
                let complex = self.array(backend, count, 8);
                let real = if self.rng.percent(10) { complex } else { self.array(backend, count, 4) };
                let imag = self.array(backend, count, 4);
                let (function, status) = match self.rng.below(6) {
                    0 => ("grcuda_complex_to_real", grcuda_complex_to_real(stream, complex as _, real as _, count)),
                    1 => ("grcuda_complex_to_imag", grcuda_complex_to_imag(stream, complex as _, real as _, count)),
                    2 => ("grcuda_complex_to_arg", grcuda_complex_to_arg(stream, complex as _, real as _, count)),
                    3 => (
                        "grcuda_complex_to_float",
                        grcuda_complex_to_float(stream, complex as _, real as _, imag as _, count),
                    ),
                    _ => {
                        let imag = if self.rng.percent(50) { null_mut() } else { imag as *mut c_void };
                        (
                            "grcuda_float_to_complex",
                            grcuda_float_to_complex(stream, real as _, imag as _, complex as _, count),
                        )
                    }
                };
                self.check(function, status, scope, || format!("{complex:#x}, {real:#x}, {imag:#x}, {count}"));
            }
            21 => {
                let items = self.rng.pick(&[0, 1, 5, 33]);
                let item_size = self.rng.pick(&[0, 1, 3, 4, 8, 16, 24]);
                let n = self.rng.pick(&[0, 1, 2, 7]);
                let span = (items.max(1) - 1) * n + 1;
                let input = self.array(backend, span * item_size.max(1), 1);
                let output =
                    if self.rng.percent(10) { input } else { self.array(backend, items * item_size.max(1), 1) };
                let status = grcuda_keep_one_in_n(stream, input as _, output as _, items, item_size, n);
                self.check("grcuda_keep_one_in_n", status, scope, || {
                    format!("{input:#x}, {output:#x}, {items} x {item_size}, n {n}")
                });
            }
            22 => {
                let items = self.rng.pick(&[0, 1, 7, 100]);
                let vlen = self.rng.pick(&[0, 1, 3]);
                let length = self.rng.pick(&[0, 1, 5]);
                let max_iter = self.rng.pick(&[0, 1, 4096]);
                let complex = self.rng.percent(50);
                let item = if complex { 8 } else { 4 };
                let history = grcuda_moving_average_history(length);
                self.count_call("grcuda_moving_average_history");
                let position = self.rng.pick(&[0, 5, 31, u64::MAX]);
                let input = self.array(backend, (items + history.max(1) - 1) * vlen.max(1), item);
                let output = if self.rng.percent(10) { input } else { self.array(backend, items * vlen.max(1), item) };
                let (function, status) = if complex {
                    let scale = grcuda_complex32 { real: 0.5, imag: -1.0 };
                    (
                        "grcuda_moving_average_cc",
                        grcuda_moving_average_cc(
                            stream,
                            input as _,
                            output as _,
                            items,
                            vlen,
                            length,
                            scale,
                            max_iter,
                            position,
                        ),
                    )
                } else {
                    (
                        "grcuda_moving_average_ff",
                        grcuda_moving_average_ff(
                            stream,
                            input as _,
                            output as _,
                            items,
                            vlen,
                            length,
                            0.25,
                            max_iter,
                            position,
                        ),
                    )
                };
                self.check(function, status, scope, || {
                    format!("{input:#x}, {output:#x}, {items} x {vlen}, length {length}, max_iter {max_iter}")
                });
            }
            23 => {
                let count = self.count();
                let input = self.array(backend, count.saturating_add(1), 8);
                let output = if self.rng.percent(20) { input } else { self.array(backend, count, 8) };
                let (function, status) = if self.rng.percent(50) {
                    (
                        "grcuda_quadrature_demod_cf",
                        grcuda_quadrature_demod_cf(stream, input as _, output as _, count, 2.0),
                    )
                } else {
                    let increment = self.rng.pick(&[0.1, -3.0, f64::NAN]);
                    let phase = grcuda_rotator_phase_after(0.5, increment, count as u64);
                    self.count_call("grcuda_rotator_phase_after");
                    ("grcuda_rotator_cc", grcuda_rotator_cc(stream, input as _, output as _, count, phase, increment))
                };
                self.check(function, status, scope, || format!("{input:#x}, {output:#x}, {count}"));
            }
            24 | 25 => self.fft_call(stream, backend),
            26 => {
                let bytes = self.count();
                let input = self.array(backend, bytes, 1);
                let output = if self.rng.percent(20) { input } else { self.array(backend, bytes, 1) };
                // Small: the simulated backend does every iteration on the CPU.
                let iterations = self.rng.pick(&[0, 1, 2, 5]);
                let status = grcuda_load(stream, input as _, output as _, bytes, iterations);
                self.check("grcuda_load", status, scope, || format!("{input:#x}, {output:#x}, {bytes}, {iterations}"));
            }
            27 => self.rational_resampler_call(stream, backend),
            28 if self.rng.percent(50) => self.channelizer_spectra_call(stream, backend),
            28 => self.channelizer_filter_call(stream, backend),
            29 => self.channelizer_scatter_call(stream, backend),
            30 => self.channelizer_gather_call(stream, backend),
            31 => self.expression_call(stream, backend),
            32 => self.logpwrfft_call(stream, backend),
            _ => self.filter_call(stream, backend),
        }
    }

    fn logpwrfft_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        if self.rng.percent(34) {
            return self.logpwrfft_spectra_call(stream, backend);
        }
        let (length, frames) = self.shape();
        let total = length.checked_mul(frames).filter(|&t| t <= MAX_ITEMS).unwrap_or(usize::MAX);
        let taps = self.array(backend, if length <= MAX_ITEMS { length } else { usize::MAX }, 4);
        let spectra = self.array(backend, total, 8);
        if self.rng.percent(50) {
            let decimation = self.rng.pick(&[0, 1, 3]);
            let stride = length.saturating_mul(decimation);
            let span = frames.saturating_sub(1).saturating_mul(stride).saturating_add(length);
            let complex = self.rng.percent(50);
            let item = if complex { 8 } else { 4 };
            let input = if self.rng.percent(10) {
                spectra
            } else {
                self.array(backend, if span <= MAX_ITEMS { span } else { usize::MAX }, item)
            };
            let (function, status) = if complex {
                (
                    "grcuda_logpwrfft_frames_cc",
                    grcuda_logpwrfft_frames_cc(stream, input as _, stride, taps as _, spectra as _, length, frames),
                )
            } else {
                (
                    "grcuda_logpwrfft_frames_fc",
                    grcuda_logpwrfft_frames_fc(stream, input as _, stride, taps as _, spectra as _, length, frames),
                )
            };
            self.check(function, status, scope_of(backend), || {
                format!("{input:#x}, stride {stride}, {spectra:#x}, {length} x {frames}")
            });
        } else {
            let output = if self.rng.percent(10) { spectra } else { self.array(backend, total, 4) };
            let state = if self.rng.percent(10) { output } else { taps };
            let shift = self.rng.percent(50);
            let alpha = self.rng.pick(&[1.0, 0.25, 0.0, -1.0, f64::NAN]);
            let status = grcuda_logpwrfft_power(
                stream,
                spectra as _,
                output as _,
                state as _,
                length,
                frames,
                shift,
                alpha,
                -3.0,
            );
            self.check("grcuda_logpwrfft_power", status, scope_of(backend), || {
                format!("{spectra:#x}, {output:#x}, {state:#x}, {length} x {frames}, alpha {alpha}")
            });
        }
    }

    /// The spectrum kernels with the queries that size their table and scratch: lengths they
    /// take (one kernel up to 4096, two above) and lengths they refuse.
    fn logpwrfft_spectra_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        let length = self.rng.pick(&[0, 16, 32, 64, 256, 1000, 1024, 1 << 40, usize::MAX]);
        let frames = self.rng.pick(&[0, 1, 2, 3, usize::MAX]);
        let supported = grcuda_logpwrfft_spectra_supported(length);
        self.count_call("grcuda_logpwrfft_spectra_supported");
        let entries = self.twiddle_table(
            "grcuda_logpwrfft_spectra_twiddles",
            grcuda_logpwrfft_spectra_twiddles,
            length,
            supported,
        );
        let mut scratch_count = usize::MAX;
        self.arm();
        let status = grcuda_logpwrfft_spectra_scratch(length, frames, &mut scratch_count);
        self.check("grcuda_logpwrfft_spectra_scratch", status, Scope::Simulated, || format!("{length}, {frames}"));
        // Counts too large for the fuzzer's memory are ones the library must refuse.
        let total = length.saturating_mul(frames);
        let decimation = self.rng.pick(&[0, 1, 3]);
        let stride = length.saturating_mul(decimation);
        let span = frames.saturating_sub(1).saturating_mul(stride).saturating_add(length);
        let complex = self.rng.percent(50);
        let input = self.array(backend, span, if complex { 8 } else { 4 });
        let window = self.array(backend, length, 4);
        let twiddles = self.array(backend, entries.unwrap_or(1), 8);
        let scratch = if self.rng.percent(10) { 0 } else { self.array(backend, scratch_count.max(1), 8) };
        let output = if self.rng.percent(10) { input } else { self.array(backend, total, 4) };
        let state = if self.rng.percent(10) { output } else { self.array(backend, length, 4) };
        let shift = self.rng.percent(50);
        let alpha = self.rng.pick(&[1.0, 0.25, 0.0, -1.0, f64::NAN]);
        self.arm();
        let launch = if complex { grcuda_logpwrfft_spectra_cc } else { grcuda_logpwrfft_spectra_fc };
        let status = launch(
            stream,
            input as _,
            stride,
            window as _,
            twiddles as _,
            scratch as _,
            output as _,
            state as _,
            length,
            frames,
            shift,
            alpha,
            -3.0,
        );
        let function = if complex { "grcuda_logpwrfft_spectra_cc" } else { "grcuda_logpwrfft_spectra_fc" };
        self.check(function, status, scope_of(backend), || {
            format!("{input:#x}, stride {stride}, scratch {scratch:#x}, {output:#x}, {state:#x}, {length} x {frames}, alpha {alpha}")
        });
    }

    /// Asks `function` (a twiddle-table query) for the length of the table of `length`, then
    /// for the table into host memory with a capacity that is enough or not; checks that the
    /// query succeeds exactly for the lengths `supported` says. Returns the table's entries
    /// when the first query succeeded.
    fn twiddle_table(
        &mut self,
        function: &'static str,
        query: extern "C" fn(usize, *mut c_void, usize, *mut usize) -> grcuda_status,
        length: usize,
        supported: bool,
    ) -> Option<usize> {
        use grcuda_status::GRCUDA_STATUS_OK;
        let mut entries = usize::MAX;
        let count_out = if self.rng.percent(5) { null_mut() } else { &mut entries as *mut usize };
        self.arm();
        let status = query(length, null_mut(), 0, count_out);
        self.check(function, status, Scope::Simulated, || format!("{length}, NULL, 0"));
        if !count_out.is_null() && (status == GRCUDA_STATUS_OK) != supported {
            self.fail(&format!("{function}({length}) returned {status:?}, supported: {supported}"));
        }
        if status != GRCUDA_STATUS_OK {
            return None;
        }
        let mut table = vec![grcuda_complex32 { real: 0.0, imag: 0.0 }; entries];
        let capacity = self.rng.pick(&[entries, entries.saturating_sub(1), entries + 3]);
        let pointer = if self.rng.percent(5) { null_mut() } else { table.as_mut_ptr() };
        let mut stored = usize::MAX;
        self.arm();
        let status = query(length, pointer as _, capacity, &mut stored);
        self.check(function, status, Scope::Simulated, || format!("{length}, {pointer:?}, {capacity}"));
        Some(entries)
    }

    /// A polyphase factor (interpolation, decimation, taps per phase, channels): mostly
    /// small, sometimes 0 or impossible.
    fn factor(&mut self) -> usize {
        match self.rng.below(12) {
            0 => 0,
            1 => self.rng.huge(),
            _ => self.rng.range(1, 9),
        }
    }

    /// A count of outputs of a polyphase kernel, each reading up to 8 items: small enough
    /// that its arrays fit the fuzzer's memory, or impossible.
    fn polyphase_count(&mut self) -> usize {
        let count = self.count();
        if count <= MAX_ITEMS { count.min(MAX_ITEMS / 8) } else { count }
    }

    fn rational_resampler_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        let mut outputs = self.polyphase_count();
        let (interpolation, decimation, taps_per_phase) = (self.factor(), self.factor(), self.factor());
        let first_phase = self.rng.below(interpolation.min(16) + 2);
        // What the kernel reads whenever the sizes do not overflow, even with a huge factor:
        // a huge decimation over a few outputs can need more input than the fuzzer has but
        // less than the address space, so then the output count is made impossible too.
        let input_items = if interpolation > 0 {
            grcuda::kernels::rational_resampler_input_items(
                outputs,
                interpolation,
                decimation,
                taps_per_phase,
                first_phase,
            )
            .unwrap_or(usize::MAX)
        } else {
            usize::MAX
        };
        if input_items != usize::MAX && input_items > MAX_ITEMS * 2 {
            outputs = self.rng.huge();
        }
        let tap_count = interpolation.saturating_mul(taps_per_phase);
        let variant = self.rng.below(3);
        let item = if variant == 2 { 4 } else { 8 };
        let input = self.array(backend, input_items, item);
        let taps = self.array(backend, tap_count, if variant == 0 { 8 } else { 4 });
        let output = if self.rng.percent(10) { input } else { self.array(backend, outputs, item) };
        let (input, taps, output) = (input as *const c_void, taps as *const c_void, output as *mut c_void);
        let arguments = (outputs, interpolation, decimation, taps_per_phase, first_phase);
        let (function, status) = match variant {
            0 => (
                "grcuda_rational_resampler_ccc",
                grcuda_rational_resampler_ccc(
                    stream,
                    input,
                    taps,
                    output,
                    outputs,
                    interpolation,
                    decimation,
                    taps_per_phase,
                    first_phase,
                ),
            ),
            1 => (
                "grcuda_rational_resampler_ccf",
                grcuda_rational_resampler_ccf(
                    stream,
                    input,
                    taps,
                    output,
                    outputs,
                    interpolation,
                    decimation,
                    taps_per_phase,
                    first_phase,
                ),
            ),
            _ => (
                "grcuda_rational_resampler_fff",
                grcuda_rational_resampler_fff(
                    stream,
                    input,
                    taps,
                    output,
                    outputs,
                    interpolation,
                    decimation,
                    taps_per_phase,
                    first_phase,
                ),
            ),
        };
        self.check(function, status, scope_of(backend), || format!("{input:?}, {taps:?}, {output:?}, {arguments:?}"));
    }

    fn channelizer_filter_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        let (channels, taps_per_branch) = (self.factor(), self.factor());
        let step_advance = self.rng.below(channels.min(16) + 2);
        let steps = self.polyphase_count();
        let first_rotation = self.rng.below(channels.min(16) + 2);
        let shape = grcuda::kernels::ChannelizerShape { channels, taps_per_branch, step_advance, steps };
        let valid = channels > 0 && channels < 1 << 20 && taps_per_branch < 1 << 20 && step_advance <= channels;
        let input_items = if valid { shape.input_items().unwrap_or(usize::MAX) } else { usize::MAX };
        let input = self.array(backend, input_items, 8);
        let taps = self.array(backend, channels.saturating_mul(taps_per_branch), 4);
        let spectra = if self.rng.percent(10) { input } else { self.array(backend, channels.saturating_mul(steps), 8) };
        let status = grcuda_pfb_channelizer_filter_ccf(
            stream,
            input as _,
            taps as _,
            spectra as _,
            channels,
            taps_per_branch,
            step_advance,
            steps,
            first_rotation,
        );
        self.check("grcuda_pfb_channelizer_filter_ccf", status, scope_of(backend), || {
            format!("{input:#x}, {taps:#x}, {spectra:#x}, {shape:?}, rotation {first_rotation}")
        });
    }

    /// The filter bank and inverse FFT in one kernel, with the query that sizes its table:
    /// channel counts it takes (powers of two from 32 to 1024) and counts it refuses.
    fn channelizer_spectra_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        // Valid calls keep their arrays within the fuzzer's memory (64 channels, 3 taps per
        // branch and 3 steps at most).
        let channels = self.rng.pick(&[0, 16, 32, 64, 48, 2048, 8192, usize::MAX]);
        let supported = grcuda_pfb_channelizer_spectra_supported(channels);
        self.count_call("grcuda_pfb_channelizer_spectra_supported");
        let entries = self.twiddle_table(
            "grcuda_pfb_channelizer_spectra_twiddles",
            grcuda_pfb_channelizer_spectra_twiddles,
            channels,
            supported,
        );
        let taps_per_branch = self.rng.pick(&[0, 1, 3, usize::MAX]);
        let step_advance = self.rng.pick(&[0, 1, channels / 2, channels, channels.saturating_add(1)]);
        let steps = self.rng.pick(&[0, 1, 3, usize::MAX]);
        let first_rotation = self.rng.pick(&[0, 5, channels]);
        let shape = grcuda::kernels::ChannelizerShape { channels, taps_per_branch, step_advance, steps };
        let input_items = shape.input_items().unwrap_or(usize::MAX);
        let input = self.array(backend, input_items, 8);
        let taps = self.array(backend, channels.saturating_mul(taps_per_branch), 4);
        let twiddles = self.array(backend, entries.unwrap_or(1), 8);
        let spectra = match self.rng.below(10) {
            0 => input,
            1 => twiddles,
            _ => self.array(backend, channels.saturating_mul(steps), 8),
        };
        self.arm();
        let status = grcuda_pfb_channelizer_spectra_ccf(
            stream,
            input as _,
            taps as _,
            twiddles as _,
            spectra as _,
            channels,
            taps_per_branch,
            step_advance,
            steps,
            first_rotation,
        );
        self.check("grcuda_pfb_channelizer_spectra_ccf", status, scope_of(backend), || {
            format!("{input:#x}, {taps:#x}, {twiddles:#x}, {spectra:#x}, {shape:?}, rotation {first_rotation}")
        });
    }

    /// The scatter's tables live in device memory, whose contents the fuzzer does not
    /// control, so it makes only the calls that are refused or do nothing before reading them.
    fn channelizer_scatter_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        let mut channels = self.factor();
        let mut steps = self.count();
        let mut outputs = self.rng.range(1, 4);
        let mut output_base = self.array(backend, 16, 8);
        match self.rng.below(4) {
            0 => channels = 0,
            1 => steps = 0,
            2 => outputs = 0,
            _ => output_base = 0,
        }
        let spectra = self.array(backend, channels.saturating_mul(steps), 8);
        let channel_map = self.array(backend, outputs, 4);
        let offsets = self.array(backend, outputs, 8);
        let status = grcuda_pfb_channelizer_scatter_cc(
            stream,
            spectra as _,
            channel_map as _,
            offsets as _,
            output_base as _,
            outputs,
            channels,
            steps,
        );
        self.check("grcuda_pfb_channelizer_scatter_cc", status, scope_of(backend), || {
            format!("{spectra:#x}, {outputs} outputs at {output_base:#x}, {channels} channels, {steps} steps")
        });
    }

    /// As for the scatter, the gather's map lives in device memory: only calls that are
    /// refused or do nothing before reading it.
    fn channelizer_gather_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        let mut channels = self.factor();
        let mut steps = self.count();
        let items = channels.saturating_mul(steps);
        let spectra = self.array(backend, items, 8);
        let mut channel_map = self.array(backend, channels, 4);
        let mut output = self.array(backend, items, 8);
        match self.rng.below(5) {
            0 => channels = 0,
            1 => steps = 0,
            2 => channel_map = 0,
            3 => output = spectra,
            _ => output = 0,
        }
        let status =
            grcuda_pfb_channelizer_gather_cc(stream, spectra as _, channel_map as _, output as _, channels, steps);
        self.check("grcuda_pfb_channelizer_gather_cc", status, scope_of(backend), || {
            format!("{spectra:#x}, map {channel_map:#x}, output {output:#x}, {channels} channels, {steps} steps")
        });
    }

    /// Taps for a FIR filter: a count (mostly small, sometimes 0 or impossible) and host
    /// values (NULL for an impossible count, sometimes a non-finite value).
    fn filter_taps(&mut self, complex: bool) -> (Vec<f32>, *const f32, usize) {
        let count = match self.rng.below(12) {
            0 => 0,
            1 => self.rng.huge(),
            _ => self.rng.pick(&[1, 2, 3, 5, 17, 33, 97, 200]),
        };
        if count > 4096 || self.rng.percent(5) {
            return (Vec::new(), std::ptr::null(), count);
        }
        let mut values: Vec<f32> =
            (0..count * if complex { 2 } else { 1 }).map(|_| self.rng.below(1000) as f32 / 500.0 - 1.0).collect();
        if !values.is_empty() && self.rng.percent(5) {
            values[0] = f32::NAN;
        }
        let pointer = values.as_ptr();
        (values, pointer, count)
    }

    /// Makes, frees, sets or reads a parameter of, or launches an expression; a new one is
    /// made on a random device, a launch goes to `stream`.
    fn expression_call(&mut self, stream: *const grcuda_stream, stream_backend: Option<Backend>) {
        const TEXTS: &[&CStr] = &[
            c"in0 * k",
            c"(in0 * in1 + k) * conj(in0)",
            c"abs(in0) + sin(k)",
            c"complex(in0, k) / in1",
            c"in0 +",
            c"in2",
            c"sin(in0)",
        ];
        match self.rng.below(10) {
            0 | 1 => {
                let (device, backend) = self.device();
                let text = if self.rng.percent(5) { null() } else { self.rng.pick(TEXTS).as_ptr() };
                let input_type = self.rng.enum_value(&[GRCUDA_EXPRESSION_FLOAT, GRCUDA_EXPRESSION_COMPLEX]);
                let output_type = self.rng.enum_value(&[GRCUDA_EXPRESSION_FLOAT, GRCUDA_EXPRESSION_COMPLEX]);
                let inputs = match self.rng.below(10) {
                    0 => 0,
                    1 => self.rng.pick(&[33, usize::MAX]),
                    _ => self.rng.range(1, 3),
                };
                let vector_length = match self.rng.below(10) {
                    0 => 0,
                    1 => self.rng.huge(),
                    _ => self.rng.range(1, 4),
                };
                let names = [c"k".as_ptr(), c"gain".as_ptr(), c"k".as_ptr(), c"in0".as_ptr(), null()];
                let values = [0.5f32, -2.0, 1.0, 3.0, 4.0];
                let (names_pointer, count) = match self.rng.below(8) {
                    0 => (null(), self.rng.index(3)),
                    1 => (names.as_ptr(), self.rng.range(0, names.len())),
                    _ => (names.as_ptr(), 1),
                };
                let values_pointer = if self.rng.percent(5) { null() } else { values.as_ptr() };
                let null_out = self.rng.percent(5);
                let mut handle = garbage::<grcuda_expression>();
                let out = if null_out { null_mut() } else { &mut handle as *mut _ };
                let status = grcuda_expression_new(
                    device,
                    text,
                    input_type,
                    output_type,
                    inputs,
                    vector_length,
                    names_pointer,
                    values_pointer,
                    count,
                    out,
                );
                let ok = self.check("grcuda_expression_new", status, scope_of(backend), || {
                    format!("{device:?}, types {input_type}/{output_type}, {inputs} inputs, vlen {vector_length}, {count} parameters, null_out {null_out}")
                });
                self.check_cleared("grcuda_expression_new", ok, null_out || handle.is_null());
                if ok {
                    if self.expressions.len() >= POOL {
                        let index = self.rng.below(POOL);
                        let expression = self.expressions.swap_remove(index);
                        grcuda_expression_free(expression.handle);
                        self.count_call("grcuda_expression_free");
                    }
                    let bytes = |value_type| if value_type == GRCUDA_EXPRESSION_FLOAT { 4 } else { 8 };
                    self.expressions.push(ExpressionHandle {
                        handle,
                        backend: backend.unwrap(),
                        input_bytes: bytes(input_type),
                        output_bytes: bytes(output_type),
                        inputs,
                        vector_length,
                    });
                }
            }
            2 => {
                if self.expressions.is_empty() || self.rng.percent(20) {
                    grcuda_expression_free(null_mut());
                } else {
                    let index = self.rng.below(self.expressions.len());
                    grcuda_expression_free(self.expressions.swap_remove(index).handle);
                }
                self.count_call("grcuda_expression_free");
            }
            3 | 4 => {
                let (handle, backend) = match self.some_expression() {
                    Some(expression) => (expression.handle, Some(expression.backend)),
                    None => (null_mut(), None),
                };
                let name = self.rng.pick(&[c"k".as_ptr(), c"gain".as_ptr(), c"nothing".as_ptr(), null()]);
                let choice = self.rng.below(4);
                if choice == 0 {
                    let status = grcuda_expression_set_parameter(handle, name, 1.5);
                    self.check("grcuda_expression_set_parameter", status, scope_of(backend), || format!("{handle:?}"));
                } else if choice == 1 {
                    let other = self.rng.pick(&[c"k".as_ptr(), c"gain".as_ptr(), null()]);
                    let names = [name, other];
                    let values = [1.5f32, self.rng.pick(&[-2.0, f32::NAN])];
                    let names_pointer = if self.rng.percent(5) { null() } else { names.as_ptr() };
                    let count = self.rng.range(0, 2);
                    let status = grcuda_expression_set_parameters(handle, names_pointer, values.as_ptr(), count);
                    self.check("grcuda_expression_set_parameters", status, scope_of(backend), || {
                        format!("{handle:?}, {count} parameters")
                    });
                } else {
                    let null_out = self.rng.percent(5);
                    let mut value = f32::NAN;
                    let out = if null_out { null_mut() } else { &mut value as *mut f32 };
                    let status = grcuda_expression_parameter(handle, name, out);
                    let ok =
                        self.check("grcuda_expression_parameter", status, scope_of(backend), || format!("{handle:?}"));
                    self.check_cleared("grcuda_expression_parameter", ok, null_out || value == 0.0);
                    if ok && !value.is_finite() {
                        self.fail(&format!("grcuda_expression_parameter gave {value}"));
                    }
                }
            }
            _ => {
                let (handle, shape) = match self.some_expression() {
                    Some(e) => (e.handle, Some((e.backend, e.input_bytes, e.output_bytes, e.inputs, e.vector_length))),
                    None => (null_mut(), None),
                };
                let (_, input_bytes, output_bytes, inputs, vector_length) =
                    shape.unwrap_or((Backend::Simulated, 4, 4, 1, 1));
                // Valid counts stay within the fuzzer's arrays: at most MAX_ITEMS values.
                let items = self.count();
                let items = if items <= MAX_ITEMS { items.min(MAX_ITEMS / vector_length) } else { items };
                let values = items.saturating_mul(vector_length);
                let input_count = if self.rng.percent(10) { self.rng.range(0, 4) } else { inputs };
                let list =
                    self.address_list(stream_backend, input_count, values.saturating_mul(input_bytes), input_bytes);
                let (list_pointer, list_count) = self.list_argument(&list);
                let output = if self.rng.percent(10) && !list.is_empty() {
                    list[0] as usize
                } else {
                    self.array(stream_backend, values, output_bytes)
                };
                let status = grcuda_expression_launch(handle, stream, list_pointer, list_count, output as _, items);
                let scope = scope_of2(stream_backend, shape.map(|s| s.0));
                self.check("grcuda_expression_launch", status, scope, || {
                    format!("{handle:?}, {stream:?}, {list_count} inputs, {output:#x}, {items} items")
                });
            }
        }
    }

    /// A live expression, or now and then none.
    fn some_expression(&mut self) -> Option<&ExpressionHandle> {
        if self.expressions.is_empty() || self.rng.percent(8) {
            return None;
        }
        let index = self.rng.below(self.expressions.len());
        Some(&self.expressions[index])
    }

    /// Makes, frees, retaps, asks or runs a FIR filter; a new filter is made on `stream`.
    fn filter_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        match self.rng.below(10) {
            0 | 1 => {
                let types = self.rng.below(3);
                let decimation = match self.rng.below(10) {
                    0 => 0,
                    1 => self.rng.huge(),
                    _ => self.rng.pick(&[1, 2, 3, 7]),
                };
                let method = self.rng.enum_value(&[
                    GRCUDA_FIR_AUTOMATIC,
                    GRCUDA_FIR_DIRECT,
                    GRCUDA_FIR_FFT,
                    GRCUDA_FIR_FFT_WHOLE_SEGMENTS,
                ]);
                let (_values, taps, count) = self.filter_taps(types == 0);
                let null_out = self.rng.percent(5);
                let mut handle = garbage::<grcuda_fir_filter>();
                let out = if null_out { null_mut() } else { &mut handle as *mut _ };
                let (function, status) = match types {
                    0 => (
                        "grcuda_fir_filter_new_ccc",
                        grcuda_fir_filter_new_ccc(stream, decimation, method, taps.cast(), count, out),
                    ),
                    1 => (
                        "grcuda_fir_filter_new_ccf",
                        grcuda_fir_filter_new_ccf(stream, decimation, method, taps, count, out),
                    ),
                    _ => (
                        "grcuda_fir_filter_new_fff",
                        grcuda_fir_filter_new_fff(stream, decimation, method, taps, count, out),
                    ),
                };
                let ok = self.check(function, status, scope_of(backend), || {
                    format!("{stream:?}, decimation {decimation}, method {method}, {count} taps, null_out {null_out}")
                });
                self.check_cleared(function, ok, null_out || handle.is_null());
                if ok {
                    if self.filters.len() >= POOL {
                        let index = self.rng.below(POOL);
                        self.free_filter(index);
                    }
                    self.filters.push(FilterHandle { handle, backend: backend.unwrap(), types, decimation });
                }
            }
            2 => {
                if self.filters.is_empty() {
                    grcuda_fir_filter_free(null_mut());
                    self.count_call("grcuda_fir_filter_free");
                } else {
                    let index = self.rng.below(self.filters.len());
                    self.free_filter(index);
                }
            }
            3 => {
                let (handle, backend, types) = self.some_filter();
                let complex = self.rng.percent(if types == 0 { 90 } else { 10 });
                let (_values, taps, count) = self.filter_taps(complex);
                let (function, status) = if complex {
                    (
                        "grcuda_fir_filter_set_taps_complex",
                        grcuda_fir_filter_set_taps_complex(handle, taps.cast(), count),
                    )
                } else {
                    ("grcuda_fir_filter_set_taps_float", grcuda_fir_filter_set_taps_float(handle, taps, count))
                };
                self.check(function, status, scope_of(backend), || format!("{handle:?}, {count} taps"));
            }
            4 => {
                let (handle, _, _) = self.some_filter();
                let history = grcuda_fir_filter_history(handle);
                let method = grcuda_fir_filter_method(handle);
                let multiple = grcuda_fir_filter_output_multiple(handle);
                let fft_size = grcuda_fir_filter_fft_size(handle);
                // Types 3 and 4 are no FIR types (limit 0); decimation 0 is refused by the
                // filters and answered like 1 here.
                let limit_types = self.rng.below(5) as u32;
                let limit = grcuda_fir_filter_direct_tap_limit(limit_types, self.rng.below(40));
                for function in [
                    "grcuda_fir_filter_history",
                    "grcuda_fir_filter_method",
                    "grcuda_fir_filter_output_multiple",
                    "grcuda_fir_filter_fft_size",
                    "grcuda_fir_filter_direct_tap_limit",
                ] {
                    self.count_call(function);
                }
                let consistent = if handle.is_null() {
                    history == 0 && method == GRCUDA_FIR_AUTOMATIC && multiple == 1 && fft_size == 0
                } else {
                    // The direct form has no transforms; overlap-save has power-of-two ones.
                    let transforms_fit =
                        if method == GRCUDA_FIR_DIRECT { fft_size == 0 } else { fft_size.is_power_of_two() };
                    history >= 1 && method != GRCUDA_FIR_AUTOMATIC && multiple >= 1 && transforms_fit
                };
                let limit_fits = if limit_types > GRCUDA_FIR_FFF { limit == 0 } else { limit <= 2049 };
                if !consistent || !limit_fits {
                    self.fail(&format!(
                        "filter {handle:?}: history {history}, method {method}, multiple {multiple}, FFT size {fft_size}, limit {limit} for types {limit_types}"
                    ));
                }
            }
            _ => {
                let (handle, backend, types) = self.some_filter();
                let decimation = self.filters.iter().find(|f| f.handle == handle).map_or(1, |f| f.decimation);
                let outputs = match self.rng.below(10) {
                    0 => 0,
                    1 => self.rng.huge(),
                    _ => self.rng.range(1, 300),
                };
                let history = grcuda_fir_filter_history(handle);
                self.count_call("grcuda_fir_filter_history");
                let sample = if types == 2 { 4 } else { 8 };
                let input_items =
                    outputs.checked_sub(1).and_then(|n| n.checked_mul(decimation)).and_then(|n| n.checked_add(history));
                // Overlap-save's history is longer than the other kernels' arrays: up to 1 MiB.
                let input = match input_items.and_then(|items| items.checked_mul(sample)) {
                    Some(bytes) if bytes <= 1 << 20 => {
                        let accessible = backend.unwrap_or(Backend::Simulated);
                        self.address(bytes, sample, |m| m.device_accessible(accessible))
                    }
                    _ => self.array(backend, usize::MAX, sample),
                };
                let output = if self.rng.percent(10) { input } else { self.array(backend, outputs, sample) };
                let position = if self.rng.percent(10) {
                    u64::MAX - self.rng.below(4) as u64
                } else {
                    self.rng.below(1 << 20) as u64
                };
                let mut produced = GARBAGE;
                let (function, status) = if self.rng.percent(50) {
                    let status =
                        grcuda_fir_filter_execute(handle, input as _, output as _, outputs, position, &mut produced);
                    ("grcuda_fir_filter_execute", status)
                } else {
                    let phase = if self.rng.percent(5) { f64::INFINITY } else { 0.25 };
                    let status = grcuda_fir_filter_execute_rotated(
                        handle,
                        input as _,
                        output as _,
                        outputs,
                        position,
                        phase,
                        -0.1,
                        &mut produced,
                    );
                    ("grcuda_fir_filter_execute_rotated", status)
                };
                let ok = self.check(function, status, scope_of(backend), || {
                    format!("{handle:?} (types {types}), {input:#x}, {output:#x}, {outputs} outputs at {position}")
                });
                self.check_cleared(function, ok, produced == 0);
                if ok && produced > outputs {
                    self.fail(&format!("{function} produced {produced} of {outputs}"));
                }
            }
        }
    }

    /// A live filter (its handle, backend and types), or now and then NULL.
    fn some_filter(&mut self) -> (*mut grcuda_fir_filter, Option<Backend>, usize) {
        if self.filters.is_empty() || self.rng.percent(8) {
            return (null_mut(), None, 0);
        }
        let filter = &self.filters[self.rng.below(self.filters.len())];
        (filter.handle, Some(filter.backend), filter.types)
    }

    fn free_filter(&mut self, index: usize) {
        let filter = self.filters.swap_remove(index);
        grcuda_fir_filter_free(filter.handle);
        self.count_call("grcuda_fir_filter_free");
    }

    /// Makes, frees or runs an FFT plan; a new plan is made on `stream`.
    fn fft_call(&mut self, stream: *const grcuda_stream, backend: Option<Backend>) {
        match self.rng.below(8) {
            0 | 1 => {
                let kind = self.rng.enum_value(&[GRCUDA_FFT_FORWARD, GRCUDA_FFT_INVERSE, GRCUDA_FFT_REAL_FORWARD]);
                let size = match self.rng.below(12) {
                    0 => 0,
                    1 => self.rng.huge(),
                    _ => self.rng.pick(&[1, 2, 3, 4, 5, 7, 8, 16, 17, 60, 64, 97, 128, 256]),
                };
                let null_out = self.rng.percent(5);
                let mut handle = garbage::<grcuda_fft_plan>();
                let out = if null_out { null_mut() } else { &mut handle as *mut _ };
                let status = grcuda_fft_plan_new(stream, kind, size, out);
                let ok = self.check("grcuda_fft_plan_new", status, scope_of(backend), || {
                    format!("{stream:?}, {kind}, {size}, null_out {null_out}")
                });
                self.check_cleared("grcuda_fft_plan_new", ok, null_out || handle.is_null());
                if ok {
                    if self.plans.len() >= POOL {
                        let index = self.rng.below(POOL);
                        self.free_plan(index);
                    }
                    self.plans.push(PlanHandle { handle, backend: backend.unwrap(), kind, size });
                }
            }
            2 => {
                if self.plans.is_empty() {
                    grcuda_fft_plan_free(null_mut());
                    self.count_call("grcuda_fft_plan_free");
                } else {
                    let index = self.rng.below(self.plans.len());
                    self.free_plan(index);
                }
            }
            _ => {
                let plan = (!self.plans.is_empty() && !self.rng.percent(8)).then(|| self.rng.below(self.plans.len()));
                let (handle, backend, kind, size) = match plan {
                    Some(index) => {
                        let plan = &self.plans[index];
                        (plan.handle, Some(plan.backend), plan.kind, plan.size)
                    }
                    None => (null_mut(), None, GRCUDA_FFT_FORWARD, 64),
                };
                let batch = match self.rng.below(12) {
                    0 => self.rng.huge(),
                    1 => (1 << 62) + self.rng.below(64),
                    2..=5 => self.rng.range(0, 16),
                    _ => self.rng.range(0, 3),
                };
                let valid = size.checked_mul(batch).filter(|&n| n <= MAX_ITEMS);
                let input_item = if kind == GRCUDA_FFT_REAL_FORWARD { 4 } else { 8 };
                let input = self.array(backend, valid.unwrap_or(usize::MAX), input_item);
                let output_items = valid.map_or(usize::MAX, |_| {
                    (if kind == GRCUDA_FFT_REAL_FORWARD { size / 2 + 1 } else { size }) * batch
                });
                let output = if self.rng.percent(20) { input } else { self.array(backend, output_items, 8) };
                let status = grcuda_fft_plan_execute(handle, batch, input as _, output as _);
                self.check("grcuda_fft_plan_execute", status, scope_of(backend), || {
                    format!("{handle:?} ({kind}, size {size}), batch {batch}, {input:#x}, {output:#x}")
                });
            }
        }
    }

    fn free_plan(&mut self, index: usize) {
        let plan = self.plans.swap_remove(index);
        grcuda_fft_plan_free(plan.handle);
        self.count_call("grcuda_fft_plan_free");
    }

    /// A vector length and count for fft_shift and window: mostly small, sometimes 0 or
    /// impossible (one of them huge, or a product that overflows).
    fn shape(&mut self) -> (usize, usize) {
        match self.rng.below(12) {
            0 => (0, self.rng.range(0, 3)),
            1 => (self.rng.range(1, 16), 0),
            2 => (self.rng.huge(), self.rng.range(0, 2)),
            3 => (self.rng.range(1, 16), self.rng.huge()),
            4 => ((1 << 32) + self.rng.below(64), (1 << 32) + self.rng.below(64)),
            _ => (self.rng.range(1, 64), self.rng.range(1, 16)),
        }
    }

    fn status_call(&mut self) {
        match self.rng.below(5) {
            0 => {
                self.count_call("grcuda_abi_version");
                if grcuda_abi_version() != GRCUDA_ABI_VERSION {
                    self.fail("grcuda_abi_version differs from the header's");
                }
                // Messages keep going to stderr (the default), so a failure's context shows.
                grcuda_set_log_callback(None, null_mut());
                self.count_call("grcuda_set_log_callback");
            }
            1 => {
                let value = if self.rng.percent(50) { self.rng.range(0, 12) as i32 } else { self.rng.next() as i32 };
                let name = grcuda_status_name(value);
                self.count_call("grcuda_status_name");
                let text = unsafe { CStr::from_ptr(name) }.to_str().unwrap();
                if !text.starts_with("GRCUDA_STATUS_") {
                    self.fail(&format!("grcuda_status_name({value}) gave {text:?}"));
                }
            }
            2 => {
                self.count_call("grcuda_last_error_message");
                if last_error().as_deref() != Some(self.sentinel.as_str()) {
                    self.fail("grcuda_last_error_message lost the sentinel message");
                }
            }
            3 => self.kernel_cache_call(),
            _ => {
                self.count_call("grcuda_last_cuda_result");
                let _ = grcuda_last_cuda_result();
            }
        }
    }

    /// Sets a limit for the host ring cache, checks that it holds no more, and goes back to the
    /// default (an unlimited cache would keep every ring size the run frees).
    fn host_ring_cache_call(&mut self) {
        let limit = self.rng.pick(&[0, 4096, 1 << 20, 64 << 20, usize::MAX]);
        grcuda_set_host_ring_cache_limit(limit);
        self.count_call("grcuda_set_host_ring_cache_limit");
        let held = grcuda_host_ring_cache_held_bytes();
        self.count_call("grcuda_host_ring_cache_held_bytes");
        if held > limit {
            self.fail(&format!("the host ring cache holds {held} bytes over its limit of {limit}"));
        }
        grcuda_set_host_ring_cache_limit(512 << 20);
    }

    /// Sets the kernel cache's directory to NULL, the environment's own (so that kernels the
    /// run compiles on a GPU land where they would have), an empty or a relative path, and
    /// checks that the getter reports the environment's directory throughout.
    fn kernel_cache_call(&mut self) {
        let environment = self.kernel_cache_from_environment.clone();
        let choice = self.rng.below(4);
        let argument = match choice {
            0 => None,
            1 => environment.clone().or_else(|| Some(c"/nonexistent/grcuda-kernels".to_owned())),
            2 => Some(CString::default()),
            _ => Some(c"relative/kernels".to_owned()),
        };
        let pointer = argument.as_ref().map_or(null(), |text| text.as_ptr());
        let status = grcuda_set_kernel_cache_directory(pointer);
        let ok = self.check("grcuda_set_kernel_cache_directory", status, Scope::Simulated, || format!("{argument:?}"));
        if ok != (choice < 2) {
            self.fail(&format!("grcuda_set_kernel_cache_directory({argument:?}) gave {}", status_name(status)));
        }
        if choice == 1 && environment.is_none() {
            // No directory to keep: back to none.
            let status = grcuda_set_kernel_cache_directory(null());
            self.check("grcuda_set_kernel_cache_directory", status, Scope::Simulated, || "NULL".into());
        }
        let directory = grcuda_kernel_cache_directory();
        self.count_call("grcuda_kernel_cache_directory");
        let directory = (!directory.is_null()).then(|| unsafe { CStr::from_ptr(directory) }.to_owned());
        if directory != environment {
            self.fail(&format!("grcuda_kernel_cache_directory gave {directory:?}, not {environment:?}"));
        }
    }

    /// Frees everything, CUDA work finished first.
    fn finish(&mut self) {
        self.quiesce(Backend::Cuda);
        for plan in self.plans.drain(..) {
            grcuda_fft_plan_free(plan.handle);
        }
        for filter in self.filters.drain(..) {
            grcuda_fir_filter_free(filter.handle);
        }
        for expression in self.expressions.drain(..) {
            grcuda_expression_free(expression.handle);
        }
        for block in self.blocks.drain(..) {
            grcuda_block_free(block.handle);
        }
        for buffer in self.buffers.drain(..) {
            grcuda_buffer_free(buffer.handle);
        }
        for memory in self.memories.drain(..) {
            grcuda_memory_free(memory.handle);
        }
        for event in self.events.drain(..) {
            grcuda_event_free(event.handle);
        }
        for stream in self.streams.drain(..) {
            grcuda_stream_free(stream.handle);
        }
        for device in self.devices.drain(..).chain(self.anchors.drain(..)) {
            grcuda_device_free(device.handle);
        }
    }
}

fn garbage<T>() -> *mut T {
    GARBAGE as *mut T
}

fn backend_of(device: *const grcuda_device) -> Backend {
    let mut info: grcuda_device_info = unsafe { std::mem::zeroed() };
    assert_eq!(grcuda_device_get_info(device, &mut info), grcuda_status::GRCUDA_STATUS_OK);
    if info.backend == GRCUDA_BACKEND_CUDA { Backend::Cuda } else { Backend::Simulated }
}

fn scope_of(backend: Option<Backend>) -> Scope {
    if backend == Some(Backend::Cuda) { Scope::Cuda } else { Scope::Simulated }
}

fn scope_of2(first: Option<Backend>, second: Option<Backend>) -> Scope {
    if first == Some(Backend::Cuda) || second == Some(Backend::Cuda) { Scope::Cuda } else { Scope::Simulated }
}

fn simulated_free_memory() -> u64 {
    let mut device = null_mut();
    assert_eq!(grcuda_device_open(0, GRCUDA_BACKEND_SIMULATED, &mut device), grcuda_status::GRCUDA_STATUS_OK);
    let mut bytes = 0;
    assert_eq!(grcuda_device_free_memory(device, &mut bytes), grcuda_status::GRCUDA_STATUS_OK);
    grcuda_device_free(device);
    bytes
}

fn seed() -> u64 {
    match std::env::var(SEED_ENV).ok().as_deref() {
        None | Some("") => DEFAULT_SEED,
        Some("random") => {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
            now.as_nanos() as u64 ^ u64::from(std::process::id())
        }
        Some(text) => {
            let parsed = match text.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => text.parse(),
            };
            parsed.unwrap_or_else(|_| panic!("{SEED_ENV}={text:?} is not a number (decimal or 0x hex) or `random`"))
        }
    }
}

fn calls() -> u64 {
    match std::env::var(CALLS_ENV).ok().as_deref() {
        None | Some("") => DEFAULT_CALLS,
        Some("long") => LONG_CALLS,
        Some(text) => text.parse().unwrap_or_else(|_| panic!("{CALLS_ENV}={text:?} is not a count or `long`")),
    }
}

/// Every function the header declares.
fn exported_functions() -> Vec<String> {
    // Built in, so that the check also runs where the source tree is not (the GPU test kit).
    let header = include_str!("../include/grcuda.h");
    let mut names: Vec<String> = header
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '('))
        .filter_map(|word| word.strip_suffix('('))
        .filter(|name| name.starts_with("grcuda_"))
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn random_calls_keep_the_c_api_contract() {
    let (seed, calls) = (seed(), calls());
    // Straight to the stream, past the harness's capture, so every run shows its seed.
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "C API fuzzer: {SEED_ENV}={seed:#x} {CALLS_ENV}={calls}");
    let free_at_start = simulated_free_memory();
    let started = Instant::now();
    let mut fuzzer = Fuzzer::new(seed);
    while fuzzer.call < calls {
        fuzzer.step();
    }
    fuzzer.finish();
    let elapsed = started.elapsed();
    // This test is alone in its binary: with every handle freed, so is all simulated memory.
    assert_eq!(
        simulated_free_memory(),
        free_at_start,
        "simulated device memory leaked (seed {seed:#x}, {calls} calls)"
    );
    let total: u64 = fuzzer.calls_by_function.values().sum();
    let _ = writeln!(
        std::io::stderr(),
        "C API fuzzer: {} steps, {total} calls to {} functions in {elapsed:.2?}; statuses {:?}",
        fuzzer.call,
        fuzzer.calls_by_function.len(),
        fuzzer.statuses
    );
    if fuzzer.trace {
        for (function, count) in &fuzzer.calls_by_function {
            let successes = fuzzer.successes.get(function).copied().unwrap_or(0);
            let _ = writeln!(std::io::stderr(), "{function:32} {count:8} calls {successes:8} OK");
        }
    }
    if calls >= 100_000 {
        let missed: Vec<String> =
            exported_functions().into_iter().filter(|f| !fuzzer.calls_by_function.contains_key(f.as_str())).collect();
        assert!(missed.is_empty(), "the fuzzer never called {missed:?}");
    }
}
