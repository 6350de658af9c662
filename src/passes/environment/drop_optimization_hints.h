// drop-optimization-hints: removes what llvm-spirv-15 writes under --spirv-ext=+all that only
// guides an optimizer, with the capabilities and extensions that declare it, so that the module
// validates and no Kernel-only or INTEL-only enumerant reaches the Vulkan module
// (docs/frontend.md has the decision for every extension llvm-spirv-15 knows):
// - the OptNoneINTEL function control (SPV_INTEL_optnone; every function at -O0);
// - OpAssumeTrueKHR, and OpExpectKHR, whose uses take its value (SPV_KHR_expect_assume);
// - OpLoopControlINTEL (SPV_INTEL_unstructured_loop_controls);
// - the alias scopes of SPV_INTEL_memory_access_aliasing: the AliasScopeINTEL / NoAliasINTEL
//   memory operands and decorations, then the OpAlias*DeclINTEL declarations;
// - the AllowContractFastINTEL / AllowReassocINTEL bits of FPFastMathMode and the
//   FPFastMathModeINTEL capability (which llvm-spirv declares without its extension).
// The translator runs it on its input before validating it. Fails only where the module refuses
// one of these removals (a cl2vk bug).
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> dropOptimizationHints(ir::Module& module, const Target& target);

}  // namespace cl2vk
