// fold-integer-constants: scalar integer arithmetic on constants becomes its constant, and the
// identities x + 0, x - 0, x * 1, x | 0, x ^ 0 and shifts by 0 become x (x * 0 and x & 0 become 0);
// a buffer pointer step by the constant 0 with no further index becomes its base.
//
// The lowerings before it write index arithmetic on constants: vloadn's `offset * n + i` for
// every component, a wide vector's parts `index * 4 + part`. A driver folds it, but the lowerings
// after this pass do not see through it: without shaderInt64 every 64-bit multiply and add of an
// address becomes a dozen 32-bit instructions, and without 8-bit storage a byte access at an index
// that is not a constant cannot take the word it lies in directly. A `char16` built from vloads
// with constant offsets was 3 MB of SPIR-V for SwiftShader. Runs after lower-pointers, before the
// lowerings of pointer steps and integer widths.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> foldIntegerConstants(ir::Module& module, const Target& target);

}  // namespace cl2vk
