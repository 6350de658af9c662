// The tools of the source compiler, clang-15 and llvm-spirv-15, and where they are found
// (source_compiler.h says where it looks).
#pragma once

#include <filesystem>

#include "cl2vk/expected.h"

namespace cl2vk::runtime {

namespace fs = std::filesystem;

struct Toolchain {
  fs::path clang;
  fs::path llvmSpirv;
};

// Both tools, or why one is missing (which tool, and how to install it).
Expected<Toolchain> findToolchain();

}  // namespace cl2vk::runtime
