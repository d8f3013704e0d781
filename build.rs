// SPDX-License-Identifier: GPL-3.0-or-later

//! Gives the shared library a soname that carries the C ABI version, so programs linked
//! against one ABI never load another.

fn main() {
    let abi = std::fs::read_to_string("src/ffi/status.rs")
        .ok()
        .and_then(|source| {
            source
                .lines()
                .find_map(|line| line.strip_prefix("pub const GRCUDA_ABI_VERSION: u32 = "))
                .map(|rest| rest.trim_end_matches(';').to_string())
        })
        .expect("src/ffi/status.rs must define GRCUDA_ABI_VERSION");
    println!("cargo:rerun-if-changed=src/ffi/status.rs");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libgrcuda.so.{abi}");
}
