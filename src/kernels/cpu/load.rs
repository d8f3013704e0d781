// SPDX-License-Identifier: GPL-3.0-or-later

//! The simulated backend's synthetic load (`kernels/load.cu`): the same repeated copy on the
//! CPU, so that a benchmark's load costs time there too.

/// Each byte read and written `iterations` times, as the CUDA kernel does: volatile, so that
/// the simulated backend does the work too.
///
/// # Safety
/// `bytes` bytes valid at both addresses; output equal to input or disjoint from it.
pub(crate) unsafe fn load(input: u64, output: u64, bytes: usize, iterations: u64) {
    let (input, output) = (input as *const u8, output as *mut u8);
    for index in 0..bytes {
        for _ in 0..iterations {
            unsafe { output.add(index).write_volatile(input.add(index).read_volatile()) };
        }
    }
}
