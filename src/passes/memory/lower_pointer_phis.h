// lower-pointer-phis (Target::pointerPhis false: SwiftShader): a phi of PhysicalStorageBuffer
// pointers becomes a phi of their addresses as uvec2, each incoming pointer bit-cast at the end of
// its predecessor and the phi's value bit-cast back after the block's phis. SwiftShader 5.0 dies
// of SIGSEGV running a load through a pointer phi (the -O0 NULL-pointer kernel, the binary search
// through __global pointers) and runs the same kernels right with the address phis. Runs after
// structurize-cfg, whose SSA rebuild and loop closing make such phis too. Does nothing for other
// targets.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerPointerPhis(ir::Module& module, const Target& target);

}  // namespace cl2vk
