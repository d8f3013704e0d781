# SPDX-License-Identifier: GPL-3.0-or-later

# Version check of the in-tree grcuda package: the crate's version in Cargo.toml, compatible
# under Cargo's semver rule (0.x.y and 0.x.z match, 1.x matches 1.y for y >= x).
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../Cargo.toml" PACKAGE_VERSION
  REGEX "^version = \"[0-9]+\\.[0-9]+\\.[0-9]+" LIMIT_COUNT 1)
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" PACKAGE_VERSION "${PACKAGE_VERSION}")

set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(NOT PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  string(REGEX MATCHALL "[0-9]+" _grcuda_v "${PACKAGE_VERSION}")
  list(GET _grcuda_v 0 _grcuda_major)
  list(GET _grcuda_v 1 _grcuda_minor)
  if(_grcuda_major EQUAL 0)
    if(PACKAGE_FIND_VERSION_MAJOR EQUAL 0 AND PACKAGE_FIND_VERSION_MINOR EQUAL _grcuda_minor)
      set(PACKAGE_VERSION_COMPATIBLE TRUE)
    endif()
  elseif(PACKAGE_FIND_VERSION_MAJOR EQUAL _grcuda_major)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
