// OpenCL C compilations kept on disk, as NVIDIA's OpenCL and PoCL keep theirs: building a program
// runs clang three times and llvm-spirv once (about 100 ms for a small kernel), and most
// applications build the same sources every time they start. An entry holds the OpenCL SPIR-V and
// the compiler's log of one successful compilation, under a key made of everything that decides
// them: the source, the headers given to clCompileProgram, the tools' arguments (build options,
// the device's extensions and macros), the identity of clang, llvm-spirv and the cl2vk library
// (path, size, modification time), and the files the source included from disk, each checked by
// size and modification time when the entry is used. Failed compilations are not kept.
//
// CL2VK_CACHE names the directory (default $XDG_CACHE_HOME/cl2vk, else ~/.cache/cl2vk); `off`
// turns the cache off. Entries are written to a temporary file and renamed, so processes may share
// the directory; past kCacheBytes the least recently used entries go (docs/runtime.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cl2vk::runtime {

namespace fs = std::filesystem;

inline constexpr uint64_t kCacheBytes = 256ull << 20;

struct CachedCompilation {
  std::vector<uint32_t> spirv;
  std::string log;
};

class CompilationCache {
 public:
  // The cache CL2VK_CACHE names, or nullopt where it is off or there is no home directory.
  static std::optional<CompilationCache> open();
  explicit CompilationCache(fs::path directory) : directory_(std::move(directory)) {}

  // The compilation stored under `key` whose included files are unchanged, or nullopt.
  std::optional<CachedCompilation> find(const std::string& key) const;
  // Stores `compilation` under `key`, with the files it included (`dependencies`, absolute). A
  // cache that cannot be written is left alone: the compilation has succeeded anyway.
  void store(const std::string& key, const std::vector<fs::path>& dependencies,
             const CachedCompilation& compilation) const;

  const fs::path& directory() const { return directory_; }

 private:
  fs::path entryPath(const std::string& key) const;

  fs::path directory_;
};

// When the files under `directory` hold more than `limit` bytes, the least recently used (written
// or found) go until three quarters of `limit` remain. The cache does this at its first store in a
// process, with kCacheBytes.
void trimCache(const fs::path& directory, uint64_t limit);

// The file of the library this code is linked into (the ICD), for the key: a rebuilt cl2vk may
// compile differently.
fs::path libraryPath();

// What identifies a file for the key: its path, size and modification time ("" where it cannot be
// read).
std::string fileIdentity(const fs::path& path);

// The files a make-style dependency file (clang's -MD output) lists, those under `excluded` (the
// compilation's own directory, whose files are in the key by content) left out, made absolute
// against `base`.
std::vector<fs::path> dependenciesFrom(const std::string& makeRule, const fs::path& base, const fs::path& excluded);

}  // namespace cl2vk::runtime
