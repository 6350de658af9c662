# The CL2VK_FUZZ build: the translator's libraries (src/ir, src/analysis, src/passes, src/translator) and the
# fuzz target in tests/fuzz/, all instrumented for libFuzzer's coverage, AddressSanitizer and
# UndefinedBehaviorSanitizer. No Vulkan, OpenCL, runtime or test suites: the build stays small
# enough for a CI pass. Included from the top-level CMakeLists.txt, which stops after it.

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "CL2VK_FUZZ needs clang's libFuzzer: configure with CC=clang-15 CXX=clang++-15")
endif()

find_path(SPIRV_HEADERS_INCLUDE_DIR spirv/unified1/spirv.hpp11 REQUIRED)

add_compile_options(-Wall -Wextra -Wpedantic)
if(CL2VK_WERROR)
  add_compile_options(-Werror)
endif()
# Coverage instrumentation everywhere; libFuzzer's main() is linked into the fuzz target alone.
# Any sanitizer report ends the run, so that libFuzzer keeps the input.
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                    -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)

include(cmake/OpcodeNames.cmake)
# The translator's builtin library (src/builtins) is OpenCL C built with clang-15 and llvm-spirv-15.
include(cmake/OpenCLCorpus.cmake)
add_subdirectory(src)
add_subdirectory(tests/fuzz)
