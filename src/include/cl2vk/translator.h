// The translator's library API: OpenCL kernel SPIR-V in, Vulkan compute SPIR-V and its reflection
// out. A translation always passes SPIRV-Tools validation for the target environment; anything
// else is an error naming the kernel, the instruction and the reason.
//
// Modules are vectors of 32-bit words in either byte order; results come back in the input's.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "cl2vk/reflection.h"
#include "cl2vk/target.h"

namespace cl2vk {

struct Translation {
  std::vector<uint32_t> spirv;
  ModuleReflection reflection;
};

// Reads `kernelSpirv`, refuses what cl2vk does not support, checks the input against SPIR-V's core
// rules for its version, runs the whole pipeline and validates the result for target.vulkanEnv.
Expected<Translation> translate(std::span<const uint32_t> kernelSpirv, const Target& target);

// One kernel of a translated module on its own: its entry point alone, without the functions and
// global variables that only the other kernels use. A pipeline is made from this, not from the
// whole module, so that the Workgroup memory it declares is the kernel's: the validation layer
// (VUID-RuntimeSpirv-Workgroup-06530), and a driver may too, counts that over the whole module.
Expected<std::vector<uint32_t>> kernelModule(std::span<const uint32_t> translatedSpirv, const std::string& kernel);

// The passes of the pipeline, in the order translate() runs them. Each name is also a cl2vk-opt
// flag (cl2vk-opt --<name> runs that pass alone).
struct PassDescription {
  std::string name;
  std::string summary;  // one line, for --help
};
std::vector<PassDescription> passes();

// Runs the named passes in the order given, and nothing else: no check of the input or the output
// (what cl2vk-opt --<pass> does, for looking at one step of the translation). The result need not
// be valid for any environment. Fails naming the pass that failed, or an unknown name.
Expected<Translation> runPasses(std::span<const uint32_t> spirv, const std::vector<std::string>& names,
                                const Target& target);

}  // namespace cl2vk
