// SPDX-License-Identifier: GPL-3.0-or-later

//! The on-disk cache of compiled kernels, so that only the first process on a machine pays
//! for NVRTC.
//!
//! An entry is one compiled program, named after what produced it: the program, the target
//! architecture, and a 128-bit hash of the source, the headers, the target, the NVRTC version
//! and the compile options. A new source, GPU or NVRTC therefore never meets a stale entry; it
//! simply misses. Entries are written to a temporary file and renamed into place, so readers
//! never see half an entry, and each carries a checksum of its contents: whatever cannot be
//! read or does not check out is treated as a miss and compiled again. Nothing here can fail
//! a kernel launch; at worst the cache does not help.
//!
//! Location: the directory the application set (grcuda_set_kernel_cache_directory; GNU Radio's
//! module passes its `[cuda] kernel_cache` preference), else `$GRCUDA_KERNEL_CACHE`, else
//! `$XDG_CACHE_HOME/grcuda/kernels`, else `~/.cache/grcuda/kernels`; no cache when none of
//! these is set. The location is read at every program load, so a directory set after the
//! first kernels were compiled holds the later ones. The application's directory and the
//! variable's must be absolute paths that are not something other than a directory
//! ([`check_directory`]): the application's is refused when it is set, the variable's when
//! a device is opened ([`DiskCache::check_environment`]), as the other settings are.

use crate::error::{Error, Result};
use crate::kernels::program::{HEADERS, Program};
use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment variable that overrides the cache directory.
pub const CACHE_DIRECTORY_ENV: &str = "GRCUDA_KERNEL_CACHE";

/// The directory the application set, which wins over the environment.
static SET_DIRECTORY: RwLock<Option<PathBuf>> = RwLock::new(None);

/// First bytes of every entry; the version changes with the entry layout.
const MAGIC: &[u8] = b"grcuda kernel cache entry 1\n";
const CHECKSUM_BYTES: usize = 16;

/// Refuses a directory that cannot hold the cache: a relative path would move with the
/// working directory, and something other than a directory (a file) cannot hold entries.
pub(crate) fn check_directory(directory: &Path) -> Result<()> {
    if !directory.is_absolute() {
        return Err(Error::invalid_argument(format!(
            "the kernel cache directory {} is relative: name an absolute path (a relative one would move with the \
             working directory)",
            directory.display()
        )));
    }
    if directory.exists() && !directory.is_dir() {
        return Err(Error::invalid_argument(format!(
            "the kernel cache directory {} names something that is not a directory: name a directory, or a path \
             where one can be made",
            directory.display()
        )));
    }
    Ok(())
}

/// The directory `CACHE_DIRECTORY_ENV` names, if it is set and not empty.
fn environment_directory() -> Result<Option<PathBuf>> {
    let Some(value) = std::env::var_os(CACHE_DIRECTORY_ENV).filter(|value| !value.is_empty()) else {
        return Ok(None);
    };
    let directory = PathBuf::from(value);
    check_directory(&directory).map_err(|error| {
        Error::invalid_argument(format!(
            "{CACHE_DIRECTORY_ENV}=\"{}\" is refused: {}, or unset it",
            directory.display(),
            error.message()
        ))
    })?;
    Ok(Some(directory))
}

/// What identifies one compiled program.
pub(crate) struct CacheKey {
    file_name: String,
}

impl CacheKey {
    /// `compiler` says which compiler and options produced the image ("nvrtc 13.0 --std=c++17").
    pub fn new(program: &Program, target: &str, compiler: &str) -> CacheKey {
        let mut hash = Fnv128::new();
        for part in [program.name, program.source, target, compiler] {
            hash.write_field(part.as_bytes());
        }
        for (name, text) in HEADERS {
            hash.write_field(name.as_bytes());
            hash.write_field(text.as_bytes());
        }
        let stem = program.name.trim_end_matches(".cu");
        let extension = if target.starts_with("sm_") { "cubin" } else { "ptx" };
        CacheKey { file_name: format!("{stem}-{target}-{:032x}.{extension}", hash.finish()) }
    }
}

/// A cache directory.
pub(crate) struct DiskCache {
    directory: PathBuf,
}

impl DiskCache {
    pub fn at(directory: PathBuf) -> DiskCache {
        DiskCache { directory }
    }

    /// The cache in use: the directory set with [`DiskCache::set_directory`], else the one the
    /// environment asks for, if any.
    pub fn in_use() -> Option<DiskCache> {
        let set = SET_DIRECTORY.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone();
        set.map(DiskCache::at).or_else(DiskCache::from_environment)
    }

    /// Sets the directory for the whole process; `None` goes back to the environment's.
    pub fn set_directory(directory: Option<PathBuf>) {
        *SET_DIRECTORY.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = directory;
    }

