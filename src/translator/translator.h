// The translator's library API: OpenCL kernel SPIR-V in, Vulkan compute SPIR-V and its
// reflection out. The result always passes SPIRV-Tools validation for the target environment;
// anything else is an error.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "passes/pass.h"
#include "passes/reflection.h"
#include "support/expected.h"

namespace cl2vk {

struct Translation {
  std::vector<uint32_t> spirv;
  ModuleReflection reflection;
};

// Reads `kernelSpirv`, refuses what cl2vk does not support, checks the input against SPIR-V's core
// rules for its version, runs the whole pipeline and validates the result for target.vulkanEnv.
Expected<Translation> translate(std::span<const uint32_t> kernelSpirv, const Target& target);

// The same on a module already in memory (changed in place); returns the reflection.
Expected<ModuleReflection> translateModule(ir::Module& module, const Target& target);

}  // namespace cl2vk
