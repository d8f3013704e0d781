// SPDX-License-Identifier: GPL-3.0-or-later

//! Launching a kernel on a stream: grid size, argument passing and the driver call.
//!
//! Every kernel is a grid-stride loop over its work items (see `kernels/grcuda_common.cuh`),
//! so the grid size only tunes speed: enough blocks to fill every multiprocessor several
//! times over, and no more than the work needs. Launches are asynchronous; errors from the
//! kernel itself surface at the next synchronising call on the stream, as with any CUDA work.

use crate::error::{Error, Result};
use crate::kernels::module_cache;
use crate::kernels::program::Kernel;
use crate::stream::Stream;
use cudarc::driver::result;
use std::ffi::c_void;

/// Threads per block: a multiple of the warp size that lets every multiprocessor hold several
/// blocks, whatever the architecture.
const BLOCK_SIZE: u32 = 256;

/// Blocks per multiprocessor at most; beyond this each thread loops instead.
const BLOCKS_PER_MULTIPROCESSOR: u64 = 32;

/// How many addresses a many-array kernel (add, interleave, de-interleave) takes by value in
/// one launch: `POINTER_GROUP_SIZE` in `kernels/grcuda_common.cuh`. The argument is a
/// `[u64; POINTER_GROUP_SIZE]` whose unused slots the kernel never reads.
pub(crate) const POINTER_GROUP_SIZE: usize = 16;

fn grid_size(work_items: u64, multiprocessor_count: i32) -> u32 {
    let needed = work_items.div_ceil(u64::from(BLOCK_SIZE));
    let useful = BLOCKS_PER_MULTIPROCESSOR * multiprocessor_count.max(1) as u64;
    needed.clamp(1, useful) as u32
}

/// A kernel argument as `cuLaunchKernel` takes it: a pointer to the value, whose type must be
/// the parameter's type in the kernel (u64 for addresses and counts).
pub(crate) fn argument<T>(value: &T) -> *mut c_void {
    (value as *const T).cast_mut().cast()
}

/// Enqueues `kernel` on `stream` (a CUDA stream) with a grid sized for `work_items`.
///
/// # Safety
/// `arguments` must match the kernel's parameters in number and type (their values are
/// copied at the call), and the device memory the kernel accesses must stay valid until it
/// completes.
pub(crate) unsafe fn launch(
    stream: &Stream,
    kernel: &Kernel,
    work_items: usize,
    arguments: &mut [*mut c_void],
) -> Result<()> {
    let device = stream.device();
    let function = module_cache::function(device, kernel)?;
    let blocks = grid_size(work_items as u64, device.info().multiprocessor_count);
    device.bind()?;
    unsafe { result::launch_kernel(function, (blocks, 1, 1), (BLOCK_SIZE, 1, 1), 0, stream.raw(), arguments) }
        .map_err(|e| Error::driver(&format!("cuLaunchKernel({})", kernel.name()), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_covers_small_work_and_caps_large_work() {
        assert_eq!(grid_size(1, 132), 1);
        assert_eq!(grid_size(256, 132), 1);
        assert_eq!(grid_size(257, 132), 2);
        assert_eq!(grid_size(1 << 40, 132), 132 * 32);
        assert_eq!(grid_size(1 << 40, 0), 32);
    }
}
