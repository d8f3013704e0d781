//! The out-parameter contract of the C API: every function with an out-parameter clears it
//! before it checks any other argument, so a failed call leaves NULL, 0 or an all-zero struct
//! there, also when a handle argument is NULL; the status is INVALID_ARGUMENT and the last
//! error names the argument at fault. The list of functions is checked against the header and
//! the sources, so a new out-parameter cannot miss the test.

use grcuda::ffi::*;
use std::ffi::{CStr, c_void};
use std::path::Path;
use std::ptr::{null, null_mut};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The header and the C API's sources, built into the test so that it also runs where the
/// source tree is not (the GPU test kit).
const HEADER: &str = include_str!("../include/grcuda.h");
const FFI_SOURCES: [(&str, &str); 20] = [
    ("block.rs", include_str!("../src/ffi/block.rs")),
    ("buffer.rs", include_str!("../src/ffi/buffer.rs")),
    ("device.rs", include_str!("../src/ffi/device.rs")),
    ("event.rs", include_str!("../src/ffi/event.rs")),
    ("expression.rs", include_str!("../src/ffi/expression.rs")),
    ("fft.rs", include_str!("../src/ffi/fft.rs")),
    ("filter.rs", include_str!("../src/ffi/filter.rs")),
    ("kernel_cache.rs", include_str!("../src/ffi/kernel_cache.rs")),
    ("kernels/elementwise.rs", include_str!("../src/ffi/kernels/elementwise.rs")),
    ("kernels/load.rs", include_str!("../src/ffi/kernels/load.rs")),
    ("kernels/logpwrfft.rs", include_str!("../src/ffi/kernels/logpwrfft.rs")),
    ("kernels/mod.rs", include_str!("../src/ffi/kernels/mod.rs")),
    ("kernels/moving_average.rs", include_str!("../src/ffi/kernels/moving_average.rs")),
    ("kernels/phase.rs", include_str!("../src/ffi/kernels/phase.rs")),
    ("kernels/polyphase.rs", include_str!("../src/ffi/kernels/polyphase.rs")),
    ("log.rs", include_str!("../src/ffi/log.rs")),
    ("memory.rs", include_str!("../src/ffi/memory.rs")),
    ("mod.rs", include_str!("../src/ffi/mod.rs")),
    ("status.rs", include_str!("../src/ffi/status.rs")),
    ("stream.rs", include_str!("../src/ffi/stream.rs")),
];

/// What C might leave in an uninitialised out-parameter.
const GARBAGE: usize = 0xdead_beef;

fn garbage<T>() -> *mut T {
    GARBAGE as *mut T
}

fn last_error() -> String {
    let message = grcuda_last_error_message();
    assert!(!message.is_null(), "a failed call must leave a last-error message");
    unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned()
}

/// The call failed with INVALID_ARGUMENT and a message containing `needle`.
fn assert_invalid(function: &str, status: grcuda_status, needle: &str) {
    assert_eq!(status, grcuda_status::GRCUDA_STATUS_INVALID_ARGUMENT, "{function}: {}", last_error());
    let message = last_error();
    assert!(message.contains(needle), "{function}: the message should name {needle:?}: {message}");
}

struct Objects {
    device: *mut grcuda_device,
    buffer: *mut grcuda_buffer,
    stream: *mut grcuda_stream,
}

impl Objects {
    fn new() -> Objects {
        let mut device = null_mut();
        assert_eq!(grcuda_device_open(0, GRCUDA_BACKEND_SIMULATED, &mut device), grcuda_status::GRCUDA_STATUS_OK);
        let mut buffer = null_mut();
        assert_eq!(
            grcuda_buffer_new(device, 8, 1024, GRCUDA_HOST_WAIT_SPIN, &mut buffer),
            grcuda_status::GRCUDA_STATUS_OK
        );
        let mut stream = null_mut();
        assert_eq!(grcuda_stream_new(device, &mut stream), grcuda_status::GRCUDA_STATUS_OK);
        Objects { device, buffer, stream }
    }
}

impl Drop for Objects {
    fn drop(&mut self) {
        grcuda_buffer_free(self.buffer);
        grcuda_stream_free(self.stream);
        grcuda_device_free(self.device);
    }
}

