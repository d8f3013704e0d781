// SPDX-License-Identifier: GPL-3.0-or-later

//! The CUDA kernels themselves on the CPU, for machines without a GPU (CI): a test program in
//! tests/emulated/ includes a kernel source compiled as host C++ with tests/emulated/
//! cuda_on_cpu.h (a std::thread per CUDA thread, a barrier per block), under the address and
//! undefined-behaviour sanitizers, and checks the kernels' results. This tests what the
//! simulated backend cannot, the kernels' own indexing, tiling and order of operations; the
//! GPU suite still runs them on the hardware.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The kernel source with each `extern __shared__ [__align__(N)] T name[];` declaration
/// replaced by a pointer to the emulated block's shared memory.
fn with_emulated_shared_memory(source: &str) -> String {
    source
        .lines()
        .map(|line| match line.trim_start().strip_prefix("extern __shared__ ") {
            Some(declaration) => {
                let indent = &line[..line.len() - line.trim_start().len()];
                let declaration = match declaration.strip_prefix("__align__(") {
                    Some(aligned) => aligned.split_once(") ").expect("__align__(N) T name[];").1,
                    None => declaration,
                };
                let (item_type, name) = declaration
                    .strip_suffix("[];")
                    .and_then(|d| d.rsplit_once(' '))
                    .unwrap_or_else(|| panic!("unexpected shared memory declaration: {line}"));
                format!("{indent}{item_type}* {name} = reinterpret_cast<{item_type}*>(emulated_shared_memory);\n")
            }
            None => format!("{line}\n"),
        })
        .collect()
}

/// Compiles tests/emulated/`program` with kernels/`kernel` and runs it, in a directory of its
/// own (tests run in parallel), which is removed when the program passes.
fn run_emulated(program: &str, kernel: &str) {
    let name = program.trim_end_matches(".cc");
    let directory = std::env::temp_dir().join(format!("grcuda-emulated-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&directory).unwrap();
    let source = std::fs::read_to_string(Path::new(ROOT).join("kernels").join(kernel)).unwrap();
    let rewritten = directory.join(kernel);
    std::fs::write(&rewritten, with_emulated_shared_memory(&source)).unwrap();
    let executable = directory.join(name);
    let target = "x86_64-unknown-linux-gnu";
    let compiler =
        cc::Build::new().cpp(true).target(target).host(target).opt_level(1).cargo_metadata(false).get_compiler();
    let status = compiler
        .to_command()
        .args([
            "-std=c++20",
            "-O1",
            "-g",
            "-pthread",
            "-ffp-contract=off",
            "-Wall",
            "-Wno-unused-function",
            "-Wno-unknown-pragmas",
        ])
        .args(["-fsanitize=address,undefined", "-fno-sanitize-recover=all"])
        .arg(format!("-DKERNEL_SOURCE=\"{}\"", rewritten.display()))
        .arg("-I")
        .arg(Path::new(ROOT).join("kernels"))
        .arg("-I")
        .arg(Path::new(ROOT).join("tests/emulated"))
        .arg(Path::new(ROOT).join("tests/emulated").join(program))
        .arg("-o")
        .arg(&executable)
        .status()
        .expect("running the C++ compiler");
    assert!(status.success(), "tests/emulated/{program} with kernels/{kernel} failed to compile");
    let output = Command::new(&executable).output().expect("running the emulated kernels");
    print!("{}", String::from_utf8_lossy(&output.stdout));
    eprint!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the emulated kernels failed (see the output above)");
    std::fs::remove_dir_all(&directory).unwrap();
}

#[test]
fn shared_memory_declarations_become_pointers() {
    let source =
        "    extern __shared__ __align__(16) unsigned char shared_bytes[];\n  extern __shared__ complex64 x[];\n";
    assert_eq!(
        with_emulated_shared_memory(source),
        "    unsigned char* shared_bytes = reinterpret_cast<unsigned char*>(emulated_shared_memory);\n  \
         complex64* x = reinterpret_cast<complex64*>(emulated_shared_memory);\n"
    );
}

#[test]
fn logpwrfft_spectra_match_a_dft() {
    run_emulated("logpwrfft.cc", "logpwrfft.cu");
}

#[test]
fn overlap_save_in_one_kernel_matches_the_fir_definition() {
    run_emulated("overlap_save.cc", "fir_filter.cu");
}

#[test]
fn direct_form_kernels_match_gnu_radio_and_each_other() {
    run_emulated("direct_form.cc", "fir_filter.cu");
}

#[test]
fn moving_average_kernels_match_their_definition_and_each_other() {
    run_emulated("moving_average.cc", "moving_average.cu");
}

#[test]
fn channelizer_kernels_match_the_cpu_backend_and_their_definition() {
    run_emulated("channelizer.cc", "polyphase.cu");
}
