//! Host allocations whose size a caller decides, made so that running out of memory is an
//! OutOfMemory error instead of the abort Rust's infallible allocations end in (stable Rust
//! has no hook to change that). Anything reachable from the C API that allocates in
//! proportion to a caller's argument goes through here: the process is GNU Radio, which must
//! get a status it can report, not die.
//!
//! Libraries that allocate internally (rustfft's planner) cannot be made fallible, so
//! [`ensure_available`] checks first that the memory they will need can be had: it reserves
//! that much address space and gives it back at once (nothing is touched, so it costs one
//! mmap and munmap). That is a pre-flight, not a guarantee: another thread may take the
//! memory in between. It does catch what matters in practice, a size that can never fit
//! (the address-space limit, `ulimit -v`, or the machine's memory with overcommit
//! heuristics).

use crate::error::{Error, ErrorKind, Result};

/// The OutOfMemory error for `bytes` bytes (or an overflowing size) needed by `what`.
pub(crate) fn out_of_host_memory(what: &str, bytes: Option<usize>) -> Error {
    let amount = match bytes {
        Some(bytes) => format!("{bytes} bytes ({})", human(bytes)),
        None => "more bytes than the address space holds".to_string(),
    };
    Error::new(
        ErrorKind::OutOfMemory,
        format!(
            "out of host memory: {what} needs {amount}, which could not be allocated; use a smaller \
             size, free memory, or raise the process's memory limit (ulimit -v)"
        ),
    )
}

fn human(bytes: usize) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// An empty vector with room for `count` items, or OutOfMemory naming `what`.
pub(crate) fn vec_with_capacity<T>(count: usize, what: &str) -> Result<Vec<T>> {
    let mut vector = Vec::new();
    vector.try_reserve_exact(count).map_err(|_| out_of_host_memory(what, count.checked_mul(size_of::<T>())))?;
    Ok(vector)
}

/// `count` copies of `value`, or OutOfMemory naming `what`.
pub(crate) fn vec_filled<T: Clone>(count: usize, value: T, what: &str) -> Result<Vec<T>> {
    let mut vector = vec_with_capacity(count, what)?;
    vector.resize(count, value);
    Ok(vector)
}

/// The items of `items`, each checked, collected into a vector allocated fallibly.
pub(crate) fn collect<T>(items: impl ExactSizeIterator<Item = Result<T>>, what: &str) -> Result<Vec<T>> {
    let mut vector = vec_with_capacity(items.len(), what)?;
    for item in items {
        vector.push(item?);
    }
    Ok(vector)
}

/// Fails with OutOfMemory unless `bytes` bytes (`None`: a size that overflowed) can be
/// allocated now; allocates nothing that outlives the call. For code that allocates
/// infallibly inside a library.
pub(crate) fn ensure_available(bytes: Option<usize>, what: &str) -> Result<()> {
    let Some(bytes) = bytes else {
        return Err(out_of_host_memory(what, None));
    };
    vec_with_capacity::<u8>(bytes, what).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn impossible_sizes_are_out_of_memory() {
        let error = vec_with_capacity::<u64>(usize::MAX / 4, "a test vector").unwrap_err();
        assert_eq!(error.kind(), ErrorKind::OutOfMemory);
        assert!(error.message().contains("a test vector needs more bytes than the address space"), "{error}");
        let error = ensure_available(Some(usize::MAX / 2), "a test plan").unwrap_err();
        assert_eq!(error.kind(), ErrorKind::OutOfMemory);
        assert!(error.message().contains("a test plan needs 9223372036854775807 bytes (8.0 EiB"), "{error}");
        assert!(ensure_available(None, "an overflowing plan").is_err());
        assert!(ensure_available(Some(1 << 20), "a small plan").is_ok());
        assert_eq!(vec_filled(3, 7u8, "three bytes").unwrap(), vec![7, 7, 7]);
        assert_eq!(collect([Ok(1), Ok(2)].into_iter(), "two").unwrap(), vec![1, 2]);
        assert!(collect([Ok(1), Err(Error::invalid_argument("x"))].into_iter(), "two").is_err());
    }
}