/// A failing call of one function: its name, what the message must contain, the call (with
/// garbage in the out-parameter) and whether the out-parameter was cleared afterwards.
type Case = (&'static str, &'static str, fn(&Objects) -> grcuda_status, fn(&Objects) -> bool);

/// Every function with an out-parameter, each called with a NULL handle (or, without a handle
/// argument, a bad value). The out-parameters are thread-local slots, filled with garbage
/// just before each call.
fn cases() -> Vec<Case> {
    use std::cell::Cell;
    thread_local! {
        static SLOT: Cell<usize> = const { Cell::new(GARBAGE) };
        static COUNT: Cell<i32> = const { Cell::new(-12345) };
        static BYTES: Cell<u64> = const { Cell::new(0xdead_beef_dead_beef) };
    }
    fn slot<T>() -> *mut T {
        SLOT.with(|s| {
            s.set(GARBAGE);
            s.as_ptr().cast()
        })
    }
    fn slot_cleared(_: &Objects) -> bool {
        SLOT.with(|s| s.get() == 0)
    }
    vec![
        (
            "grcuda_device_count",
            "backend 4294967295 is unknown",
            |_| {
                COUNT.with(|c| {
                    c.set(-12345);
                    grcuda_device_count(u32::MAX, c.as_ptr())
                })
            },
            |_| COUNT.with(|c| c.get() == 0),
        ),
        (
            "grcuda_device_open",
            "device ordinal -7 is negative",
            |_| grcuda_device_open(-7, GRCUDA_BACKEND_SIMULATED, slot()),
            slot_cleared,
        ),
        ("grcuda_device_open", "backend 77 is unknown", |_| grcuda_device_open(0, 77, slot()), slot_cleared),
        (
            "grcuda_device_free_memory",
            "device is NULL",
            |_| {
                BYTES.with(|b| {
                    b.set(0xdead_beef_dead_beef);
                    grcuda_device_free_memory(null(), b.as_ptr())
                })
            },
            |_| BYTES.with(|b| b.get() == 0),
        ),
        ("grcuda_stream_new", "device is NULL", |_| grcuda_stream_new(null(), slot()), slot_cleared),
        (
            "grcuda_event_new",
            "device is NULL",
            |_| grcuda_event_new(null(), GRCUDA_HOST_WAIT_SPIN, slot()),
            slot_cleared,
        ),
        (
            "grcuda_memory_new",
            "device is NULL",
            |_| grcuda_memory_new(null(), GRCUDA_MEMORY_DEVICE, 64, slot()),
            slot_cleared,
        ),
        (
            "grcuda_buffer_new",
            "device is NULL",
            |_| grcuda_buffer_new(null(), 8, 1024, GRCUDA_HOST_WAIT_SPIN, slot()),
            slot_cleared,
        ),
        (
            "grcuda_buffer_add_reader",
            "buffer is NULL",
            |_| grcuda_buffer_add_reader(null(), null(), slot()),
            slot_cleared,
        ),
        (
            "grcuda_buffer_writer_pointer",
            "buffer is NULL",
            |_| grcuda_buffer_writer_pointer(null(), 0, slot()),
            slot_cleared,
        ),
        (
            "grcuda_buffer_reader_pointer",
            "buffer is NULL",
            |_| grcuda_buffer_reader_pointer(null(), 0, slot()),
            slot_cleared,
        ),
        (
            "grcuda_buffer_published_items",
            "buffer is NULL",
            |_| grcuda_buffer_published_items(null(), 0, 1, slot()),
            slot_cleared,
        ),
        (
            "grcuda_block_new",
            "device is NULL",
            |_| grcuda_block_new(null(), GRCUDA_HOST_WAIT_SPIN, slot()),
            slot_cleared,
        ),
        (
            "grcuda_fft_plan_new",
            "stream is NULL",
            |_| grcuda_fft_plan_new(null(), GRCUDA_FFT_FORWARD, 64, slot()),
            slot_cleared,
        ),
        ("grcuda_block_input_mirror", "block is NULL", |_| grcuda_block_input_mirror(null(), 0, slot()), slot_cleared),
        ("grcuda_buffer_begin_read", "buffer is NULL", |_| grcuda_buffer_begin_read(null(), 0, slot()), slot_cleared),
        // Not a NULL handle, but a failure after the handle was accepted: cleared as well.
        (
            "grcuda_buffer_begin_read",
            "index 99999999 is out of range",
            |o| grcuda_buffer_begin_read(o.buffer, 99_999_999, slot()),
            slot_cleared,
        ),
        (
            "grcuda_buffer_writer_pointer",
            "index 99999999 is out of range",
            |o| grcuda_buffer_writer_pointer(o.buffer, 99_999_999, slot()),
            slot_cleared,
        ),
        (
            "grcuda_fft_plan_new",
            "FFT size is 0",
            |o| grcuda_fft_plan_new(o.stream, GRCUDA_FFT_FORWARD, 0, slot()),
            slot_cleared,
        ),
        (
            "grcuda_fir_filter_new_ccc",
            "stream is NULL",
            |_| {
                grcuda_fir_filter_new_ccc(
                    null(),
                    1,
                    GRCUDA_FIR_DIRECT,
                    [grcuda_complex32 { real: 1.0, imag: 0.0 }].as_ptr(),
                    1,
                    slot(),
                )
            },
            slot_cleared,
        ),
        (
            "grcuda_fir_filter_new_ccf",
            "taps is NULL",
            |o| grcuda_fir_filter_new_ccf(o.stream, 1, GRCUDA_FIR_DIRECT, null(), 3, slot()),
            slot_cleared,
        ),
        (
            "grcuda_fir_filter_new_fff",
            "decimation is 0",
            |o| grcuda_fir_filter_new_fff(o.stream, 0, GRCUDA_FIR_DIRECT, [1.0f32].as_ptr(), 1, slot()),
            slot_cleared,
        ),
        (
            "grcuda_fir_filter_execute",
            "filter is NULL",
            |_| grcuda_fir_filter_execute(null_mut(), null(), null_mut(), 1, 0, slot()),
            slot_cleared,
        ),
        (
            "grcuda_fir_filter_execute_rotated",
            "filter is NULL",
            |_| grcuda_fir_filter_execute_rotated(null_mut(), null(), null_mut(), 1, 0, 0.0, 0.1, slot()),
            slot_cleared,
        ),
        (
            "grcuda_expression_new",
            "device is NULL",
            |_| grcuda_expression_new(null(), c"in0".as_ptr(), 0, 0, 1, 1, null(), null(), 0, slot()),
            slot_cleared,
        ),
        (
            "grcuda_expression_new",
            "expected a number, a name or '('",
            |o| grcuda_expression_new(o.device, c"in0 +".as_ptr(), 0, 0, 1, 1, null(), null(), 0, slot()),
            slot_cleared,
        ),
        (
            "grcuda_expression_parameter",
            "expression is NULL",
            |_| grcuda_expression_parameter(null(), c"k".as_ptr(), slot()),
            slot_cleared,
        ),
        (
            "grcuda_logpwrfft_spectra_twiddles",
            "got 1000",
            |_| grcuda_logpwrfft_spectra_twiddles(1000, null_mut(), 0, slot()),
            slot_cleared,
        ),
        (
            "grcuda_pfb_channelizer_spectra_twiddles",
            "got 48",
            |_| grcuda_pfb_channelizer_spectra_twiddles(48, null_mut(), 0, slot()),
            slot_cleared,
        ),
        (
            "grcuda_logpwrfft_spectra_scratch",
            "got 1000",
            |_| grcuda_logpwrfft_spectra_scratch(1000, 1, slot()),
            slot_cleared,
        ),
        (
            "grcuda_device_get_info",
            "device is NULL",
            |_| INFO.with(|info| grcuda_device_get_info(null(), info.as_ptr())),
            |_| INFO.with(|info| info_is_cleared(&info.get())),
        ),
    ]
}

