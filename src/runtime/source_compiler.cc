// OpenCL C to SPIR-V with clang-15 and llvm-spirv-15 as child processes (see source_compiler.h): the
// compilation itself. Its parts: the build options (build_options.cc), the tools (toolchain.h),
// running them (child_process.h), the files of a compilation (compilation_files.h) and the LLVM IR
// fix-ups between clang and llvm-spirv (llvm_ir_fixups.h).
#include "runtime/source_compiler.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "runtime/child_process.h"
#include "runtime/compilation_cache.h"
#include "runtime/compilation_files.h"
#include "runtime/llvm_ir_fixups.h"
#include "runtime/toolchain.h"

namespace cl2vk::runtime {
namespace {

constexpr std::string_view kEmbeddedCollectivesHeader =
#include "runtime/embedded_header.inc"
    ;

// What the device lacks, undefined after clang's default header (opencl-c-base.h), which defines
// macros whatever -cl-ext says; -U would come before it and not hold. Feature macros (__opencl_c_*)
// only in OpenCL C 3.0, whose optional features they are: clang-15 offers a builtin only while its
// macros are defined, and OpenCL C 2.0 requires what they stand for there (atomic_load's seq_cst).
//
// And __OPENCL_VERSION__, the OpenCL version of the device (CL_DEVICE_VERSION, 3.0), which OpenCL C
// says every compiler defines and clang leaves to the implementation.
std::string deviceMacros(const CompileRequest& request) {
  const bool optionalFeatures = request.options.languageVersion == "CL3.0";
  std::string text = "#ifndef __OPENCL_VERSION__\n#define __OPENCL_VERSION__ 300\n#endif\n";
  for (const std::string& name : request.undefinedMacros) {
    if (name.starts_with("__opencl_c_") && !optionalFeatures) continue;
    text += "#undef " + name + "\n";
  }
  return text;
}

// A header name must stay inside the compilation's directory and away from cl2vk's own files.
Status checkHeaderName(const std::string& name) {
  fs::path path(name);
  if (name.empty() || path.is_absolute()) {
    return Error("header name '" + name + "' is not a relative path");
  }
  for (const fs::path& component : path) {
    if (component == "..") return Error("header name '" + name + "' leaves the program's directory ('..')");
  }
  if (path.lexically_normal() == kSourceName || *path.lexically_normal().begin() == kOwnDirectory) {
    return Error("header name '" + name + "' is taken by a file cl2vk writes");
  }
  return okStatus();
}

Status writeInputs(const fs::path& directory, const CompileRequest& request) {
  std::error_code error;
  if (!fs::create_directory(directory / kOwnDirectory, error)) {
    return Error("cannot create " + (directory / kOwnDirectory).string() + ": " + error.message());
  }
  CL2VK_TRY(writeWholeFile(directory / kCollectivesHeader, kEmbeddedCollectivesHeader));
  CL2VK_TRY(writeWholeFile(directory / kDeviceMacrosHeader, deviceMacros(request)));
  CL2VK_TRY(writeWholeFile(directory / kSourceName, request.source));
  for (const SourceHeader& header : request.headers) {
    CL2VK_TRY(checkHeaderName(header.name));
    fs::path path = directory / header.name;
    fs::create_directories(path.parent_path(), error);
    if (error) return Error("cannot create " + path.parent_path().string() + ": " + error.message());
    CL2VK_TRY(writeWholeFile(path, header.source));
  }
  return okStatus();
}

// The tools run in the compilation's directory, so a relative -I (relative to where the
// application runs) is made absolute.
std::string withAbsoluteIncludeDirectory(const std::string& argument) {
  if (!argument.starts_with("-I")) return argument;
  fs::path directory = argument.substr(2);
  std::error_code error;
  fs::path absolute = fs::absolute(directory, error);
  return error ? argument : "-I" + absolute.string();
}

// The front end at -O2 without LLVM's passes: clang emits inline definitions only when optimizing,
// and keepInlineDefinitions needs them before the optimizer drops them (llvm_ir_fixups.h).
std::vector<std::string> frontEndArguments(const CompileRequest& request) {
  const BuildOptions& options = request.options;
  std::vector<std::string> arguments = {
      "-cl-std=" + options.languageVersion, "-target", "spir64", "-O2", "-Xclang", "-disable-llvm-passes",
      // Always: the runtime reflects argument names whether or not the application asked.
      "-cl-kernel-arg-info", "-include", kDeviceMacrosHeader, "-include", kCollectivesHeader, "-I.",
      // The files the source includes, for the compilation cache (compilation_cache.h).
      "-MD", "-MF", kDependencies};
  for (const std::string& argument : options.clangArguments) {
    arguments.push_back(withAbsoluteIncludeDirectory(argument));
  }
  // The clang-15 driver drops -cl-ext ("argument unused"); only the front end (-cc1) reads it.
  for (const std::string& name : request.disabledExtensions) {
    arguments.insert(arguments.end(), {"-Xclang", "-cl-ext=-" + name});
  }
  for (const std::string& name : request.definedExtensions) arguments.push_back("-D" + name + "=1");
  arguments.insert(arguments.end(), {"-emit-llvm", "-S", kSourceName, "-o", kFrontEndIr});
  return arguments;
}

// LLVM's optimizer over the front end's IR, at -O0 for -cl-opt-disable.
std::vector<std::string> optimizerArguments(const BuildOptions& options) {
  return {"-target", "spir64", options.optimize ? "-O2" : "-O0",
          // The vectorizers emit llvm.vector.reduce.* intrinsics, which llvm-spirv-15 cannot translate.
          "-fno-vectorize", "-fno-slp-vectorize", "-x", "ir", kFrontEndIr, "-emit-llvm", "-S", "-o", kLlvmIr};
}

// What the optimizer must not undo: inline definitions and sub-group calls kept apart. The
// kernels' attributes, which the optimizer keeps but llvm-spirv does not keep whole, are read here.
Status fixUpFrontEndIrInFile(const fs::path& path, KernelAttributeList& attributes) {
  Expected<std::string> llvmIr = readWholeFile(path);
  if (!llvmIr) return llvmIr.error();
  attributes = kernelAttributes(*llvmIr);
  return writeWholeFile(path, keepSubgroupCallsApart(keepInlineDefinitions(*llvmIr)));
}

// The optimizer's IR fixed for llvm-spirv-15: freeze, odd-width switches and null casts between
// named spaces (llvm_ir_fixups.h).
Status fixOptimizedIrInFile(const fs::path& path) {
  Expected<std::string> llvmIr = readWholeFile(path);
  if (!llvmIr) return llvmIr.error();
  return writeWholeFile(path,
                        foldNullCastsBetweenNamedSpaces(widenOddWidthSwitches(replaceFreezeWithBitcast(*llvmIr))));
}

Expected<std::vector<uint32_t>> readSpirvWords(const fs::path& path) {
  constexpr uint32_t kSpirvMagicNumber = 0x07230203;
  Expected<std::string> bytes = readWholeFile(path);
  if (!bytes) return bytes.error();
  if (bytes->empty() || bytes->size() % sizeof(uint32_t) != 0) {
    return Error("llvm-spirv wrote " + std::to_string(bytes->size()) + " bytes, not a whole number of SPIR-V words");
  }
  std::vector<uint32_t> words(bytes->size() / sizeof(uint32_t));
  std::memcpy(words.data(), bytes->data(), bytes->size());
  if (words[0] != kSpirvMagicNumber) return Error("llvm-spirv's output does not start with SPIR-V's magic number");
  return words;
}

// `words` with an OpString "kernel_attributes.<kernel>.<attributes>" for each kernel that has any
// (Program::kernelAttributes), first in the debug section: after the module's capabilities,
// extensions, imports, memory model, entry points and execution modes.
std::vector<uint32_t> withKernelAttributeStrings(std::vector<uint32_t> words, const KernelAttributeList& kernels) {
  constexpr size_t kHeaderWords = 5;
  constexpr uint32_t kOpString = 7;
  constexpr uint32_t kBoundWord = 3;
  const std::vector<uint32_t> kBeforeDebug = {17, 10, 11, 14, 15, 16, 331};  // OpCapability ... OpExecutionModeId
  size_t at = kHeaderWords;
  while (at < words.size() && (words[at] >> 16) != 0 &&
         std::find(kBeforeDebug.begin(), kBeforeDebug.end(), words[at] & 0xFFFF) != kBeforeDebug.end()) {
    at += words[at] >> 16;
  }
  std::vector<uint32_t> strings;
  for (const auto& [kernel, attributes] : kernels) {
    std::string text = "kernel_attributes." + kernel + "." + attributes;
    std::vector<uint32_t> literal(text.size() / 4 + 1, 0);  // nul-terminated, zero-padded
    std::memcpy(literal.data(), text.data(), text.size());
    strings.push_back(static_cast<uint32_t>(2 + literal.size()) << 16 | kOpString);
    strings.push_back(words[kBoundWord]++);
    strings.insert(strings.end(), literal.begin(), literal.end());
  }
  words.insert(words.begin() + static_cast<ptrdiff_t>(std::min(at, words.size())), strings.begin(), strings.end());
  return words;
}

Expected<std::vector<uint32_t>> compileIn(const fs::path& directory, const CompileRequest& request,
                                          const Toolchain& tools, std::string& log,
                                          std::vector<fs::path>& dependencies) {
  CL2VK_TRY(writeInputs(directory, request));
  CL2VK_TRY(runTool(tools.clang, frontEndArguments(request), directory, log));
  if (Expected<std::string> rule = readWholeFile(directory / kDependencies)) {
    dependencies = dependenciesFrom(*rule, directory, directory);
  }
  KernelAttributeList attributes;
  CL2VK_TRY(fixUpFrontEndIrInFile(directory / kFrontEndIr, attributes));
  CL2VK_TRY(runTool(tools.clang, optimizerArguments(request.options), directory, log));
  CL2VK_TRY(fixOptimizedIrInFile(directory / kLlvmIr));
  // Text IR back to bitcode for llvm-spirv; -disable-llvm-passes: assemble only, optimise nothing.
  CL2VK_TRY(runTool(
      tools.clang,
      {"-target", "spir64", "-Xclang", "-disable-llvm-passes", "-c", "-emit-llvm", "-x", "ir", kLlvmIr, "-o", kBitcode},
      directory, log));
  CL2VK_TRY(runTool(tools.llvmSpirv,
                    // The OpenCL C type names and qualifiers of the arguments, for clGetKernelArgInfo,
                    // travel as OpString "kernel_arg_type.<kernel>.<types>". llvm-spirv writes the
                    // lowest version a module needs: 1.3 only for the cl_khr_subgroup_* functions
                    // (OpGroupNonUniform*), which it cannot write at 1.2 (it asserts). The integers of
                    // odd widths that LLVM's narrowing makes (i2, i4, i24 ...) are written as such
                    // (SPV_INTEL_arbitrary_precision_integers) for the translator to widen.
                    {"--spirv-max-version=1.3",
                     "--spirv-ext=+SPV_KHR_uniform_group_instructions,+SPV_KHR_subgroup_rotate,"
                     "+SPV_INTEL_arbitrary_precision_integers",
                     "--preserve-ocl-kernel-arg-type-metadata-through-string", kBitcode, "-o", kSpirv},
                    directory, log));
  Expected<std::vector<uint32_t>> words = readSpirvWords(directory / kSpirv);
  if (!words) return words.error();
  return withKernelAttributeStrings(std::move(*words), attributes);
}

// Everything that decides a compilation's output but the files it includes from disk
// (compilation_cache.h).
std::string compilationKey(const CompileRequest& request, const Toolchain& tools) {
  std::string key = "cl2vk " + fileIdentity(libraryPath()) + '\n' + fileIdentity(tools.clang) + '\n' +
                    fileIdentity(tools.llvmSpirv) + '\n';
  for (const std::string& argument : frontEndArguments(request)) key += argument + '\0';
  key += '\n';
  for (const std::string& argument : optimizerArguments(request.options)) key += argument + '\0';
  key += '\n' + deviceMacros(request) + '\n' + std::to_string(request.source.size()) + '\n' + request.source;
  for (const SourceHeader& header : request.headers) {
    key += '\n' + header.name + '\0' + std::to_string(header.source.size()) + '\n' + header.source;
  }
  return key;
}

Expected<std::vector<uint32_t>> compileToSpirv(const CompileRequest& request, std::string& log) {
  Expected<Toolchain> tools = findToolchain();
  if (!tools) return tools.error();
  std::optional<CompilationCache> cache = CompilationCache::open();
  std::string key = cache ? compilationKey(request, *tools) : std::string();
  if (cache) {
    if (std::optional<CachedCompilation> found = cache->find(key)) {
      log += found->log;
      return std::move(found->spirv);
    }
  }
  Expected<TemporaryDirectory> directory = TemporaryDirectory::create();
  if (!directory) return directory.error();
  std::vector<fs::path> dependencies;
  std::string ownLog;
  Expected<std::vector<uint32_t>> words = compileIn(directory->path(), request, *tools, ownLog, dependencies);
  log += ownLog;
  if (words && cache) cache->store(key, dependencies, CachedCompilation{*words, ownLog});
  return words;
}

}  // namespace

CompileResult compileSource(const CompileRequest& request) {
  CompileResult result;
  Expected<std::vector<uint32_t>> spirv = compileToSpirv(request, result.log);
  if (spirv) {
    result.success = true;
    result.spirv = std::move(*spirv);
  } else {
    if (!result.log.empty() && !result.log.ends_with('\n')) result.log += '\n';
    result.log += "cl2vk: cannot compile OpenCL C: " + spirv.error().message() + "\n";
  }
  return result;
}

}  // namespace cl2vk::runtime
