// SPDX-License-Identifier: GPL-3.0-or-later

//! Host memory mapped twice: one memfd of N bytes at `base` and again at `base + N`.
//!
//! This is the storage of pinned host rings, and of device rings on the simulated backend.

use crate::error::{Error, ErrorKind, Result};

/// The host's page size: the granularity of host mappings (and of simulated device rings).
pub(crate) fn page_size() -> usize {
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
}

/// The error of a failed system call on a ring of `size` bytes; running out of memory (or of
/// address space under a limit) says how big the ring was and what to do.
fn mapping_error(what: &str, size: usize) -> Error {
    let error =
        Error::os(&format!("{what} for a {size}-byte ring (mapped twice: {} bytes of address space)", 2 * size));
    match error.kind() {
        ErrorKind::OutOfMemory => Error::new(
            ErrorKind::OutOfMemory,
            format!(
                "out of host memory: {}; ask for a smaller buffer, free memory, or raise the \
                 process's memory limit (ulimit -v)",
                error.message()
            ),
        ),
        _ => error,
    }
}

pub struct DoubleMappedHost {
    base: *mut u8,
    size: usize,
}

// The mapping is plain memory; synchronising access to it is the buffer protocol's job.
unsafe impl Send for DoubleMappedHost {}
unsafe impl Sync for DoubleMappedHost {}

impl DoubleMappedHost {
    /// Maps `size` bytes twice. `size` must be a multiple of the page size.
    pub fn new(size: usize) -> Result<Self> {
        let page = page_size();
        if size == 0 || size % page != 0 {
            return Err(Error::invalid_argument(format!(
                "a double-mapped host ring must be a non-zero multiple of the {page}-byte page size, not {size} bytes"
            )));
        }
        let span = size.checked_mul(2).ok_or_else(|| Error::invalid_argument("ring size overflows"))?;
        unsafe {
            let fd = libc::memfd_create(c"grcuda-ring".as_ptr(), libc::MFD_CLOEXEC);
            if fd < 0 {
                return Err(mapping_error("memfd_create", size));
            }
            let result = Self::map_twice(fd, size, span);
            libc::close(fd);
            result
        }
    }

    unsafe fn map_twice(fd: i32, size: usize, span: usize) -> Result<Self> {
        unsafe {
            if libc::ftruncate(fd, size as libc::off_t) != 0 {
                return Err(mapping_error("ftruncate of the memfd", size));
            }
            let reserved = libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            );
            if reserved == libc::MAP_FAILED {
                return Err(mapping_error("mmap reserving the address range", size));
            }
            // From here the reservation is owned by `mapping`, so every early return unmaps it.
            let mapping = DoubleMappedHost { base: reserved.cast(), size };
            for half in 0..2 {
                let at = mapping.base.add(half * size).cast();
                let mapped =
                    libc::mmap(at, size, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED | libc::MAP_FIXED, fd, 0);
                if mapped == libc::MAP_FAILED {
                    return Err(mapping_error("mmap of the memfd", size));
                }
            }
            Ok(mapping)
        }
    }

    pub fn base(&self) -> *mut u8 {
        self.base
    }

    /// Bytes in one mapping (the ring's size).
    pub fn size(&self) -> usize {
        self.size
    }
}

impl Drop for DoubleMappedHost {
    fn drop(&mut self) {
        unsafe { libc::munmap(self.base.cast(), 2 * self.size) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_half_aliases_first() {
        let page = page_size();
        let ring = DoubleMappedHost::new(2 * page).unwrap();
        unsafe {
            *ring.base().add(5) = 42;
            assert_eq!(*ring.base().add(2 * page + 5), 42);
            *ring.base().add(4 * page - 1) = 7;
            assert_eq!(*ring.base().add(2 * page - 1), 7);
        }
    }

    #[test]
    fn rejects_sizes_that_are_not_pages() {
        assert!(DoubleMappedHost::new(0).is_err());
        assert!(DoubleMappedHost::new(100).is_err());
    }
}
