# Builds OpenCL C sources into OpenCL-flavoured SPIR-V with clang-15 and llvm-spirv-15, and
# assembles hand-written SPIR-V text with spirv-as, at build time.

find_program(CL2VK_CLANG NAMES clang-15 REQUIRED DOC "clang 15, the OpenCL C front end")
find_program(CL2VK_LLVM_SPIRV NAMES llvm-spirv-15 REQUIRED DOC "llvm-spirv 15 (SPIRV-LLVM-Translator)")
find_program(CL2VK_SPIRV_AS NAMES spirv-as REQUIRED DOC "SPIRV-Tools' assembler")

# The SPIR-V version llvm-spirv may emit. 1.2 is the newest SPIRV-Tools can validate as OpenCL
# (its opencl2.2 environment); later versions are checked with the universal rules only.
set(CL2VK_CORPUS_SPIRV_VERSION "1.2" CACHE STRING "Maximum SPIR-V version of the OpenCL corpus")

# LLVM's vectorizers emit intrinsics (llvm.vector.reduce.*) that llvm-spirv-15 cannot translate;
# OpenCL kernels are already written per work-item, so they are turned off, as cl2vk's runtime
# does when it compiles from source. -cl-kernel-arg-info keeps the argument names.
set(CL2VK_CLANG_FLAGS -fno-vectorize -fno-slp-vectorize -cl-kernel-arg-info)

# The extensions llvm-spirv may use: the corpus's default, and everything it knows (what
# `--spirv-ext=+all` gives; docs/frontend.md says what cl2vk does with each).
set(CL2VK_CORPUS_EXTENSIONS "+SPV_KHR_uniform_group_instructions")
set(CL2VK_ALL_EXTENSIONS "+all")

# Creates the folder `output` goes in, at configure time: Ninja creates the folders of a custom
# command's outputs, the Makefile generators do not (and the tools here do not either).
function(cl2vk_make_output_directory output)
  get_filename_component(directory "${output}" DIRECTORY)
  file(MAKE_DIRECTORY "${directory}")
endfunction()

# cl2vk_add_opencl_spirv(<source.cl> <-O0|-O1|-O2|-O3> <output.spv> [INCLUDES dirs...] [DEPENDS files...]
#                        [STD CL1.2|CL2.0|CL3.0] [SPIRV_VERSION 1.x] [EXTENSIONS +list])
function(cl2vk_add_opencl_spirv source opt output)
  cmake_parse_arguments(ARG "" "STD;SPIRV_VERSION;EXTENSIONS" "INCLUDES;DEPENDS" ${ARGN})
  if(NOT ARG_EXTENSIONS)
    set(ARG_EXTENSIONS ${CL2VK_CORPUS_EXTENSIONS})
  endif()
  if(NOT ARG_STD)
    set(ARG_STD CL2.0)
  endif()
  if(NOT ARG_SPIRV_VERSION)
    set(ARG_SPIRV_VERSION ${CL2VK_CORPUS_SPIRV_VERSION})
  endif()
  set(include_flags "")
  foreach(dir IN LISTS ARG_INCLUDES)
    list(APPEND include_flags "-I${dir}")
  endforeach()
  set(bitcode "${output}.bc")
  cl2vk_make_output_directory("${output}")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CL2VK_CLANG}" -cl-std=${ARG_STD} -target spir64 ${opt} ${CL2VK_CLANG_FLAGS} ${include_flags}
            -emit-llvm -c "${source}" -o "${bitcode}"
    COMMAND "${CL2VK_LLVM_SPIRV}" --spirv-max-version=${ARG_SPIRV_VERSION}
            --spirv-ext=${ARG_EXTENSIONS} "${bitcode}" -o "${output}"
    COMMAND "${CMAKE_COMMAND}" -E remove "${bitcode}"
    DEPENDS "${source}" ${ARG_DEPENDS}
    COMMENT "OpenCL C (${ARG_STD}) -> SPIR-V ${ARG_SPIRV_VERSION} ${opt} ${ARG_EXTENSIONS}: ${source}"
    VERBATIM)
endfunction()

# cl2vk_add_spirv_assembly(<source.spvasm> <output.spv>): SPIR-V 1.2, or the version of the
# file's "; Version: 1.N" line (which cl2vk's own assembler reads too).
function(cl2vk_add_spirv_assembly source output)
  file(STRINGS "${source}" version_line REGEX "^; Version: 1\\.[0-9]" LIMIT_COUNT 1)
  set(version 1.2)
  if(version_line)
    # (file(STRINGS) escapes the line's ';', which the list it returns would split on.)
    string(REGEX REPLACE ".*Version: (1\\.[0-9]).*" "\\1" version "${version_line}")
  endif()
  cl2vk_make_output_directory("${output}")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CL2VK_SPIRV_AS}" --preserve-numeric-ids --target-env spv${version} "${source}" -o "${output}"
    DEPENDS "${source}"
    COMMENT "SPIR-V assembly -> binary: ${source}"
    VERBATIM)
endfunction()
