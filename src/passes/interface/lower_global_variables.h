// lower-global-variables: program-scope variables in __global memory (CrossWorkgroup OpVariables,
// OpenCL C 2.0) move to one buffer per program, laid out in the reflection with their initial
// bytes (GlobalVariablesLayout). A kernel that uses them gets a hidden last parameter
// (hidden_parameters.h), the buffer's address, which lower-kernel-interface places after the arguments;
// each variable becomes that address plus its offset. Initializers may be constants, zero, or the
// address of another such variable (plus a constant offset), which the runtime relocates.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerGlobalVariables(ir::Module& module, PassContext& context);

}  // namespace cl2vk
