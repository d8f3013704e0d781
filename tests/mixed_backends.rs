//! Events and streams of different backends are refused instead of reaching the driver with a
//! handle it does not know: a simulated event has no CUevent, and a simulated stream's CUstream
//! is NULL, the legacy stream. Needs a CUDA device besides the simulated one; without one the
//! test says it skipped.

use grcuda::ffi::*;
use std::ffi::CStr;
use std::io::Write;
use std::ptr::null_mut;

fn last_error() -> String {
    unsafe { CStr::from_ptr(grcuda_last_error_message()) }.to_string_lossy().into_owned()
}

fn open(backend: u32) -> Option<*mut grcuda_device> {
    let mut device = null_mut();
    (grcuda_device_open(0, backend, &mut device) == grcuda_status::GRCUDA_STATUS_OK).then_some(device)
}

fn stream_and_event(device: *mut grcuda_device) -> (*mut grcuda_stream, *mut grcuda_event) {
    let (mut stream, mut event) = (null_mut(), null_mut());
    assert_eq!(grcuda_stream_new(device, &mut stream), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(grcuda_event_new(device, GRCUDA_HOST_WAIT_SPIN, &mut event), grcuda_status::GRCUDA_STATUS_OK);
    (stream, event)
}

#[test]
fn events_and_streams_of_different_backends_are_refused() {
    let simulated = open(GRCUDA_BACKEND_SIMULATED).expect("the simulated backend always opens");
    let Some(cuda) = open(GRCUDA_BACKEND_CUDA) else {
        let _ =
            writeln!(std::io::stderr(), "skipped: no CUDA device here ({}); runs on the GPU test kit", last_error());
        grcuda_device_free(simulated);
        return;
    };
    let (simulated_stream, simulated_event) = stream_and_event(simulated);
    let (cuda_stream, cuda_event) = stream_and_event(cuda);
    let refused = |what: &str, status: grcuda_status, needle: &str| {
        assert_eq!(status, grcuda_status::GRCUDA_STATUS_INVALID_ARGUMENT, "{what}: {}", last_error());
        assert!(last_error().contains(needle), "{what}: {}", last_error());
    };
    refused(
        "CUDA event on a simulated stream",
        grcuda_event_record(cuda_event, simulated_stream),
        "the event belongs to CUDA device 0 but the stream to the simulated device",
    );
    refused(
        "simulated event on a CUDA stream",
        grcuda_event_record(simulated_event, cuda_stream),
        "the event belongs to the simulated device",
    );
    refused(
        "CUDA stream waiting for a simulated event",
        grcuda_stream_wait_event(cuda_stream, simulated_event),
        "its own backend",
    );
    refused(
        "simulated stream waiting for a CUDA event",
        grcuda_stream_wait_event(simulated_stream, cuda_event),
        "its own backend",
    );
    // The same backends still work.
    assert_eq!(grcuda_event_record(cuda_event, cuda_stream), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(grcuda_stream_wait_event(cuda_stream, cuda_event), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(grcuda_event_record(simulated_event, simulated_stream), grcuda_status::GRCUDA_STATUS_OK);
    assert_eq!(grcuda_stream_synchronize(cuda_stream), grcuda_status::GRCUDA_STATUS_OK);
    for (stream, event) in [(simulated_stream, simulated_event), (cuda_stream, cuda_event)] {
        grcuda_event_free(event);
        grcuda_stream_free(stream);
    }
    grcuda_device_free(cuda);
    grcuda_device_free(simulated);
}
