// SPDX-License-Identifier: GPL-3.0-or-later

//! The checked-in C header matches the Rust sources, and compiles cleanly as C11 and C++17.
//! Regenerate it with: GRCUDA_BLESS=1 cargo test --test header

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn generated_header() -> Vec<u8> {
    let config = cbindgen::Config::from_file(Path::new(ROOT).join("cbindgen.toml")).expect("cbindgen.toml");
    let mut out = Vec::new();
    cbindgen::Builder::new()
        .with_crate(ROOT)
        .with_config(config)
        .generate()
        .expect("cbindgen failed on src/ffi")
        .write(&mut out);
    out
}

#[test]
fn header_is_fresh() {
    let path = Path::new(ROOT).join("include/grcuda.h");
    let generated = generated_header();
    if std::env::var_os("GRCUDA_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
        return;
    }
    let checked_in = std::fs::read(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "include/grcuda.h is stale: regenerate it with GRCUDA_BLESS=1 cargo test --test header"
    );
}

#[test]
fn version_macros_match_cargo_toml() {
    let header = std::fs::read_to_string(Path::new(ROOT).join("include/grcuda.h")).unwrap();
    for (part, value) in ["MAJOR", "MINOR", "PATCH"].iter().zip(env!("CARGO_PKG_VERSION").split('.')) {
        let line = format!("#define GRCUDA_VERSION_{part} {value}");
        assert!(header.contains(&line), "cbindgen.toml must say `{line}` to match Cargo.toml");
    }
}

fn compile(compiler: &str, standard: &str, language: &str) {
    let out = std::env::temp_dir().join(format!("grcuda-header-{language}-{}.o", std::process::id()));
    let source = "#include \"grcuda.h\"\n#include \"grcuda.h\"\nint grcuda_header_included_twice;\n";
    let mut child = Command::new(compiler)
        .args([standard, "-Wall", "-Wextra", "-Werror", "-pedantic", "-x", language, "-c", "-", "-o"])
        .arg(&out)
        .arg("-I")
        .arg(Path::new(ROOT).join("include"))
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    use std::io::Write;
    child.stdin.take().unwrap().write_all(source.as_bytes()).unwrap();
    let status = child.wait().unwrap();
    let _ = std::fs::remove_file(&out);
    assert!(status.success(), "include/grcuda.h does not compile as {language} with {compiler} {standard}");
}

#[test]
fn header_compiles_as_c11() {
    compile("cc", "-std=c11", "c");
}

#[test]
fn header_compiles_as_cpp17() {
    compile("c++", "-std=c++17", "c++");
}
