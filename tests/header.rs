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

/// The names the header declares: macros, types, enum constants and functions, outside
/// comments.
fn declared_names(header: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_comment = false;
    let mut in_enum = false;
    for line in header.lines() {
        let code = line.trim();
        if in_comment || code.starts_with("/*") {
            in_comment = !code.contains("*/");
            continue;
        }
        let words: Vec<&str> =
            code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
        match words.as_slice() {
            ["define", name, ..] => names.push(name.to_string()),
            ["typedef", "struct" | "enum", name, ..] | ["struct" | "enum", name, ..]
                if !code.ends_with(';') || words[0] == "typedef" =>
            {
                names.push(name.to_string());
            }
            _ => {}
        }
        if code.starts_with("typedef enum") {
            in_enum = true;
        } else if in_enum && code.starts_with('}') {
            in_enum = false;
            names.push(words.first().map(|w| w.to_string()).unwrap_or_default());
        } else if in_enum {
            if let Some(constant) = words.first() {
                names.push(constant.to_string());
            }
        }
        if code.starts_with("typedef")
            && let Some(pointer) = code.split("(*").nth(1)
        {
            names.push(pointer.split(')').next().unwrap_or_default().to_string());
        } else if let Some(open) = code.find('(')
            && !code.starts_with('#')
            && !in_enum
            && let Some(name) = code[..open].split_whitespace().last()
        {
            names.push(name.trim_start_matches('*').to_string());
        }
    }
    names
}

#[test]
fn every_declared_name_is_prefixed() {
    let header = std::fs::read_to_string(Path::new(ROOT).join("include/grcuda.h")).unwrap();
    let names = declared_names(&header);
    assert!(names.iter().any(|n| n == "grcuda_buffer_new"), "the scan found no functions: {names:?}");
    assert!(names.iter().any(|n| n == "GRCUDA_STATUS_OK"), "the scan found no enum constants: {names:?}");
    let unprefixed: Vec<&String> =
        names.iter().filter(|n| !n.is_empty() && !n.starts_with("grcuda_") && !n.starts_with("GRCUDA_")).collect();
    assert!(unprefixed.is_empty(), "include/grcuda.h declares names without the grcuda prefix: {unprefixed:?}");
}
