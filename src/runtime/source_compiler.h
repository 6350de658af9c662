// OpenCL C to OpenCL-flavoured SPIR-V, for clCreateProgramWithSource and clCompileProgram: runs
// clang-15 (-target spir64) and llvm-spirv-15 as child processes in a private temporary directory.
//
// The build options are the ones clBuildProgram takes. -D, -I, -cl-std and the optimisation and
// math options go to clang; an option cl2vk does not know is a CL_INVALID_BUILD_OPTIONS error
// naming it. cl2vk always adds -cl-kernel-arg-info (the runtime needs argument names),
// -fno-vectorize -fno-slp-vectorize (llvm-spirv-15 cannot translate the vectorizers' reduction
// intrinsics) and the header that declares the collectives clang-15 lacks
// (spirv/include/cl2vk_collectives.h, compiled into the library). clang's front end runs at -O2
// without LLVM's passes, so that it emits C99 inline definitions, which become module-private ones
// (llvm_ir_fixups.h); a second clang run optimizes (-O2, or -O0 with -cl-opt-disable). LLVM
// `freeze` instructions, which llvm-spirv-15 cannot translate, become no-op bitcasts before
// llvm-spirv runs.
//
// The tools are found through CL2VK_CLANG and CL2VK_LLVM_SPIRV when set, else as clang-15 and
// llvm-spirv-15 on PATH, else under /usr/lib/llvm-15/bin. A missing tool is a build failure whose
// log says which tool and how to install it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::runtime {

// clBuildProgram's options, split and checked.
struct BuildOptions {
  std::vector<std::string> clangArguments;  // what goes to clang, in order
  std::string languageVersion = "CL1.2";    // -cl-std's value; OpenCL's default is the newest 1.x
  bool optimize = true;                     // false with -cl-opt-disable
  bool kernelArgInfo = false;               // -cl-kernel-arg-info was given
  // -cl-fast-relaxed-math or -cl-unsafe-math-optimizations (also passed to clang): the translator
  // may use the fast GLSL.std.450 math (Target::relaxedMath).
  bool relaxedMath = false;
  // -cl-denorms-are-zero: float denormals may flush, so no DenormPreserve is asked of the device.
  bool denormsAreZero = false;
};

// Splits `options` as a shell would (quotes, backslashes) and checks each option. The error names
// the option that is not understood ("unknown build option '-foo'"), for CL_INVALID_BUILD_OPTIONS.
Expected<BuildOptions> parseBuildOptions(std::string_view options);

// A header given to clCompileProgram: what `#include "name"` finds.
struct SourceHeader {
  std::string name;
  std::string source;
};

struct CompileRequest {
  std::string source;
  BuildOptions options;
  std::vector<SourceHeader> headers;
  // OpenCL extensions and OpenCL C 3.0 feature macros the device lacks, removed from clang's
  // defaults with -cl-ext=-<name> ("cl_khr_fp64", "__opencl_c_images").
  std::vector<std::string> disabledExtensions;
  // Extension macros defined for the source (-D<name>=1).
  std::vector<std::string> definedExtensions;
  // Macros clang defines that the device must not have, #undef'd after clang's own header.
  std::vector<std::string> undefinedMacros;
};

struct CompileResult {
  bool success = false;
  std::vector<uint32_t> spirv;  // OpenCL-flavoured SPIR-V (Kernel, Physical64), when success
  std::string log;              // clang's and llvm-spirv's diagnostics; the reason on failure
};

// Whether clang and llvm-spirv are there (CL_DEVICE_COMPILER_AVAILABLE); `reason` says what is
// missing when they are not.
bool sourceCompilerAvailable(std::string* reason = nullptr);

// Compiles `request`. Never throws; every failure (a compile error, a missing tool, a tool that
// crashed) is a result with success == false and a log that says what happened.
CompileResult compileSource(const CompileRequest& request);

}  // namespace cl2vk::runtime
