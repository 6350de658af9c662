// promote-variables: turns Function-scope variables that are only loaded and stored as a whole
// into SSA values and phis (what LLVM calls mem2reg). clang at -O0 keeps every local, argument
// and pointer in such a variable; after this pass, pointers flow as values, which is what the
// pointer lowering needs (Vulkan cannot keep a Workgroup or Function pointer in memory).
//
// The construction is Braun et al., "Simple and Efficient Construction of Static Single
// Assignment Form" (CC 2013): values are looked up backwards through predecessors, with phis
// placed on demand and trivial phis removed, so no dominance frontiers are needed.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> promoteVariables(ir::Module& module, const Target& target);

}  // namespace cl2vk
