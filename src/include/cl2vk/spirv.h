// Reading, writing, validating and describing SPIR-V modules: what the runtime and the tools need
// around the translator, on modules as vectors of 32-bit words.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk {

// A SPIR-V binary's words in the host's byte order, once the module reader has taken it: a header,
// every instruction whole, ids within the bound, defined once, in the logical layout's sections.
// Whether the module is valid SPIR-V is validate()'s question. `bytes` may be in either byte order.
Expected<std::vector<uint32_t>> readSpirvBinary(std::span<const uint8_t> bytes);

// The same for a binary or SPIR-V assembly text: a binary when `bytes` start with the SPIR-V magic
// number (in either byte order) or hold a NUL byte, which text never does. Assembly keeps numeric
// ids (%7 stays 7) and takes its SPIR-V version from a "; Version: 1.N" line, else 1.6.
Expected<std::vector<uint32_t>> readSpirvBinaryOrAssembly(std::span<const uint8_t> bytes);

// Whether `bytes` begin with SPIR-V's magic number in the other byte order than the host's: a tool
// that read such a binary writes its result back in that order with byteSwapped().
bool isByteSwappedBinary(std::span<const uint8_t> bytes);
// `words` with the bytes of every word reversed.
std::vector<uint32_t> byteSwapped(std::span<const uint32_t> words);

// SPIR-V assembly text, as spirv-dis writes it (friendly names, the header comment).
Expected<std::string> disassemble(std::span<const uint32_t> spirv);

// The environment a module is checked against: a module that still declares the Kernel capability
// is OpenCL SPIR-V (opencl2.0/2.1/2.2 for SPIR-V 1.0/1.1/1.2, the universal rules of its version
// above that); any other module is checked against `vulkanEnv`.
Expected<spv_target_env> validationEnvironment(std::span<const uint32_t> spirv, spv_target_env vulkanEnv);

// The universal environment of a SPIR-V version word (0x00010400 for SPIR-V 1.4): SPIR-V's core
// rules without a client API's profile.
spv_target_env universalEnvironment(uint32_t version);

// SPIRV-Tools' validator plus the few rules it misses that the translator relies on; the error
// carries the messages and names the environment.
Status validate(std::span<const uint32_t> spirv, spv_target_env env);

// "vulkan1.2" -> SPV_ENV_VULKAN_1_2, for the environments cl2vk targets (vulkan1.1 to vulkan1.3).
Expected<spv_target_env> parseVulkanEnvironment(std::string_view name);
// The short name SPIRV-Tools' tools use for `env` ("vulkan1.2", "opencl2.2", "spv1.4").
std::string environmentName(spv_target_env env);

// One line: "SPIR-V 1.2, 1840 words, 9 kernels, 27 collectives (OpGroupIAdd 9, ...), 3 builtin calls (...)".
Expected<std::string> describe(std::span<const uint32_t> spirv);

}  // namespace cl2vk
