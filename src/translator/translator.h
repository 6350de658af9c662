// The translator's library API: OpenCL kernel SPIR-V in, Vulkan compute SPIR-V and its
// reflection out. The result always passes SPIRV-Tools validation for the target environment;
// anything else is an error.
#pragma once

#include <cstdint>
#include <span>
#include <string>
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

// One kernel of a translated module on its own: its entry point alone, without the functions and
// global variables that only the other kernels use. A pipeline is made from this, not from the
// whole module, so that the Workgroup memory it declares is the kernel's: the validation layer
// (VUID-RuntimeSpirv-Workgroup-06530), and a driver may too, counts that over the whole module.
Expected<std::vector<uint32_t>> kernelModule(std::span<const uint32_t> translatedSpirv, const std::string& kernel);

}  // namespace cl2vk
