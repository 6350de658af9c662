// lower-pointers for __local and __private pointers (Workgroup, Function, Private), which stay
// logical in Vulkan: each pointer value becomes the path it took from its variable (access chains,
// pointer arithmetic inside an array, casts through generic, phis and selects that differ only in
// the last index), every access through one gets an OpAccessChain from the variable built right
// before it, and the pointer values themselves go.
#pragma once

#include "cl2vk/expected.h"
#include "ir/module.h"

namespace cl2vk::pointers {

Status lowerLogicalPointers(ir::Module& module, ir::Function& function);

}  // namespace cl2vk::pointers
