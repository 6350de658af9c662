// Finding clang-15 and llvm-spirv-15 (toolchain.h), and whether they are there (sourceCompilerAvailable).
#include "runtime/toolchain.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "runtime/source_compiler.h"
#include "support/settings.h"

namespace cl2vk::runtime {
namespace {

bool isExecutableFile(const fs::path& path) {
  struct stat status;
  return stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::optional<fs::path> findOnPath(std::string_view name) {
  const char* searchPath = std::getenv("PATH");
  if (!searchPath) return std::nullopt;
  std::string_view remaining = searchPath;
  while (true) {
    size_t colon = remaining.find(':');
    std::string_view directory = remaining.substr(0, colon);
    fs::path candidate = fs::path(directory.empty() ? "." : directory) / name;
    std::error_code ignored;
    if (isExecutableFile(candidate)) return fs::absolute(candidate, ignored);
    if (colon == std::string_view::npos) return std::nullopt;
    remaining.remove_prefix(colon + 1);
  }
}

// `variable` (an absolute path, or a name looked up on PATH) when set; else `name` on PATH; else
// `fallback`, where Debian's LLVM 15 packages put the tool.
Expected<fs::path> findTool(settings::Setting setting, std::string_view name, const fs::path& fallback) {
  const std::string variable(settings::variableOf(setting));
  if (const std::optional<std::string> chosen = settings::read(setting)) {
    std::string_view value = *chosen;
    std::error_code ignored;
    std::optional<fs::path> found = value.find('/') == std::string_view::npos
                                        ? findOnPath(value)
                                        : std::optional(fs::absolute(fs::path(value), ignored));
    if (found && isExecutableFile(*found)) return *found;
    return Error(variable + " is set to '" + *chosen + "', which is not an executable file");
  }
  if (std::optional<fs::path> found = findOnPath(name)) return *found;
  if (isExecutableFile(fallback)) return fallback;
  return Error(std::string(name) + " was not found (install Debian's clang-15 and llvm-spirv-15 packages, or set " +
               variable + ")");
}

}  // namespace

Expected<Toolchain> findToolchain() {
  Expected<fs::path> clang = findTool(settings::Setting::kClang, "clang-15", "/usr/lib/llvm-15/bin/clang");
  if (!clang) return clang.error();
  Expected<fs::path> llvmSpirv =
      findTool(settings::Setting::kLlvmSpirv, "llvm-spirv-15", "/usr/lib/llvm-15/bin/llvm-spirv");
  if (!llvmSpirv) return llvmSpirv.error();
  return Toolchain{std::move(*clang), std::move(*llvmSpirv)};
}

bool sourceCompilerAvailable(std::string* reason) {
  Expected<Toolchain> toolchain = findToolchain();
  if (!toolchain && reason != nullptr) *reason = toolchain.error().message();
  return toolchain.ok();
}

}  // namespace cl2vk::runtime
