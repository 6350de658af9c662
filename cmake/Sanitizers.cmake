# CL2VK_SANITIZE builds every target (compile and link) under the sanitizers it names:
#   -DCL2VK_SANITIZE=address,undefined   AddressSanitizer + UndefinedBehaviorSanitizer (CI's build)
#   -DCL2VK_SANITIZE=thread              ThreadSanitizer (CI's build-tsan/)
# Any report stops the program with a non-zero status (-fno-sanitize-recover=all, halt_on_error),
# so a test with a report fails. The tests' run-time options go into CL2VK_TEST_ENVIRONMENT.

set(CL2VK_SANITIZE "" CACHE STRING
    "Sanitizers for every target: a comma-separated subset of address, undefined, leak; or thread")

set(CL2VK_SANITIZER_DIR "${PROJECT_SOURCE_DIR}/tools/sanitizers")

# Added after the build type's flags, so they win. -O1 with line tables only halves the compile time
# of -O2 -g under ASan + UBSan (GCC 12, measured on src/passes/collectives/lower_collectives.cc: 7.7 s against
# 15.3 s; 5.2 s unsanitized), and every report still names its frames with file and line.
set(CL2VK_SANITIZE_OPTIMIZATION "-O1 -g1" CACHE STRING
    "Optimization and debug-information flags of a sanitized build (empty: the build type's)")

function(cl2vk_check_sanitizers sanitizers)
  set(known address undefined leak thread)
  foreach(sanitizer IN LISTS sanitizers)
    if(NOT sanitizer IN_LIST known)
      message(FATAL_ERROR "CL2VK_SANITIZE=${CL2VK_SANITIZE}: unknown sanitizer '${sanitizer}'; "
                          "give a comma-separated subset of: ${known} (for example address,undefined)")
    endif()
  endforeach()
  list(LENGTH sanitizers count)
  if("thread" IN_LIST sanitizers AND count GREATER 1)
    message(FATAL_ERROR "CL2VK_SANITIZE=${CL2VK_SANITIZE}: ThreadSanitizer cannot be combined with "
                        "other sanitizers; configure a separate build with CL2VK_SANITIZE=thread")
  endif()
endfunction()

# The runtime library a sanitized shared object needs loaded first when the program that loads it
# is not sanitized (clinfo loading libcl2vk_icd.so): the value for LD_PRELOAD, or "" when none.
function(cl2vk_sanitizer_runtime out sanitizers)
  set(runtime "")
  if("address" IN_LIST sanitizers)
    set(runtime libasan.so)
  elseif("thread" IN_LIST sanitizers)
    set(runtime libtsan.so)
  endif()
  if(runtime)
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${runtime}
                    OUTPUT_VARIABLE path OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${path}")
      message(FATAL_ERROR "${CMAKE_CXX_COMPILER} does not know where ${runtime} is")
    endif()
    get_filename_component(runtime "${path}" REALPATH)
  endif()
  set(${out} "${runtime}" PARENT_SCOPE)
endfunction()

set(CL2VK_SANITIZER_PRELOAD "")
if(CL2VK_SANITIZE)
  string(REPLACE "," ";" cl2vk_sanitizers "${CL2VK_SANITIZE}")
  cl2vk_check_sanitizers("${cl2vk_sanitizers}")
  set(flags -fsanitize=${CL2VK_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  separate_arguments(optimization UNIX_COMMAND "${CL2VK_SANITIZE_OPTIMIZATION}")
  add_compile_options(${flags} ${optimization})
  add_link_options(${flags})
  # GCC's manual warns that sanitizers raise the rate of false -Wmaybe-uninitialized warnings (GCC
  # 12 reports them inside libstdc++'s <regex> here); they stay warnings, not errors, in this build.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-error=maybe-uninitialized)
  endif()
  cl2vk_sanitizer_runtime(CL2VK_SANITIZER_PRELOAD "${cl2vk_sanitizers}")

  if("address" IN_LIST cl2vk_sanitizers OR "leak" IN_LIST cl2vk_sanitizers)
    list(APPEND CL2VK_TEST_ENVIRONMENT
      "ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:strict_init_order=1:check_initialization_order=1:abort_on_error=0"
      "LSAN_OPTIONS=suppressions=${CL2VK_SANITIZER_DIR}/lsan.supp:print_suppressions=0")
  endif()
  if("undefined" IN_LIST cl2vk_sanitizers)
    list(APPEND CL2VK_TEST_ENVIRONMENT "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  endif()
  if("thread" IN_LIST cl2vk_sanitizers)
    list(APPEND CL2VK_TEST_ENVIRONMENT
      "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=${CL2VK_SANITIZER_DIR}/tsan.supp")
  endif()
  message(STATUS "Sanitizers: ${CL2VK_SANITIZE} (${CL2VK_SANITIZE_OPTIMIZATION})")
endif()
