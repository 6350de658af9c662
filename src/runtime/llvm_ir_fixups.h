// Fix-ups of clang-15's LLVM IR text for llvm-spirv-15, made by the source compiler
// (source_compiler.h) between the two tools.
#pragma once

#include <string>
#include <string_view>

namespace cl2vk::runtime {

// llvm-spirv-15 cannot translate LLVM's `freeze` (clang-15 -O2 adds it, for one, where a division
// and a remainder share their operands). It only stops poison from spreading, which nothing after
// clang relies on, so a bitcast to the same type, which llvm-spirv translates, stands in for it.
// (clang-15 freezes scalars and vectors; a frozen aggregate, which bitcast cannot take, would fail
// in the assembly step with LLVM's message in the log.)
std::string replaceFreezeWithBitcast(std::string_view llvmIr);

}  // namespace cl2vk::runtime