thread_local! {
    static INFO: std::cell::Cell<grcuda_device_info> = std::cell::Cell::new(filled_info());
}

/// A device info with every field non-zero, as a previous call (or junk) might leave it.
fn filled_info() -> grcuda_device_info {
    grcuda_device_info {
        backend: 0x5a5a,
        ordinal: -3,
        name: [0x5a; GRCUDA_DEVICE_NAME_SIZE],
        compute_capability_major: 77,
        compute_capability_minor: 77,
        multiprocessor_count: 77,
        total_memory: u64::MAX,
        vmm_supported: true,
        ring_granularity: 12345,
    }
}

fn info_is_cleared(info: &grcuda_device_info) -> bool {
    info.backend == 0
        && info.ordinal == 0
        && info.name.iter().all(|&c| c == 0)
        && info.compute_capability_major == 0
        && info.compute_capability_minor == 0
        && info.multiprocessor_count == 0
        && info.total_memory == 0
        && !info.vmm_supported
        && info.ring_granularity == 0
}

#[test]
fn failed_calls_clear_their_out_parameter_even_with_a_null_handle() {
    let objects = Objects::new();
    for (function, needle, call, cleared) in cases() {
        INFO.with(|info| info.set(filled_info()));
        let status = call(&objects);
        assert_invalid(function, status, needle);
        assert!(cleared(&objects), "{function} ({needle}): the out-parameter was not cleared");
    }
}

