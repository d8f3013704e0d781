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
