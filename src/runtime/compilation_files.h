// The files of one compilation of the source compiler (source_compiler.h): the names of the files in
// its directory, the private directory itself, and whole-file reads and writes.
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "cl2vk/expected.h"

namespace cl2vk::runtime {

namespace fs = std::filesystem;

// The files of one compilation, relative to its directory, where the tools run. The source sits
// at the top so that diagnostics read "program.cl:3:5: error: ..."; clCompileProgram's headers sit
// beside it, under their own names; cl2vk's files live in a subdirectory no header may use.
constexpr const char* kSourceName = "program.cl";
constexpr const char* kOwnDirectory = "cl2vk";
constexpr const char* kCollectivesHeader = "cl2vk/cl2vk_collectives.h";
// The #undef of what the device lacks among clang's macros (source_compiler.cc).
constexpr const char* kDeviceMacrosHeader = "cl2vk/device_macros.h";
constexpr const char* kFrontEndIr = "cl2vk/front-end.ll";
constexpr const char* kLlvmIr = "cl2vk/program.ll";
constexpr const char* kBitcode = "cl2vk/program.bc";
constexpr const char* kSpirv = "cl2vk/program.spv";
constexpr const char* kToolOutput = "cl2vk/tool-output.log";
// The files the source included, as clang's -MD writes them (compilation_cache.h).
constexpr const char* kDependencies = "cl2vk/program.d";

// The text of an errno value.
std::string errnoMessage(int error);

Status writeWholeFile(const fs::path& path, std::string_view contents);
Expected<std::string> readWholeFile(const fs::path& path);

// A private directory (mode 0700, from mkdtemp) for one compilation, removed with all it holds.
class TemporaryDirectory {
 public:
  static Expected<TemporaryDirectory> create() {
    const char* tmpdir = std::getenv("TMPDIR");
    std::error_code error;
    fs::path base = fs::absolute(tmpdir && *tmpdir ? tmpdir : "/tmp", error);
    if (error) return Error("cannot find the temporary directory: " + error.message());
    std::string pattern = (base / "cl2vk-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
      return Error("cannot create a directory like " + pattern + ": " + errnoMessage(errno));
    return TemporaryDirectory(pattern);
  }
  TemporaryDirectory(TemporaryDirectory&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  TemporaryDirectory& operator=(TemporaryDirectory&&) = delete;
  ~TemporaryDirectory() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  explicit TemporaryDirectory(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
};

}  // namespace cl2vk::runtime