#[test]
fn a_null_out_parameter_is_named_before_a_null_handle() {
    // The out-parameter is checked first, so with both NULL the message names it.
    let objects = Objects::new();
    let checks: Vec<(&str, grcuda_status)> = vec![
        ("count_out", grcuda_device_count(u32::MAX, null_mut())),
        ("device_out", grcuda_device_open(-1, 99, null_mut())),
        ("info_out", grcuda_device_get_info(null(), null_mut())),
        ("bytes_out", grcuda_device_free_memory(null(), null_mut())),
        ("stream_out", grcuda_stream_new(null(), null_mut())),
        ("event_out", grcuda_event_new(null(), 99, null_mut())),
        ("memory_out", grcuda_memory_new(null(), 99, 0, null_mut())),
        ("buffer_out", grcuda_buffer_new(null(), 0, 0, 99, null_mut())),
        ("reader_out", grcuda_buffer_add_reader(null(), null(), null_mut())),
        ("pointer_out", grcuda_buffer_writer_pointer(null(), usize::MAX, null_mut())),
        ("pointer_out", grcuda_buffer_reader_pointer(null(), usize::MAX, null_mut())),
        ("published_out", grcuda_buffer_published_items(null(), usize::MAX, 0, null_mut())),
        ("block_out", grcuda_block_new(null(), 99, null_mut())),
        ("base_out", grcuda_block_input_mirror(null(), 0, null_mut())),
        ("pointer_out", grcuda_buffer_begin_read(null(), usize::MAX, null_mut())),
        ("plan_out", grcuda_fft_plan_new(null(), 99, 0, null_mut())),
        ("expression_out", grcuda_expression_new(null(), null(), 9, 9, 0, 0, null(), null(), 0, null_mut())),
        ("value_out", grcuda_expression_parameter(null(), null(), null_mut())),
        ("count_out", grcuda_logpwrfft_spectra_twiddles(1000, null_mut(), 0, null_mut())),
        ("count_out", grcuda_logpwrfft_spectra_scratch(1000, 1, null_mut())),
    ];
    for (name, status) in checks {
        // Each status was computed before the next call, so check the statuses only here; the
        // messages are checked one by one below.
        assert_eq!(status, grcuda_status::GRCUDA_STATUS_INVALID_ARGUMENT, "{name}");
    }
    assert_invalid("grcuda_device_free_memory", grcuda_device_free_memory(null(), null_mut()), "bytes_out is NULL");
    assert_invalid("grcuda_stream_new", grcuda_stream_new(null(), null_mut()), "stream_out is NULL");
    assert_invalid("grcuda_buffer_begin_read", grcuda_buffer_begin_read(null(), 0, null_mut()), "pointer_out is NULL");
    assert_invalid("grcuda_device_get_info", grcuda_device_get_info(null(), null_mut()), "info_out is NULL");
    assert_invalid("grcuda_fft_plan_new", grcuda_fft_plan_new(null(), 99, 0, null_mut()), "plan_out is NULL");
    // A NULL out-parameter made nothing: the buffer still has no reader.
    assert_invalid(
        "grcuda_buffer_add_reader",
        grcuda_buffer_add_reader(objects.buffer, null(), null_mut()),
        "reader_out is NULL",
    );
    let mut reader = GARBAGE;
    assert_eq!(grcuda_buffer_add_reader(objects.buffer, null(), &mut reader), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(reader, 0);
}

#[test]
fn successful_calls_fill_their_out_parameter() {
    let objects = Objects::new();
    let mut info = filled_info();
    assert_eq!(grcuda_device_get_info(objects.device, &mut info), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(info.backend, GRCUDA_BACKEND_SIMULATED);
    let mut reader = GARBAGE;
    assert_eq!(grcuda_buffer_add_reader(objects.buffer, null(), &mut reader), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(reader, 0);
    let mut read_pointer: *const c_void = garbage();
    assert_eq!(grcuda_buffer_begin_read(objects.buffer, 0, &mut read_pointer), grcuda_status::GRCUDA_STATUS_OK);
    assert!(!read_pointer.is_null() && read_pointer as usize != GARBAGE);
    let mut pointer: *mut c_void = garbage();
    assert_eq!(grcuda_buffer_writer_pointer(objects.buffer, 0, &mut pointer), grcuda_status::GRCUDA_STATUS_OK);
    assert!(!pointer.is_null() && pointer as usize != GARBAGE);
    let mut plan: *mut grcuda_fft_plan = garbage();
    assert_eq!(grcuda_fft_plan_new(objects.stream, GRCUDA_FFT_FORWARD, 64, &mut plan), grcuda_status::GRCUDA_STATUS_OK);
    assert!(!plan.is_null() && plan as usize != GARBAGE);
    grcuda_fft_plan_free(plan);
}

/// Names of the functions with an out-parameter (an argument named `*_out`) in `text`, with
/// their parameter lists.
fn functions_with_out_parameters(text: &str, prefix: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let after = &rest[at + prefix.len()..];
        let name_end = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
        let name = format!("grcuda_{}", &after[..name_end]);
        let tail = &after[name_end..];
        rest = tail;
        if let Some(parameters) = tail.strip_prefix('(') {
            let close = parameters.find(')').unwrap_or(parameters.len());
            let parameters = &parameters[..close];
            if parameters.contains("_out") {
                found.push((name, parameters.to_string()));
            }
        }
    }
    found
}

#[test]
fn the_cases_cover_every_out_parameter_in_the_header() {
    let covered: Vec<&str> = cases().iter().map(|case| case.0).collect();
    let in_header = functions_with_out_parameters(HEADER, " grcuda_");
    assert!(in_header.len() >= 14, "found only {in_header:?}");
    for (function, _) in &in_header {
        assert!(
            covered.contains(&function.as_str()),
            "{function} has an out-parameter but no case in tests/out_params.rs"
        );
    }
}

/// The `.rs` files under `directory`, as paths relative to it ("kernels/mod.rs").
fn source_files(directory: &Path, prefix: &str) -> Vec<String> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(directory).unwrap() {
        let entry = entry.unwrap();
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.path().is_dir() {
            files.extend(source_files(&entry.path(), &format!("{name}/")));
        } else {
            files.push(name);
        }
    }
    files
}

#[test]
fn every_out_parameter_goes_through_guard_out() {
    // The clearing happens in one place (ffi::guard_out); every exported function with an
    // out-parameter must hand it there.
    let directory = Path::new(ROOT).join("src/ffi");
    if directory.is_dir() {
        let mut files = source_files(&directory, "");
        files.sort();
        let listed: Vec<&str> = FFI_SOURCES.iter().map(|(name, _)| *name).collect();
        assert_eq!(files, listed, "FFI_SOURCES in tests/out_params.rs must list every file of src/ffi");
    }
    let mut checked = 0;
    for (file, source) in FFI_SOURCES {
        for (function, parameters) in functions_with_out_parameters(source, "pub extern \"C\" fn grcuda_") {
            let out = parameters
                .split(',')
                .filter_map(|p| p.split(':').next().map(str::trim))
                .find(|p| p.ends_with("_out"))
                .unwrap();
            let body = &source[source.find(&format!("fn {function}(")).unwrap()..];
            let body = &body[..body.find("\n}\n").unwrap()];
            assert!(
                body.contains(&format!("guard_out({out},")),
                "{function} in src/ffi/{file} must clear {out} through guard_out"
            );
            checked += 1;
        }
    }
    assert!(checked >= 14, "checked only {checked} functions");
}
