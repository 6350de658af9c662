// Hidden kernel parameters: values the runtime passes to a kernel besides its arguments (the printf
// buffer, the program's global variables, the loop-limit flag, the private scratch buffer). A pass that needs one
// appends a parameter to the kernel with a reserved OpName ('.' keeps it apart from OpenCL C names);
// lower-kernel-interface lays the hidden ones out after the arguments and records their offsets instead of listing them
// as arguments.
#pragma once

#include <string>

#include "ir/module.h"

namespace cl2vk {

inline constexpr const char* kPrintfBufferName = "cl2vk.printf_buffer";
inline constexpr const char* kGlobalVariablesName = "cl2vk.global_variables";
inline constexpr const char* kLoopLimitFlagName = "cl2vk.loop_limit_flag";
// A pointer to an array of uint, the invocation's block of the private scratch buffer
// (move-private-arrays): lower-kernel-interface offsets the buffer's address by the block.
inline constexpr const char* kPrivateScratchName = "cl2vk.private_scratch";

bool isHiddenParameterName(const std::string& name);

// Appends a parameter of `type` named `name` to `kernel` (its function type changes to match) and
// returns its id.
uint32_t addHiddenParameter(ir::Module& module, ir::Function& kernel, uint32_t type, const char* name);

}  // namespace cl2vk
