// SPDX-License-Identifier: GPL-3.0-or-later

//! The C API from C: builds tests/c/api_test.c with the C compiler the `cc` crate picks, links
//! it against the shared library cargo built, and runs it. Also checks the library exports
//! nothing but `grcuda_*` symbols.

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The directory holding the libgrcuda.so cargo built for this test run: the test binary's
/// own directory (target/<profile>/deps).
fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_path_buf()
}

/// A directory with the library under its soname (libgrcuda.so.1), as an install would have.
fn soname_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grcuda-c-api-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let soname = format!("libgrcuda.so.{}", grcuda::ffi::GRCUDA_ABI_VERSION);
    let _ = std::fs::remove_file(dir.join(&soname));
    std::os::unix::fs::symlink(library_dir().join("libgrcuda.so"), dir.join(&soname)).unwrap();
    let _ = std::fs::remove_file(dir.join("libgrcuda.so"));
    std::os::unix::fs::symlink(library_dir().join("libgrcuda.so"), dir.join("libgrcuda.so")).unwrap();
    dir
}

fn c_compiler() -> Command {
    let target = "x86_64-unknown-linux-gnu";
    cc::Build::new()
        .target(target)
        .host(target)
        .opt_level(0)
        .cargo_metadata(false)
        .warnings(true)
        .extra_warnings(true)
        .warnings_into_errors(true)
        .get_compiler()
        .to_command()
}

#[test]
fn c_program_drives_the_whole_api() {
    let libraries = soname_dir();
    let exe = libraries.join("api_test");
    let status = c_compiler()
        .args(["-std=c11", "-pedantic"])
        .arg("-I")
        .arg(Path::new(ROOT).join("include"))
        .arg(Path::new(ROOT).join("tests/c/api_test.c"))
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", libraries.display()))
        .arg(format!("-Wl,-rpath,{}", libraries.display()))
        .arg("-lgrcuda")
        .arg("-lm")
        .status()
        .expect("running the C compiler");
    assert!(status.success(), "tests/c/api_test.c failed to compile");
    let output = Command::new(&exe).output().expect("running api_test");
    print!("{}", String::from_utf8_lossy(&output.stdout));
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the C API test failed (see its output above)");
}

#[test]
fn library_exports_only_prefixed_symbols() {
    let library = library_dir().join("libgrcuda.so");
    let output =
        Command::new("nm").args(["-D", "--defined-only", "--format=posix"]).arg(&library).output().expect("nm");
    assert!(output.status.success());
    let symbols = String::from_utf8_lossy(&output.stdout);
    let exported: Vec<&str> = symbols.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(exported.contains(&"grcuda_buffer_post_work"), "exports: {exported:?}");
    let foreign: Vec<&&str> = exported.iter().filter(|s| !s.starts_with("grcuda_")).collect();
    assert!(foreign.is_empty(), "libgrcuda.so exports symbols without the grcuda_ prefix: {foreign:?}");
    let soname = Command::new("readelf").arg("-d").arg(&library).output().expect("readelf");
    let dynamic = String::from_utf8_lossy(&soname.stdout);
    let expected = format!("[libgrcuda.so.{}]", grcuda::ffi::GRCUDA_ABI_VERSION);
    assert!(dynamic.contains(&expected), "soname should be {expected}: {dynamic}");
    assert!(!dynamic.contains("libcuda"), "libcuda must be loaded at run time, not linked: {dynamic}");
}
