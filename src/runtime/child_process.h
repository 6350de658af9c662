// Child processes: how the source compiler (source_compiler.h) runs its tools.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::runtime {

namespace fs = std::filesystem;

// Runs `tool` with `arguments` in `directory` (no shell), stdin from /dev/null and stdout and
// stderr appended to `log`. Fails unless the tool exits with status 0.
Status runTool(const fs::path& tool, const std::vector<std::string>& arguments, const fs::path& directory,
               std::string& log);

}  // namespace cl2vk::runtime
