// CL2VK_DUMP=<directory>: every translation the runtime makes is written there as the command
// that repeats it, so that a wrong or refused kernel can be looked at with cl2vk-opt alone:
//   <name>.cl.spv   the OpenCL SPIR-V the translator got (after clSetProgramSpecializationConstant)
//   <name>.vk.spv   the Vulkan SPIR-V it gave (where it succeeded)
//   <name>.cmd      one line: cl2vk-opt <the device's target flags> <name>.cl.spv -o <name>.vk.spv
// <name> is "cl2vk-" and a hash of the input and the flags. The command line also goes to stderr.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "cl2vk/target.h"
#include "cl2vk/translator.h"

namespace cl2vk::runtime {

// Writes the translation of `input` for `target` to CL2VK_DUMP's directory, if the variable is set.
// A directory that cannot be written gets a line on stderr; the translation's outcome is unchanged.
void dumpTranslation(std::span<const uint32_t> input, const Target& target, const Expected<Translation>& result,
                     const std::string& deviceName);

}  // namespace cl2vk::runtime
