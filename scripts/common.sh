# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash

# Sourced by the scripts in this folder: installing what they need on Debian 12.

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Installs Debian packages that provide the missing commands: `need_commands pkg:cmd ...`.
need_commands() {
  local missing=() spec
  for spec in "$@"; do command -v "${spec#*:}" >/dev/null || missing+=("${spec%%:*}"); done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing ${missing[*]}"
    as_root apt-get update -qq
    as_root apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Installs the Debian packages given that are not installed yet: `need_packages pkg ...`.
need_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q " installed$" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

require_cargo() {
  if ! command -v cargo >/dev/null; then
    echo "cargo (Rust 1.85 or newer) is needed and cannot be installed by this script:" >&2
    echo "install it with rustup (https://rustup.rs), then run this again." >&2
    exit 1
  fi
}

# Configures, builds and installs gr-module into <folder>/prefix (its CMake builds libgrcuda
# with cargo and installs it alongside, so the prefix is self-contained): `build_gr_module
# [folder]`, build by default. Installs GNU Radio 3.10, cmake and pybind11 from Debian first
# when they are missing.
build_gr_module() {
  local out=${1:-build} started=$SECONDS
  local log="$out/gr-module.log"
  need_packages gnuradio-dev cmake pybind11-dev
  echo "== gr-module: configure, build, install into $out/prefix (GNU Radio $(gnuradio-config-info --version); details in $log)"
  cmake -S gr-module -B "$out/gr-module" -DCMAKE_INSTALL_PREFIX="$PWD/$out/prefix" >"$log" \
    || { tail -40 "$log"; return 1; }
  # The first build takes minutes (cargo, then the C++): show its progress every 10%.
  cmake --build "$out/gr-module" -j"$(nproc)" 2>&1 | tee -a "$log" | progress_of_build "$out/gr-module"
  [ "${PIPESTATUS[0]}" = 0 ] || { tail -40 "$log"; return 1; }
  cmake --install "$out/gr-module" >>"$log" || { tail -40 "$log"; return 1; }
  echo "   built and installed in $((SECONDS - started)) s"
}

# Reads a cmake build's output and prints "<what>: N%" each time it passes another 10%.
progress_of_build() {
  awk -v what="$1" 'match($0, /^\[ *[0-9]+%\]/) {
      percent = substr($0, RSTART + 1, RLENGTH - 3) + 0
      if (percent >= shown + 10) { shown = percent - percent % 10; printf "   %s: %d%%\n", what, percent; fflush() }
    }'
}

# The folder of the gnuradio.cuda package installed into <folder>/prefix (build by default),
# for PYTHONPATH.
gr_module_python_path() {
  ls -d "$PWD/${1:-build}"/prefix/lib/python3*/*-packages | head -1
}

# Installs NVRTC from PyPI's nvidia-cuda-nvrtc wheel into target/ (once) and points the
# library at it: it compiles every kernel for sm_90 and sm_75 without a GPU.
setup_nvrtc() {
  local nvrtc_version nvrtc_dir
  need_commands python3:python3
  if ! python3 -m pip --version >/dev/null 2>&1; then
    as_root apt-get update -qq && as_root apt-get install -y -qq python3-pip >/dev/null
  fi
  nvrtc_version=13.0.88
  nvrtc_dir=target/nvrtc-wheel-$nvrtc_version
  if [ ! -f "$nvrtc_dir/.installed" ]; then
    echo "== installing NVRTC $nvrtc_version from PyPI into $nvrtc_dir"
    rm -rf "$nvrtc_dir"
    # --target installs into the project only; the flag lets Debian's own pip do that too.
    python3 -m pip install -q --disable-pip-version-check --break-system-packages --no-deps --target "$nvrtc_dir" \
      "nvidia-cuda-nvrtc==$nvrtc_version"
    touch "$nvrtc_dir/.installed"
  fi
  export LD_LIBRARY_PATH="$PWD/$nvrtc_dir/nvidia/cu13/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export GRCUDA_REQUIRE_NVRTC=1
  export GRCUDA_KERNEL_CACHE="$PWD/target/kernel-cache"
}
