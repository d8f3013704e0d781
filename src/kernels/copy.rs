// SPDX-License-Identifier: GPL-3.0-or-later

//! Copy between device buffers as a kernel (`kernels/copy.cu`).
//!
//! [`Stream::copy_async`] does the same with the copy engines; this kernel exists for copies
//! that should run as compute work among other kernels, and is the simplest check that
//! kernels compile, load and run. Ranges must not overlap (the same address is a no-op).

use crate::error::Result;
use crate::kernels::launch::{self, argument};
use crate::kernels::move_unit::widest_unit;
use crate::kernels::program::COPY_KERNELS;
use crate::kernels::{cpu, validate};
use crate::stream::Stream;

/// Copies `bytes` bytes from `input` to `output` on `stream`. Any alignment works; aligned
/// buffers are copied 16 bytes per thread step.
///
/// # Safety
/// `input` and `output` must address `bytes` valid bytes of device memory of the stream's
/// device (host memory on the simulated backend) until the copy completes, and nothing else
/// may write them meanwhile.
pub unsafe fn copy(stream: &Stream, input: u64, output: u64, bytes: usize) -> Result<()> {
    if bytes == 0 {
        return Ok(());
    }
    let input_range = validate::bytes("input", input, bytes)?;
    let output_range = validate::bytes("output", output, bytes)?;
    validate::same_or_disjoint(("input", &input_range), ("output", &output_range))?;
    if input == output {
        return Ok(());
    }
    let unit = widest_unit([input, output, bytes as u64]);
    let on_cpu = || unsafe { cpu::copy(input, output, bytes) };
    launch::run(stream, COPY_KERNELS.variant(unit.variant), on_cpu, |kernel| {
        let count = (bytes / unit.bytes) as u64;
        unsafe { kernel.launch(count as usize, &mut [argument(&input), argument(&output), argument(&count)]) }
    })
}