    /// Refuses a `CACHE_DIRECTORY_ENV` that cannot hold the cache, unless the application set
    /// the directory, which wins over it.
    pub fn check_environment() -> Result<()> {
        if SET_DIRECTORY.read().unwrap_or_else(|poisoned| poisoned.into_inner()).is_some() {
            return Ok(());
        }
        environment_directory().map(|_| ())
    }

    fn from_environment() -> Option<DiskCache> {
        // A refused variable (set after the device was opened, which refuses it) means no
        // cache rather than the default's: it was meant to move the cache elsewhere.
        let variable = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
        let directory = environment_directory()
            .ok()?
            .or_else(|| variable("XDG_CACHE_HOME").map(|cache| cache.join("grcuda/kernels")))
            .or_else(|| variable("HOME").map(|home| home.join(".cache/grcuda/kernels")))?;
        Some(DiskCache::at(directory))
    }

    fn path(&self, key: &CacheKey) -> PathBuf {
        self.directory.join(&key.file_name)
    }

    /// The cached image, or `None` when it is missing, unreadable, damaged or not a regular
    /// file.
    pub fn load(&self, key: &CacheKey) -> Option<Vec<u8>> {
        let entry = read_regular_file(&self.path(key))?;
        let rest = entry.strip_prefix(MAGIC)?;
        if rest.len() < CHECKSUM_BYTES {
            return None;
        }
        let (checksum, image) = rest.split_at(CHECKSUM_BYTES);
        (checksum == checksum_of(image).as_slice()).then(|| image.to_vec())
    }

    /// Stores an image. Errors are returned for the caller to report, never to fail on.
    pub fn store(&self, key: &CacheKey, image: &[u8]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.directory)?;
        let final_path = self.path(key);
        let temporary_path = self.directory.join(temporary_name(&key.file_name));
        let written = write_entry(&temporary_path, image).and_then(|()| std::fs::rename(&temporary_path, &final_path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary_path);
        }
        written
    }

    /// Removes an entry that loaded but was rejected by the driver.
    pub fn discard(&self, key: &CacheKey) {
        let _ = std::fs::remove_file(self.path(key));
    }

    pub fn directory(&self) -> &Path {
        &self.directory
    }
}

/// The contents of the regular file at `path`, or `None`. Something else there (a FIFO, whose
/// read would wait for a writer forever, a directory, a device) is said in the log, since
/// only a person can have put it there.
fn read_regular_file(path: &Path) -> Option<Vec<u8>> {
    // Opening without waiting for a FIFO's writer, then asking the open file for its type,
    // leaves no moment where another file can take the checked one's place.
    let mut file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).ok()?;
    if !file.metadata().ok()?.is_file() {
        crate::log::log(
            crate::log::Level::Warning,
            &format!(
                "the kernel cache entry {} is not a regular file: it is ignored and the kernel compiled; remove it",
                path.display()
            ),
        );
        return None;
    }
    let mut entry = Vec::new();
    file.read_to_end(&mut entry).ok()?;
    Some(entry)
}

/// A name unique to this process and call, so concurrent writers never share a file.
fn temporary_name(file_name: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let call = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!(".{file_name}.{}.{call}.tmp", std::process::id())
}

fn write_entry(path: &Path, image: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::create(path)?;
    file.write_all(MAGIC)?;
    file.write_all(&checksum_of(image))?;
    file.write_all(image)?;
    // Flushed to disk before the rename makes it visible, so a crash leaves either no entry or
    // a whole one.
    file.sync_all()
}

fn checksum_of(image: &[u8]) -> [u8; CHECKSUM_BYTES] {
    let mut hash = Fnv128::new();
    hash.write_field(image);
    hash.finish().to_le_bytes()
}

/// A 128-bit hash of `parts` that stays the same across processes and builds, for names
/// derived from contents (generated programs).
pub(crate) fn fingerprint(parts: &[&str]) -> u128 {
    let mut hash = Fnv128::new();
    for part in parts {
        hash.write_field(part.as_bytes());
    }
    hash.finish()
}

/// FNV-1a, 128 bits: stable across Rust versions and platforms (std's hashers are not
/// promised to be), and plenty to tell a few hundred cache entries apart.
struct Fnv128(u128);

impl Fnv128 {
    const OFFSET_BASIS: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013b;

    fn new() -> Fnv128 {
        Fnv128(Self::OFFSET_BASIS)
    }

