# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash

# Sourced by the scripts in this folder: installing what they need on Debian 12.

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# Installs Debian packages that provide the missing commands: `need_commands pkg:cmd ...`.
need_commands() {
  local missing=() spec
  for spec in "$@"; do command -v "${spec#*:}" >/dev/null || missing+=("${spec%%:*}"); done
  [ ${#missing[@]} -eq 0 ] || install_packages "${missing[@]}"
}

# Installs the Debian packages given that are not installed yet: `need_packages pkg ...`.
# Silent when all are there.
need_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q " installed$" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] || install_packages "${missing[@]}"
}

# Installs Debian packages with apt: says which, shows the download and the installation
# every 10% (apt's own status lines, APT::Status-Fd) and how long it took; apt's and dpkg's
# output go to $GRCUDA_APT_LOG (default build/apt.log), whose end is shown on a failure.
install_packages() {
  local log=${GRCUDA_APT_LOG:-build/apt.log} started=$SECONDS
  mkdir -p "$(dirname "$log")"
  echo "== installing $* with apt (details in $log)"
  echo "   apt: updating the package lists"
  as_root apt-get update >>"$log" 2>&1 || { tail -20 "$log"; echo "apt-get update failed" >&2; return 1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -o APT::Status-Fd=1 "$@" 2>&1 \
    | tee -a "$log" | progress_of_apt
  [ "${PIPESTATUS[0]}" = 0 ] || { tail -20 "$log"; echo "apt-get install $* failed" >&2; return 1; }
  echo "   installed in $((SECONDS - started)) s"
}

# Reads apt's status lines ("dlstatus:<n>:<percent>:<what>", "pmstatus:<package>:<percent>:
# <what>") and prints "apt: downloading|installing N% (<what>)" each time one passes another
# 10% (a shell loop, as in progress_of_build).
progress_of_apt() {
  local kind subject percent what step last_step="" shown=0
  while IFS=: read -r kind subject percent what; do
    case $kind in
      dlstatus) step=downloading ;;
      pmstatus) step=installing ;;
      *) continue ;;
    esac
    percent=${percent%%.*}
    [[ $percent =~ ^[0-9]+$ ]] || continue
    if [ "$step" != "$last_step" ]; then last_step=$step shown=-10; fi
    if [ "$percent" -ge $((shown + 10)) ]; then
      shown=$((percent - percent % 10))
      echo "   apt: $step $percent% ($what)"
    fi
  done
}

# A fresh detached git worktree of REV at target/worktrees/NAME, leaving the working tree
# alone: `worktree=$(revision_worktree REV NAME)`; `git worktree remove --force "$worktree"`
# when done.
revision_worktree() {
  local worktree=target/worktrees/$2
  rm -rf "$worktree"; git worktree prune
  git worktree add --detach -q "$worktree" "$1"
  echo "$worktree"
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
# (A shell loop: mawk, Debian's awk, reads a pipe in blocks and would print it all at the end.)
progress_of_build() {
  local line percent shown=0
  while IFS= read -r line; do
    [[ $line =~ ^\[\ *([0-9]+)%\] ]] || continue
    percent=${BASH_REMATCH[1]}
    if [ "$percent" -ge $((shown + 10)) ]; then
      shown=$((percent - percent % 10))
      echo "   $1: $percent%"
    fi
  done
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
  python3 -m pip --version >/dev/null 2>&1 || install_packages python3-pip
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
