// SPDX-License-Identifier: GPL-3.0-or-later

//! Launching kernels: the step every launcher ends with, the grid size, argument passing and
//! the driver call.
//!
//! A launcher checks its arguments first (a call without items returns before the checks, so
//! it accepts any address), then hands [`run`] its kernel and two ways to do the work: its CPU
//! version, which `run` calls on the simulated backend, and a closure that launches the
//! kernel, once or, for more arrays than one launch takes, several times in stream order. On a
//! CUDA device `run` finds the kernel's function handle before calling the closure, loading
//! its program at first use (`module_cache`), so every launch of the call uses that handle.
//!
//! Every kernel is a grid-stride loop over its work items (see `kernels/grcuda_common.cuh`),
//! so the grid size only tunes speed: enough blocks to fill every multiprocessor several
//! times over, and no more than the work needs. Launches are asynchronous; errors from the
//! kernel itself surface at the next synchronising call on the stream, as with any CUDA work.

use crate::driver_calls;
use crate::error::{Error, Result};
use crate::kernels::module_cache;
use crate::kernels::program::Kernel;
use crate::stream::Stream;
use cudarc::driver::{result, sys};
use std::ffi::c_void;

/// Threads per block: a multiple of the warp size that lets every multiprocessor hold several
/// blocks, whatever the architecture.
pub(crate) const BLOCK_SIZE: u32 = 256;

/// The dynamic shared memory a block may use on every GPU without asking for more (48 KiB):
/// the tiled kernels fall back to their device-memory forms beyond it.
pub(crate) const SHARED_BYTES_PER_BLOCK: usize = 48 << 10;

/// Items per thread per step of the elementwise kernels' loop: `ITEMS_PER_THREAD` in
/// `kernels/grcuda_common.cuh`.
const ITEMS_PER_THREAD: usize = 4;

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

/// Does a launcher's checked work on `stream`: `on_cpu` on the simulated backend, otherwise
/// `enqueue` with `kernel` loaded on the stream's device.
pub(crate) fn run(
    stream: &Stream,
    kernel: Kernel,
    on_cpu: impl FnOnce(),
    enqueue: impl FnOnce(&LoadedKernel) -> Result<()>,
) -> Result<()> {
    if stream.device().is_simulated() {
        // One launch's worth, also for launchers that split their work into several launches.
        driver_calls::count();
        on_cpu();
        return Ok(());
    }
    let function = module_cache::function(stream.device(), kernel)?;
    enqueue(&LoadedKernel { stream, kernel, function })
}

/// A kernel whose handle on a stream's device is known, ready to launch on that stream.
pub(crate) struct LoadedKernel<'a> {
    stream: &'a Stream,
    kernel: Kernel,
    function: sys::CUfunction,
}

impl LoadedKernel<'_> {
    /// Enqueues the kernel with a grid sized for `work_items`.
    ///
    /// # Safety
    /// `arguments` must match the kernel's parameters in number and type (their values are
    /// copied at the call), and the device memory the kernel accesses must stay valid until it
    /// completes.
    pub(crate) unsafe fn launch(&self, work_items: usize, arguments: &mut [*mut c_void]) -> Result<()> {
        let blocks = grid_size(work_items as u64, self.stream.device().info().multiprocessor_count);
        unsafe { self.launch_blocks(blocks, BLOCK_SIZE, 0, arguments) }
    }

    /// Enqueues an elementwise kernel (one built on `for_each_item` or `write_each_item` in
    /// `kernels/grcuda_common.cuh`) for `items` items: a thread per `ITEMS_PER_THREAD` items.
    ///
    /// # Safety
    /// As [`LoadedKernel::launch`].
    pub(crate) unsafe fn launch_each_item(&self, items: usize, arguments: &mut [*mut c_void]) -> Result<()> {
        unsafe { self.launch(items.div_ceil(ITEMS_PER_THREAD), arguments) }
    }

    /// Enqueues the kernel with `tiles` tiles of work for blocks of `threads` threads with
    /// `shared_bytes` of dynamic shared memory each: a kernel that loops over tiles (as a
    /// grid-stride loop does over items) gets a grid sized as [`LoadedKernel::launch`] sizes
    /// one.
    ///
    /// # Safety
    /// As [`LoadedKernel::launch`], and the kernel must expect that block size and shared
    /// memory.
    pub(crate) unsafe fn launch_tiles(
        &self,
        tiles: usize,
        threads: u32,
        shared_bytes: u32,
        arguments: &mut [*mut c_void],
    ) -> Result<()> {
        let useful = BLOCKS_PER_MULTIPROCESSOR * self.stream.device().info().multiprocessor_count.max(1) as u64;
        let blocks = (tiles as u64).clamp(1, useful) as u32;
        unsafe { self.launch_blocks(blocks, threads, shared_bytes, arguments) }
    }

    unsafe fn launch_blocks(
        &self,
        blocks: u32,
        threads: u32,
        shared_bytes: u32,
        arguments: &mut [*mut c_void],
    ) -> Result<()> {
        driver_calls::count();
        let device = self.stream.device();
        device.bind()?;
        let stream = self.stream.raw();
        unsafe {
            result::launch_kernel(self.function, (blocks, 1, 1), (threads, 1, 1), shared_bytes, stream, arguments)
        }
        .map_err(|e| Error::driver(&format!("cuLaunchKernel({})", self.kernel.name()), e))
    }
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
