# The architecture's rules, checked on the source tree (docs/architecture.md gives the reasons):
#  1. the runtime, the launcher, the Vulkan executor and the tools use the translator through its
#     public API (src/include/cl2vk/) alone: none of them includes an ir/, analysis/, passes/ or
#     translator/ header;
#  2. no source file in src/ is longer than 600 lines;
#  3. every pass cl2vk-opt --help lists has tests/**/<pass_name>_test.cc (the flag with '_' for
#     '-') with at least one before/after test (test::expectPassOutput);
#  4. no source file in src/ but src/support/settings.cc reads a CL2VK_* variable (getenv).
#
#   cmake -DSOURCE_DIR=<repository> -DCL2VK_OPT=<cl2vk-opt> -P tests/architecture_test.cmake
cmake_minimum_required(VERSION 3.25)

set(violations "")

# 1. Public API only, outside the translator.
set(internal_include_regex "#[ \t]*include[ \t]+\"(ir|analysis|passes|translator)/[^\"]*\"")
foreach(folder src/runtime src/launch src/vulkan tools)
  file(GLOB_RECURSE files "${SOURCE_DIR}/${folder}/*.cc" "${SOURCE_DIR}/${folder}/*.h")
  foreach(file IN LISTS files)
    string(REPLACE "${SOURCE_DIR}/" "" relative "${file}")
    if(relative MATCHES "^tools/fuzz/")  # the fuzz target drives the passes one by one, as a test does
      continue()
    endif()
    file(STRINGS "${file}" includes REGEX "${internal_include_regex}")
    foreach(line IN LISTS includes)
      string(STRIP "${line}" line)
      string(APPEND violations "${relative}: ${line}: only src/include/cl2vk/ headers may be used here\n")
    endforeach()
  endforeach()
endforeach()

# 2. Short files.
file(GLOB_RECURSE sources "${SOURCE_DIR}/src/*.cc" "${SOURCE_DIR}/src/*.h")
foreach(file IN LISTS sources)
  file(READ "${file}" text)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines count)
  if(count GREATER 600)
    string(REPLACE "${SOURCE_DIR}/" "" relative "${file}")
    string(APPEND violations "${relative}: ${count} lines, more than 600: split it by responsibility\n")
  endif()
endforeach()

# 3. A before/after test per pass.
execute_process(COMMAND "${CL2VK_OPT}" --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${CL2VK_OPT} --help failed (${status})")
endif()
string(REGEX MATCH "\nPasses[^\n]*\n.*" pass_section "${help}")
string(REGEX MATCHALL "\n  --[a-z0-9-]+" flags "${pass_section}")
list(LENGTH flags pass_count)
if(pass_count EQUAL 0)
  message(FATAL_ERROR "cl2vk-opt --help lists no pass after its 'Passes' heading")
endif()
file(GLOB_RECURSE test_files "${SOURCE_DIR}/tests/*_test.cc")
foreach(flag IN LISTS flags)
  string(REGEX REPLACE "^\n  --" "" pass "${flag}")
  string(REPLACE "-" "_" stem "${pass}")
  set(found "")
  foreach(file IN LISTS test_files)
    get_filename_component(name "${file}" NAME)
    if(name STREQUAL "${stem}_test.cc")
      set(found "${file}")
    endif()
  endforeach()
  if(NOT found)
    string(APPEND violations "pass '${pass}': no tests/**/${stem}_test.cc\n")
    continue()
  endif()
  file(READ "${found}" text)
  if(NOT text MATCHES "expectPassOutput\\(")
    string(REPLACE "${SOURCE_DIR}/" "" relative "${found}")
    string(APPEND violations "pass '${pass}': ${relative} has no before/after test (test::expectPassOutput)\n")
  endif()
endforeach()

# 4. The settings in one place.
foreach(file IN LISTS sources)
  string(REPLACE "${SOURCE_DIR}/" "" relative "${file}")
  if(relative STREQUAL "src/support/settings.cc")
    continue()
  endif()
  file(STRINGS "${file}" reads REGEX "getenv\\(\"CL2VK_")
  foreach(line IN LISTS reads)
    string(STRIP "${line}" line)
    string(APPEND violations "${relative}: ${line}: read CL2VK_* settings through support/settings.h\n")
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "architecture rules broken:\n${violations}")
endif()
message(STATUS "architecture rules hold: ${pass_count} passes, each with a before/after test")
