// structurize-cfg: turns the unstructured control flow of OpenCL SPIR-V into the structured form
// Vulkan requires (SPIR-V 2.11): every loop gets one header with OpLoopMerge, one merge block and
// one continue target; every branch that needs one gets an OpSelectionMerge with a merge of its
// own; multi-level exits and branches into the middle of a region are routed through flag values.
// No instruction is duplicated. An irreducible CFG is refused with an error naming the function
// and a block.
#pragma once

#include "ir/module.h"
#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> structurizeControlFlow(ir::Module& module, const Target& target);

}  // namespace cl2vk
