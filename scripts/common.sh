# SPDX-License-Identifier: GPL-3.0-or-later

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

# Configures, builds and installs gr-module into build/prefix (its CMake builds libgrcuda with
# cargo and installs it alongside, so the prefix is self-contained). Installs GNU Radio 3.10,
# cmake and pybind11 from Debian first when they are missing.
build_gr_module() {
  need_packages gnuradio-dev cmake pybind11-dev
  echo "== gr-module: configure, build, install into build/prefix (GNU Radio $(gnuradio-config-info --version))"
  cmake -S gr-module -B build/gr-module -DCMAKE_INSTALL_PREFIX="$PWD/build/prefix" >build/gr-module.log
  cmake --build build/gr-module -j2 >>build/gr-module.log || { tail -40 build/gr-module.log; return 1; }
  cmake --install build/gr-module >>build/gr-module.log
}

# The folder of the installed gnuradio.cuda package, for PYTHONPATH.
gr_module_python_path() {
  ls -d "$PWD"/build/prefix/lib/python3*/*-packages | head -1
}
