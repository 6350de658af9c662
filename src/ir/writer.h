// Writing a Module out: as a binary (bit-identical to the input for an unmodified module) or as
// SPIR-V assembly text through SPIRV-Tools' disassembler.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "ir/module.h"

namespace cl2vk::ir {

// The module's words, in the byte order it was read in.
std::vector<uint32_t> writeBinary(const Module& module);

struct TextOptions {
  bool friendlyNames = true;  // %uint, %k ... instead of %7, as spirv-dis prints by default
  bool header = true;         // the "; SPIR-V" comment lines with version, generator and bound
};

// Disassembles the module. Fails only for a module that SPIRV-Tools cannot parse (for example one
// a pass left with an opcode its grammar does not know).
Expected<std::string> writeAssembly(const Module& module, TextOptions options = {});
Expected<std::string> disassemble(const std::vector<uint32_t>& words, TextOptions options = {});

}  // namespace cl2vk::ir