    /// Hashes the length, then the bytes, so that consecutive fields cannot run together.
    fn write_field(&mut self, bytes: &[u8]) {
        for byte in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 ^= u128::from(*byte);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    fn finish(&self) -> u128 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::program::programs;

    fn scratch_directory(name: &str) -> PathBuf {
        let directory = std::env::temp_dir().join(format!("grcuda-disk-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&directory);
        directory
    }

    #[test]
    fn keys_differ_by_target_compiler_and_program() {
        let [first, second, ..] = programs() else { panic!("at least two programs") };
        let key = |program, target, compiler| CacheKey::new(program, target, compiler).file_name;
        let base = key(first, "sm_90", "nvrtc 13.0");
        assert_eq!(base, key(first, "sm_90", "nvrtc 13.0"));
        assert_ne!(base, key(first, "sm_80", "nvrtc 13.0"));
        assert_ne!(base, key(first, "sm_90", "nvrtc 13.1"));
        assert_ne!(base, key(second, "sm_90", "nvrtc 13.0"));
        assert!(base.ends_with(".cubin"));
        assert!(key(first, "compute_90", "nvrtc 13.0").ends_with(".ptx"));
    }

    #[test]
    fn stores_loads_and_rejects_damaged_entries() {
        let directory = scratch_directory("round-trip");
        let cache = DiskCache::at(directory.clone());
        let key = CacheKey::new(&programs()[0], "sm_90", "test compiler");
        assert_eq!(cache.load(&key), None);

        let image = b"\x7fELF not really a cubin".to_vec();
        cache.store(&key, &image).unwrap();
        assert_eq!(cache.load(&key), Some(image.clone()));
        let leftovers: Vec<_> = std::fs::read_dir(&directory).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(leftovers.len(), 1, "temporary files left behind: {leftovers:?}");

        let path = cache.path(&key);
        let mut entry = std::fs::read(&path).unwrap();
        *entry.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &entry).unwrap();
        assert_eq!(cache.load(&key), None, "a flipped bit must not load");

        std::fs::write(&path, &entry[..MAGIC.len() + 3]).unwrap();
        assert_eq!(cache.load(&key), None, "a truncated entry must not load");

        std::fs::write(&path, b"garbage").unwrap();
        assert_eq!(cache.load(&key), None, "garbage must not load");

        cache.store(&key, &image).unwrap();
        assert_eq!(cache.load(&key), Some(image), "a store replaces a damaged entry");
        cache.discard(&key);
        assert_eq!(cache.load(&key), None);
        std::fs::remove_dir_all(&directory).unwrap();
    }

    #[test]
    fn an_entry_that_is_not_a_regular_file_is_a_miss_without_waiting() {
        let directory = scratch_directory("not-regular");
        std::fs::create_dir_all(&directory).unwrap();
        let cache = DiskCache::at(directory.clone());
        let key = CacheKey::new(&programs()[0], "sm_90", "test compiler");
        let path = std::ffi::CString::new(cache.path(&key).into_os_string().into_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0, "mkfifo");
        // In a thread, so that a read waiting for the FIFO's writer fails the test, not hangs it.
        let (sender, receiver) = std::sync::mpsc::channel();
        let loading = DiskCache::at(directory.clone());
        let key_name = key.file_name.clone();
        std::thread::spawn(move || sender.send(loading.load(&CacheKey { file_name: key_name })).unwrap());
        let loaded = receiver.recv_timeout(std::time::Duration::from_secs(10)).expect("loading a FIFO waited");
        assert_eq!(loaded, None);
        cache.store(&key, b"image").unwrap();
        assert_eq!(cache.load(&key).as_deref(), Some(&b"image"[..]), "a store replaces the FIFO");

        std::fs::remove_file(cache.path(&key)).unwrap();
        std::fs::create_dir(cache.path(&key)).unwrap();
        assert_eq!(cache.load(&key), None, "a directory is a miss");
        std::fs::remove_dir_all(&directory).unwrap();
    }

    #[test]
    fn directories_must_be_absolute_and_not_files() {
        let file = scratch_directory("a-file");
        std::fs::write(&file, b"not a directory").unwrap();
        for (directory, refusal) in [
            (PathBuf::from("kernels"), "kernels is relative: name an absolute path"),
            (file.clone(), "names something that is not a directory"),
        ] {
            let error = check_directory(&directory).unwrap_err();
            assert!(error.message().contains(refusal), "{error}");
        }
        check_directory(&file.with_extension("to-be-made")).unwrap();
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn store_into_unwritable_place_is_an_error_not_a_panic() {
        let directory = scratch_directory("unwritable");
        std::fs::write(&directory, b"a file where the directory should be").unwrap();
        let cache = DiskCache::at(directory.join("kernels"));
        let key = CacheKey::new(&programs()[0], "sm_90", "test compiler");
        assert!(cache.store(&key, b"image").is_err());
        assert_eq!(cache.load(&key), None);
        std::fs::remove_file(&directory).unwrap();
    }
}
