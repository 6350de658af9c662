# What `cmake --install` puts in place, by component, and the Debian package CPack makes of it
# (docs/install.md):
#   icd         libcl2vk_icd.so and /etc/OpenCL/vendors/cl2vk.icd naming it
#   translator  cl2vk-opt; libcl2vk.so with its headers (include/cl2vk/), a CMake package
#               (find_package(cl2vk): cl2vk::cl2vk, cl2vk::cl2vk-opt) and a pkg-config file (cl2vk.pc)
include(CMakePackageConfigHelpers)

if(TARGET cl2vk_icd)
  install(TARGETS cl2vk_icd LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT icd NAMELINK_SKIP)
  set(CL2VK_ICD_INSTALL_DIR "/etc/OpenCL/vendors" CACHE PATH "Where the installed cl2vk.icd goes")
  # The library's path is taken when installing, so that it is right under the prefix CPack
  # installs into (/usr) as well as under the configured one (/usr/local by default).
  install(CODE "
    set(library \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/$<TARGET_SONAME_FILE_NAME:cl2vk_icd>\")
    file(MAKE_DIRECTORY \"\$ENV{DESTDIR}${CL2VK_ICD_INSTALL_DIR}\")
    file(WRITE \"\$ENV{DESTDIR}${CL2VK_ICD_INSTALL_DIR}/cl2vk.icd\" \"\${library}\\n\")
    message(STATUS \"Installing: \$ENV{DESTDIR}${CL2VK_ICD_INSTALL_DIR}/cl2vk.icd (\${library})\")"
    COMPONENT icd)
endif()

install(TARGETS cl2vk cl2vk-opt EXPORT cl2vkTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT translator
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT translator)
file(GLOB public_headers "${PROJECT_SOURCE_DIR}/src/include/cl2vk/*.h")
install(FILES ${public_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cl2vk COMPONENT translator)

set(package_dir "${CMAKE_INSTALL_LIBDIR}/cmake/cl2vk")
install(EXPORT cl2vkTargets NAMESPACE cl2vk:: DESTINATION ${package_dir} COMPONENT translator)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/cl2vkConfig.cmake.in"
                              "${CMAKE_CURRENT_BINARY_DIR}/cl2vkConfig.cmake" INSTALL_DESTINATION ${package_dir})
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/cl2vkConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/cl2vkConfig.cmake" "${CMAKE_CURRENT_BINARY_DIR}/cl2vkConfigVersion.cmake"
        DESTINATION ${package_dir} COMPONENT translator)

# pkg-config's paths relative to the file (${pcfiledir}), so that the file is right wherever the
# tree is installed or unpacked.
file(RELATIVE_PATH pc_to_prefix "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file("${PROJECT_SOURCE_DIR}/cmake/cl2vk.pc.in" "${CMAKE_CURRENT_BINARY_DIR}/cl2vk.pc" @ONLY)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/cl2vk.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT translator)

# cpack -G DEB (in the build tree) makes cl2vk_<version>_<arch>.deb of both components.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cl2vk)
set(CPACK_PACKAGE_VENDOR "cl2vk")
set(CPACK_PACKAGE_CONTACT "cl2vk developers <cl2vk@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL kernels on any Vulkan device: an OpenCL ICD and a SPIR-V translator")
set(CPACK_PACKAGE_DESCRIPTION
    "cl2vk translates OpenCL SPIR-V into Vulkan compute SPIR-V, work-group and sub-group collectives \
included, and runs OpenCL programs on Vulkan devices as an OpenCL ICD. This package holds the ICD \
(with its /etc/OpenCL/vendors entry), the cl2vk-opt command, and the translator library with its \
headers, CMake package and pkg-config file.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The ICD compiles OpenCL C with clang-15 and llvm-spirv-15 and loads Vulkan; the headers include
# SPIRV-Tools' C header (spirv-tools).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libstdc++6, libvulkan1, ocl-icd-libopencl1, clang-15, llvm-spirv-15, spirv-tools")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "mesa-vulkan-drivers, ocl-icd-opencl-dev")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)
