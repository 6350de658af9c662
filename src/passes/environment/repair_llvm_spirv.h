// repair-llvm-spirv: puts right what llvm-spirv-15 writes against SPIR-V's rules (layout, types,
// capabilities), so that its modules pass validation; the translator runs it on its input before
// validating it (docs/frontend.md).
// - Blocks: llvm-spirv writes a block before its dominator at -O1 and above (a loop's exit before
//   the loop, an n-body kernel's float3 accumulator used "before" its definition). Every function's
//   blocks are reordered so that each reachable block follows its immediate dominator, keeping the
//   input order wherever it already does (a stable topological order of the dominator tree);
//   unreachable blocks go last, in their order.
// - Merge instructions: from loop metadata (-O1's DontUnroll, #pragma unroll) llvm-spirv writes
//   OpLoopMerge twice, or before instructions that are not the branch, and names one merge block
//   for two headers. A block keeps its first merge instruction, moved just before its branch (a
//   loop merge before OpBranch/OpBranchConditional, a selection merge before
//   OpBranchConditional/OpSwitch); the others are dropped, and so is one that names a block an
//   earlier header already names as merge or continue target, its own header as merge block, or
//   one block as both merge and continue target. They are hints in a Kernel module:
//   structurize-cfg builds its own.
// - Capabilities: for OpBitReverse llvm-spirv-15 declares Shader and Matrix in a Kernel module,
//   which holds the unstructured code to Shader's structured rules; they are replaced by
//   BitInstructions (SPV_KHR_bit_instructions), which declares the bit instructions for kernels.
// - Variables: the strings of __attribute__((annotate)) become module-scope variables in the
//   Function storage class, which only functions may hold; unused, they are removed.
// - Function variables: the temporary through which llvm-spirv-15 lowers llvm.memmove (a struct
//   copied between global buffers at -O2) is written where the memmove was, often in a loop; such
//   variables move to the start of the entry block, where SPIR-V requires every one.
// - Selects: before SPIR-V 1.4 a select of vectors takes a vector of conditions; llvm-spirv-15
//   writes a scalar one even when asked for 1.2 (a vector ternary), which is splatted.
// - Work-item dimensions: get_global_size(i) and its kin become component i of the builtin's
//   vector, which has no value for i >= 3; OpenCL's value (1 for sizes, 0 for ids and the offset)
//   is put in its place, for a constant index and, behind a bounds check, a run-time one.
// - Atomics: atomic_compare_exchange_weak becomes OpAtomicCompareExchangeWeak, which SPIR-V 1.4
//   removed and Vulkan never had; a weak exchange may fail spuriously but need not, so it is the
//   strong one with the same operands.
// - Entry points: SPIR-V 1.4 lists in an entry point's interface every variable it reaches; those
//   reached only through another variable's initializer (`global float* p = &table[2];`) are added.
// - Phis: a block that several cases of one switch branch to gets a phi entry for each case, all
//   naming the switch's block (LLVM's one entry per edge); SPIR-V allows one entry per parent, so
//   the first is kept.
// Fails only where the module refuses one of these removals (a cl2vk bug).
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> repairLlvmSpirv(ir::Module& module, const Target& target);

}  // namespace cl2vk
