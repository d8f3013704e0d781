# SPDX-License-Identifier: GPL-3.0-or-later

# grcuda_install([LIBRARY_DESTINATION <dir>] [INCLUDE_DESTINATION <dir>] [COMPONENT <c>])
#
# Installs the library behind grcuda::grcuda (libgrcuda.so.<ABI> and the libgrcuda.so
# symlink) into <prefix>/<LIBRARY_DESTINATION> (default lib), grcuda.h into
# <prefix>/<INCLUDE_DESTINATION> (default include), an installed grcuda package into
# <prefix>/<LIBRARY_DESTINATION>/cmake/grcuda and a pkg-config file into
# <prefix>/<LIBRARY_DESTINATION>/pkgconfig, so that the prefix is self-contained: an OOT
# module that ships grcuda with itself calls this from its own install, and the top-level
# CMakeLists.txt for C and C++ programs.
#
# It works the same whether grcuda::grcuda came from this source tree (the library cargo
# built) or from an installed package (the installed files are copied to the new prefix),
# which is why this file and the config template are installed with the package too.

function(grcuda_install)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "LIBRARY_DESTINATION;INCLUDE_DESTINATION;COMPONENT" "")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "grcuda_install: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_LIBRARY_DESTINATION)
    set(arg_LIBRARY_DESTINATION lib)
  endif()
  if(NOT arg_INCLUDE_DESTINATION)
    set(arg_INCLUDE_DESTINATION include)
  endif()
  set(component)
  if(arg_COMPONENT)
    set(component COMPONENT "${arg_COMPONENT}")
  endif()

  get_target_property(library grcuda::grcuda IMPORTED_LOCATION)
  get_target_property(GRCUDA_SONAME grcuda::grcuda IMPORTED_SONAME)
  get_target_property(include_dir grcuda::grcuda INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(version grcuda::grcuda GRCUDA_VERSION)
  # Where this file and the template are (CMAKE_CURRENT_FUNCTION_LIST_DIR needs CMake 3.17).
  get_target_property(package_dir grcuda::grcuda GRCUDA_PACKAGE_DIR)
  get_filename_component(library_dir "${library}" DIRECTORY)

  # install(FILES) copies the libgrcuda.so symlink as a symlink.
  install(FILES "${library}" "${library_dir}/libgrcuda.so"
    DESTINATION "${arg_LIBRARY_DESTINATION}" ${component})
  install(FILES "${include_dir}/grcuda.h" DESTINATION "${arg_INCLUDE_DESTINATION}" ${component})

  # The installed config finds the library and header relative to itself (relocatable).
  include(CMakePackageConfigHelpers)
  set(cmake_dir "${arg_LIBRARY_DESTINATION}/cmake/grcuda")
  set(generated "${CMAKE_CURRENT_BINARY_DIR}/grcuda-install")
  set(GRCUDA_LIBRARY_DIR "${arg_LIBRARY_DESTINATION}")
  set(GRCUDA_INCLUDE_DIR "${arg_INCLUDE_DESTINATION}")
  set(GRCUDA_VERSION "${version}")
  configure_package_config_file(
    "${package_dir}/grcudaConfig-installed.cmake.in"
    "${generated}/grcudaConfig.cmake"
    INSTALL_DESTINATION "${cmake_dir}"
    PATH_VARS GRCUDA_LIBRARY_DIR GRCUDA_INCLUDE_DIR)
  # Cargo's semver rule, as in the in-tree version file.
  if(version VERSION_LESS 1)
    set(compatibility SameMinorVersion)
  else()
    set(compatibility SameMajorVersion)
  endif()
  write_basic_package_version_file("${generated}/grcudaConfigVersion.cmake"
    VERSION "${version}" COMPATIBILITY ${compatibility})
  # pkg-config: paths relative to the file's own folder (${pcfiledir}), so the prefix can
  # move, as the CMake package can.
  file(RELATIVE_PATH pkgconfig_to_prefix "/prefix/${arg_LIBRARY_DESTINATION}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" pkgconfig_to_prefix "${pkgconfig_to_prefix}")
  string(CONCAT pkgconfig_text
    "prefix=\${pcfiledir}/${pkgconfig_to_prefix}\n"
    "libdir=\${prefix}/${arg_LIBRARY_DESTINATION}\n"
    "includedir=\${prefix}/${arg_INCLUDE_DESTINATION}\n\n"
    "Name: grcuda\n"
    "Description: CUDA buffers, event synchronisation, a block work-wrapper and kernels for GNU Radio (C ABI)\n"
    "Version: ${version}\n"
    "Libs: -L\${libdir} -lgrcuda\n"
    "Cflags: -I\${includedir}\n")
  file(WRITE "${generated}/grcuda.pc" "${pkgconfig_text}")
  install(FILES "${generated}/grcuda.pc"
    DESTINATION "${arg_LIBRARY_DESTINATION}/pkgconfig" ${component})
  install(FILES
    "${generated}/grcudaConfig.cmake" "${generated}/grcudaConfigVersion.cmake"
    "${package_dir}/grcudaInstall.cmake"
    "${package_dir}/grcudaConfig-installed.cmake.in"
    DESTINATION "${cmake_dir}" ${component})
endfunction()
