//! Running out of host memory is GRCUDA_STATUS_OUT_OF_MEMORY, never an abort: with its address
//! space limited (setrlimit(RLIMIT_AS)), a child process asks the simulated backend for FFT
//! plans, memory, rings, buffers and argument lists that cannot fit, and every call must
//! return the status, with a message naming the size, and leave the library usable. Rust
//! aborts the process when an infallible allocation fails, so a path that still allocates
//! that way ends the child with SIGABRT and fails the test.
//!
//! The child is this test binary again, running only the ignored test below, selected by
//! name and by an environment variable.
//!
//! Also: large simulated allocations commit no memory until it is touched.

use grcuda::ffi::*;
use std::ffi::CStr;
use std::process::Command;
use std::ptr::null_mut;

const CHILD_ENV: &str = "GRCUDA_TEST_OUT_OF_MEMORY_CHILD";
const CHILD_TEST: &str = "child_under_an_address_space_limit";
/// Address space the child may use beyond what it has mapped when the test starts.
const HEADROOM: usize = 1 << 30;
/// What the child prints once every call has returned.
const DONE: &str = "out-of-memory child: every call returned";

#[test]
fn running_out_of_host_memory_is_a_status_not_an_abort() {
    let output = Command::new(std::env::current_exe().unwrap())
        .args([CHILD_TEST, "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, "1")
        .output()
        .expect("running the child test");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    print!("{stdout}");
    eprint!("{stderr}");
    assert!(output.status.success(), "the child under an address-space limit failed or aborted: {}", output.status);
    assert!(stdout.contains(DONE), "the child did not get through its calls");
}

fn last_error() -> String {
    let message = grcuda_last_error_message();
    assert!(!message.is_null());
    unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned()
}

/// The call returned OUT_OF_MEMORY with a message containing `needle`.
fn assert_out_of_memory(what: &str, status: grcuda_status, needle: &str) {
    assert_eq!(
        status,
        grcuda_status::GRCUDA_STATUS_OUT_OF_MEMORY,
        "{what} (the last error may be older): {}",
        last_error()
    );
    let message = last_error();
    assert!(message.contains(needle), "{what}: the message should contain {needle:?}: {message}");
    println!("{what}: {message}");
}

fn ok(what: &str, status: grcuda_status) {
    assert_eq!(status, grcuda_status::GRCUDA_STATUS_OK, "{what}: {}", last_error());
}

/// Bytes of address space the process has mapped now.
fn mapped_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmSize:")).unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

fn limit_address_space(bytes: usize) {
    let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0, "setrlimit(RLIMIT_AS)");
}

fn new_memory(device: *const grcuda_device, kind: u32, bytes: usize) -> *mut grcuda_memory {
    let mut memory = null_mut();
    ok("grcuda_memory_new", grcuda_memory_new(device, kind, bytes, &mut memory));
    memory
}

#[test]
#[ignore = "runs only as the child of running_out_of_host_memory_is_a_status_not_an_abort"]
fn child_under_an_address_space_limit() {
    if std::env::var_os(CHILD_ENV).is_none() {
        eprintln!("{CHILD_TEST} limits its own address space: it runs only in the child process");
        return;
    }
    // Explicitly simulated: its device memory is host memory, which the limit applies to (and
    // the CUDA driver is never loaded under the limit).
    let mut device = null_mut();
    ok("grcuda_device_open", grcuda_device_open(0, GRCUDA_BACKEND_SIMULATED, &mut device));
    let mut stream = null_mut();
    ok("grcuda_stream_new", grcuda_stream_new(device, &mut stream));
    let limit = mapped_bytes() + HEADROOM;
    limit_address_space(limit);
    println!("address space limited to {limit} bytes ({} MiB beyond what was mapped)", HEADROOM >> 20);

    // Memory of every kind, 4 GiB: more than the limit allows, less than the simulated
    // device's 16 GiB.
    let huge = 4usize << 30;
    let kinds = [
        ("device memory", GRCUDA_MEMORY_DEVICE, "needs 4294967296 bytes"),
        ("pinned host memory", GRCUDA_MEMORY_PINNED_HOST, "needs 4294967296 bytes"),
        ("a device ring", GRCUDA_MEMORY_DEVICE_RING, "4294967296-byte ring"),
        ("a host ring", GRCUDA_MEMORY_HOST_RING, "4294967296-byte ring"),
    ];
    for (what, kind, needle) in kinds {
        let mut memory = 0xdead_beef as *mut grcuda_memory;
        assert_out_of_memory(&format!("4 GiB of {what}"), grcuda_memory_new(device, kind, huge, &mut memory), needle);
        assert!(memory.is_null());
    }
    // Sizes no machine has are out of memory too.
    let mut memory = null_mut();
    assert_out_of_memory(
        "usize::MAX bytes of device memory",
        grcuda_memory_new(device, GRCUDA_MEMORY_DEVICE, usize::MAX, &mut memory),
        "out of simulated device memory",
    );
    assert_out_of_memory(
        "usize::MAX bytes of pinned host memory",
        grcuda_memory_new(device, GRCUDA_MEMORY_PINNED_HOST, usize::MAX, &mut memory),
        &format!("needs {} bytes", usize::MAX),
    );
    let mut buffer = 0xdead_beef as *mut grcuda_buffer;
    assert_out_of_memory(
        "a 4 GiB buffer",
        grcuda_buffer_new(device, 8, huge / 8, GRCUDA_HOST_WAIT_SPIN, &mut buffer),
        "4294967296-byte ring",
    );
    assert!(buffer.is_null());

    // FFT plans that do not fit beside the data they would transform: 2^26 points (512 MiB of
    // complex data; planning may need twice as much) and the prime 33554393 (256 MiB of data;
    // rustfft's Bluestein plan needs ten times that).
    let data = new_memory(device, GRCUDA_MEMORY_DEVICE, (1usize << 26) * 8 + 64);
    for points in [1usize << 26, 33_554_393] {
        let needle = format!("planning a {points}-point FFT needs");
        let kinds =
            [("forward", GRCUDA_FFT_FORWARD), ("inverse", GRCUDA_FFT_INVERSE), ("real", GRCUDA_FFT_REAL_FORWARD)];
        for (what, kind) in kinds {
            let mut plan = 0xdead_beef as *mut grcuda_fft_plan;
            let status = grcuda_fft_plan_new(stream, kind, points, &mut plan);
            assert_out_of_memory(&format!("a {points}-point {what} FFT plan"), status, &needle);
            assert!(plan.is_null());
        }
    }
    grcuda_memory_free(data);

    // A list of 80 Mi input pointers (640 MiB, zero pages): the library's copy of it does not
    // fit beside it.
    let count = 80usize << 20;
    let inputs = new_memory(device, GRCUDA_MEMORY_PINNED_HOST, count * 8);
    let output = new_memory(device, GRCUDA_MEMORY_DEVICE, 64);
    let status = grcuda_add_ff(stream, grcuda_memory_address(inputs).cast(), count, grcuda_memory_address(output), 1);
    assert_out_of_memory("adding 80 Mi inputs", status, &format!("the list of {count} inputs needs"));
    grcuda_memory_free(inputs);

    // The library is still usable: a small FFT and small memory work under the same limit.
    let size = 1024;
    let small = new_memory(device, GRCUDA_MEMORY_DEVICE, size * 8);
    let mut plan = null_mut();
    ok("a 1024-point FFT plan", grcuda_fft_plan_new(stream, GRCUDA_FFT_FORWARD, size, &mut plan));
    let address = grcuda_memory_address(small);
    ok("a 1024-point FFT", grcuda_fft_plan_execute(plan, 1, address, address));
    grcuda_fft_plan_free(plan);
    let mut buffer = null_mut();
    ok("a small buffer", grcuda_buffer_new(device, 8, 4096, GRCUDA_HOST_WAIT_SPIN, &mut buffer));
    ok("its transfer type", grcuda_buffer_set_transfer_type(buffer, GRCUDA_TRANSFER_HOST_TO_DEVICE));
    grcuda_buffer_free(buffer);
    grcuda_memory_free(small);
    grcuda_memory_free(output);
    grcuda_stream_free(stream);
    grcuda_device_free(device);
    println!("{DONE}");
}

/// Bytes of the process resident in memory now.
fn resident_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

#[test]
fn large_simulated_allocations_commit_nothing_up_front() {
    // Simulated device and pinned memory is zero-filled page by page when touched; writing the
    // zeros up front made a large allocation slow and, past the free memory, a kill by the
    // kernel's OOM killer instead of a status.
    let mut device = null_mut();
    ok("grcuda_device_open", grcuda_device_open(0, GRCUDA_BACKEND_SIMULATED, &mut device));
    let before = resident_bytes();
    let started = std::time::Instant::now();
    let bytes = 1usize << 30;
    let memory = [GRCUDA_MEMORY_DEVICE, GRCUDA_MEMORY_PINNED_HOST].map(|kind| new_memory(device, kind, bytes));
    let grown = resident_bytes().saturating_sub(before);
    let elapsed = started.elapsed();
    for m in memory {
        let address = grcuda_memory_address(m).cast::<u8>();
        assert_eq!(address as usize % 256, 0, "simulated memory must be aligned as cuMemAlloc's is");
        assert_eq!(unsafe { *address.add(bytes - 1) }, 0, "simulated memory starts zeroed");
        grcuda_memory_free(m);
    }
    grcuda_device_free(device);
    assert!(grown < 64 << 20, "two 1 GiB simulated allocations made the process grow by {grown} bytes");
    assert!(elapsed < std::time::Duration::from_millis(500), "two 1 GiB simulated allocations took {elapsed:?}");
}
