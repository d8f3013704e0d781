// SPDX-License-Identifier: GPL-3.0-or-later

//! Synthetic GPU load (`kernels/load.cu`), the work of the `cuda.load` block: a copy whose
//! every byte is read and written a given number of times, so that benchmarks can put a
//! known amount of compute between transfers. The result is always the input.

use crate::error::{Error, Result};
use crate::kernels::launch::{self, argument};
use crate::kernels::program::LOAD_KERNELS;
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// Copies `bytes` bytes from `input` to `output` on `stream`, each byte `iterations` times
/// (at least 1). `output` may equal `input`.
///
/// # Safety
/// `input` and `output` must address `bytes` valid bytes of device memory of the stream's
/// device (host memory on the simulated backend) until the kernel completes, and nothing else
/// may write them meanwhile.
pub unsafe fn load(stream: &Stream, input: u64, output: u64, bytes: usize, iterations: u64) -> Result<()> {
    if iterations == 0 {
        return Err(Error::invalid_argument("load: iterations must be at least 1"));
    }
    if bytes == 0 {
        return Ok(());
    }
    let input_range = validate::bytes("input", input, bytes)?;
    let output_range = validate::bytes("output", output, bytes)?;
    validate::same_or_disjoint(("input", &input_range), ("output", &output_range))?;
    let on_cpu = || unsafe { cpu::load::load(input, output, bytes, iterations) };
    launch::run(stream, LOAD_KERNELS.variant(""), on_cpu, |kernel| {
        let count = bytes as u64;
        unsafe {
            kernel.launch(bytes, &mut [argument(&input), argument(&output), argument(&count), argument(&iterations)])
        }
    })
}
