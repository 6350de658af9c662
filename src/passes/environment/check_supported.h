// check-supported: the first pass. Finds the OpenCL constructs cl2vk cannot translate (pipes,
// device-side enqueue, function pointers, async work-group copies, and
// double or half arithmetic on a target without shaderFloat64 / shaderFloat16; from
// llvm-spirv-15 --spirv-ext=+all, floating-point atomics, integer dot products
// and integers of widths other than 8/16/32/64, docs/frontend.md) and fails with an
// error that names the kernel, the instruction and the construct, before any pass tries to
// translate around them. (A module with no kernel at all is refused before it, by the translator.)
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> checkSupported(ir::Module& module, const Target& target);

}  // namespace cl2vk
