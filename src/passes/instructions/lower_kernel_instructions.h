// lower-kernel-instructions: core instructions that only the Kernel capability allows, or that
// Vulkan allows only for 32-bit operands, rewritten with what Shader modules have:
// OpIsFinite, OpIsNormal, OpSignBitSet, OpLessOrGreater, OpOrdered, OpUnordered (from isfinite,
// isnormal, signbit, islessgreater, isordered, isunordered), OpBitCount on 8-, 16- and 64-bit
// integers (popcount), signed division on signed types, and signed remainder and modulo, which
// Vulkan leaves undefined for negative operands, from an unsigned remainder of the magnitudes.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerKernelInstructions(ir::Module& module, const Target& target);

}  // namespace cl2vk
