// SPDX-License-Identifier: GPL-3.0-or-later

//! Writes the CUBIN image of every kernel program, compiled by NVRTC exactly as the library
//! compiles it at run time, for a GPU architecture that need not be present: the input of
//! scripts/kernel-sass, which compares the SASS of kernels between revisions on a machine
//! without a GPU.
//!
//! Run: cargo run --release --example kernel_images -- FOLDER [ARCHITECTURE]
//! (ARCHITECTURE sm_90 by default). Needs libnvrtc (scripts/common.sh's setup_nvrtc installs
//! it from PyPI); writes FOLDER/<program>.cubin, one per kernels/*.cu.

use grcuda::kernels;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let (folder, architecture) = match arguments.as_slice() {
        [folder] => (PathBuf::from(folder), "sm_90"),
        [folder, architecture] => (PathBuf::from(folder), architecture.as_str()),
        _ => {
            eprintln!("usage: kernel_images FOLDER [ARCHITECTURE, e.g. sm_90]");
            return ExitCode::from(2);
        }
    };
    if let Err(error) = std::fs::create_dir_all(&folder) {
        eprintln!("kernel_images: cannot make {}: {error}", folder.display());
        return ExitCode::FAILURE;
    }
    for program in kernels::programs() {
        let image = match kernels::compile(program, architecture) {
            Ok(image) => image,
            Err(error) => {
                eprintln!("kernel_images: {} for {architecture}: {error}", program.name);
                return ExitCode::FAILURE;
            }
        };
        let path = folder.join(program.name.replace(".cu", ".cubin"));
        if let Err(error) = std::fs::write(&path, image) {
            eprintln!("kernel_images: cannot write {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    }
    println!("{} kernel programs for {architecture} in {}", kernels::programs().len(), folder.display());
    ExitCode::SUCCESS
}
