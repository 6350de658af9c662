// lower-printf: each OpenCL.std printf becomes a record appended to the printf buffer, which the
// runtime formats on the host once the kernel is done (docs/kernel-interface.md, "printf"). A
// kernel that calls printf gets a hidden last parameter (hidden_parameters.h), the buffer's address,
// which lower-kernel-interface places after the arguments. Each call reserves its
// record's words with one atomic add, writes them when they fit and returns 0, else -1. The format
// string and %s arguments must be constant strings; they go to the reflection, not to the buffer.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerPrintf(ir::Module& module, PassContext& context);

}  // namespace cl2vk
