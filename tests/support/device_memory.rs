// SPDX-License-Identifier: GPL-3.0-or-later

//! Moving test data to and from the device: a device, a stream, and typed uploads and reads
//! through pinned staging memory.

use grcuda::memory::{DeviceAllocation, PinnedAllocation};
use grcuda::{BackendChoice, Device, Stream};
use std::io::Write;
use std::sync::{Arc, Once};

pub struct Harness {
    pub device: Device,
    /// Shared, as FFT plans keep their stream.
    pub stream: Arc<Stream>,
}

impl Harness {
    /// Opens the device `GRCUDA_BACKEND` picks and says once which it is, as `what` runs on it.
    pub fn new(what: &str) -> Harness {
        let device = Device::open(0, BackendChoice::Auto).expect("opening device 0");
        static REPORTED: Once = Once::new();
        REPORTED.call_once(|| {
            // Straight to the stream, past the test harness's capture, so every run shows it.
            let _ = writeln!(std::io::stderr(), "{what} on backend {:?} ({})", device.backend(), device.info().name);
        });
        let stream = Arc::new(Stream::new(&device).expect("creating a stream"));
        Harness { device, stream }
    }

    /// A harness on `device`, with a stream of its own.
    pub fn on_device(device: &Device) -> Harness {
        Harness { device: device.clone(), stream: Arc::new(Stream::new(device).expect("creating a stream")) }
    }

    /// Device memory for `count` items of `T` (at least one byte), contents unspecified.
    pub fn allocate<T>(&self, count: usize) -> DeviceAllocation {
        DeviceAllocation::new(&self.device, (count * size_of::<T>()).max(1)).expect("allocating device memory")
    }

    pub fn upload<T: Copy>(&self, values: &[T]) -> DeviceAllocation {
        let allocation = self.allocate::<T>(values.len());
        self.write(allocation.address(), values);
        allocation
    }

    /// Copies `values` to device address `address` and waits.
    pub fn write<T: Copy>(&self, address: u64, values: &[T]) {
        let bytes = size_of_val(values);
        let mut staging = PinnedAllocation::new(&self.device, bytes.max(1)).unwrap();
        unsafe {
            let source = std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), bytes);
            staging.as_mut_slice()[..bytes].copy_from_slice(source);
            self.stream.copy_async(address, staging.address(), bytes).unwrap();
        }
        self.stream.synchronize().unwrap();
    }

    /// Waits for the stream's work, then reads `count` items of `T` at device address `address`.
    pub fn read<T: Copy>(&self, address: u64, count: usize) -> Vec<T> {
        let bytes = count * size_of::<T>();
        let mut staging = PinnedAllocation::new(&self.device, bytes.max(1)).unwrap();
        unsafe { self.stream.copy_async(staging.address(), address, bytes).unwrap() };
        self.stream.synchronize().unwrap();
        let mut values = Vec::<T>::with_capacity(count);
        unsafe {
            std::ptr::copy_nonoverlapping(staging.as_mut_slice().as_ptr(), values.as_mut_ptr().cast::<u8>(), bytes);
            values.set_len(count);
        }
        values
    }
}
