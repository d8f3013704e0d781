# SPDX-License-Identifier: GPL-3.0-or-later

# grcuda CMake package, in-tree mode: found through this folder
# (list(APPEND CMAKE_PREFIX_PATH <repo>/cmake) or -Dgrcuda_DIR=<repo>/cmake).
# It builds libgrcuda with cargo as part of the consumer's build, so a project that links
# grcuda::grcuda never needs a separate `cargo build` step and never links a stale library.
# The installed package (grcuda_install(), grcudaInstall.cmake) is the other way to find it.

# A second find_package() anywhere in the same build reuses the first one's build rule:
# two rules producing the same library would conflict.
if(TARGET grcuda::grcuda)
  return()
endif()

get_filename_component(_grcuda_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

find_program(GRCUDA_CARGO cargo
  HINTS "$ENV{CARGO_HOME}/bin" "$ENV{HOME}/.cargo/bin"
  DOC "cargo, used to build libgrcuda from ${_grcuda_root}")
if(NOT GRCUDA_CARGO)
  # FOUND=FALSE (not FATAL_ERROR) so that find_package(grcuda QUIET) can still fall back.
  set(grcuda_FOUND FALSE)
  string(CONCAT grcuda_NOT_FOUND_MESSAGE
    "cargo (Rust 1.85 or newer) is needed to build libgrcuda from ${_grcuda_root}, and was "
    "not found. Install it with rustup (https://rustup.rs), or set GRCUDA_CARGO to its path, "
    "or point grcuda_DIR at an installed grcuda (<prefix>/lib/cmake/grcuda).")
  return()
endif()

# The soname carries the C ABI version; build.rs reads it from the same line.
file(STRINGS "${_grcuda_root}/src/ffi/status.rs" _grcuda_abi
  REGEX "^pub const GRCUDA_ABI_VERSION: u32 = [0-9]+;")
string(REGEX MATCH "= ([0-9]+)" _grcuda_abi "${_grcuda_abi}")
if(NOT CMAKE_MATCH_1)
  message(FATAL_ERROR "grcuda: no GRCUDA_ABI_VERSION in ${_grcuda_root}/src/ffi/status.rs")
endif()
set(GRCUDA_SONAME "libgrcuda.so.${CMAKE_MATCH_1}")
# Reconfigure when the ABI version (soname) or the crate version changes.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  "${_grcuda_root}/src/ffi/status.rs" "${_grcuda_root}/Cargo.toml")

set(GRCUDA_CARGO_TARGET_DIR "${_grcuda_root}/target" CACHE PATH
  "cargo's target directory for the in-tree libgrcuda build")

# The library is copied out of cargo's folder under its soname, with the dev symlink next to
# it: programs linked against it look for libgrcuda.so.1 at run time, which cargo never
# writes, and the build RPATH CMake adds then points at this folder.
set(_grcuda_out "${CMAKE_BINARY_DIR}/grcuda")
set(_grcuda_library "${_grcuda_out}/${GRCUDA_SONAME}")

# CONFIGURE_DEPENDS: a new source file also triggers a rebuild.
file(GLOB_RECURSE _grcuda_sources CONFIGURE_DEPENDS
  "${_grcuda_root}/src/*.rs" "${_grcuda_root}/kernels/*.cu" "${_grcuda_root}/kernels/*.cuh")

add_custom_command(
  OUTPUT "${_grcuda_library}"
  BYPRODUCTS "${_grcuda_out}/libgrcuda.so"
  # CARGO_TARGET_DIR is pinned so the output is where the next command looks for it,
  # whatever the caller's environment says.
  COMMAND "${CMAKE_COMMAND}" -E env "CARGO_TARGET_DIR=${GRCUDA_CARGO_TARGET_DIR}"
          "${GRCUDA_CARGO}" build --release --locked --lib
          --manifest-path "${_grcuda_root}/Cargo.toml"
  # A plain copy (not copy_if_different) gives the output a fresh time stamp, so this rule
  # runs again only when a source changes, even when cargo finds nothing to relink.
  COMMAND "${CMAKE_COMMAND}" -E copy
          "${GRCUDA_CARGO_TARGET_DIR}/release/libgrcuda.so" "${_grcuda_library}"
  COMMAND "${CMAKE_COMMAND}" -E create_symlink "${GRCUDA_SONAME}" "${_grcuda_out}/libgrcuda.so"
  DEPENDS ${_grcuda_sources}
          "${_grcuda_root}/Cargo.toml" "${_grcuda_root}/Cargo.lock" "${_grcuda_root}/build.rs"
  WORKING_DIRECTORY "${_grcuda_root}"
  COMMENT "Building libgrcuda with cargo (release)"
  USES_TERMINAL
  VERBATIM)
add_custom_target(grcuda_cargo_build ALL DEPENDS "${_grcuda_library}")

# GLOBAL: the target (and so its build rule) must be visible from every directory of the
# consumer, not only below the one that called find_package().
add_library(grcuda::grcuda SHARED IMPORTED GLOBAL)
set_target_properties(grcuda::grcuda PROPERTIES
  IMPORTED_LOCATION "${_grcuda_library}"
  IMPORTED_SONAME "${GRCUDA_SONAME}"
  INTERFACE_INCLUDE_DIRECTORIES "${_grcuda_root}/include"
  # Read by grcuda_install(). grcuda_VERSION comes from grcudaConfigVersion.cmake.
  GRCUDA_VERSION "${grcuda_VERSION}"
  GRCUDA_PACKAGE_DIR "${CMAKE_CURRENT_LIST_DIR}")
add_dependencies(grcuda::grcuda grcuda_cargo_build)

include("${CMAKE_CURRENT_LIST_DIR}/grcudaInstall.cmake")

unset(_grcuda_abi)
unset(_grcuda_out)
unset(_grcuda_library)
unset(_grcuda_sources)
unset(_grcuda_root)
