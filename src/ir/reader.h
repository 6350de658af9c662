// Loading a Module from a SPIR-V binary (through SPIRV-Tools' spvBinaryParse, which types every
// operand) or from SPIR-V assembly text (through SPIRV-Tools' assembler).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "cl2vk/expected.h"
#include "ir/module.h"

namespace cl2vk::ir {

// Reads a binary module. A truncated, malformed or inconsistent binary (ids out of the bound, ids
// defined twice or never, instructions outside their section, functions or blocks left open) gives
// an error naming the instruction; so does an empty one.
Expected<std::unique_ptr<Module>> readBinary(std::span<const uint32_t> words);
// The same from raw bytes, which must be a whole number of words (either byte order).
Expected<std::unique_ptr<Module>> readBinary(std::span<const uint8_t> bytes);

// Assembles SPIR-V text and reads the result. Ids written as numbers keep their numbers. The
// module's version comes from a "; Version: 1.N" line when the text has one, else SPIR-V 1.6.
Expected<std::unique_ptr<Module>> readAssembly(std::string_view text);

// Reads either form: a binary when `bytes` start with the SPIR-V magic number (in either byte
// order) or hold a NUL byte (which text never does), else assembly text.
Expected<std::unique_ptr<Module>> readBinaryOrAssembly(std::span<const uint8_t> bytes);

}  // namespace cl2vk::ir
