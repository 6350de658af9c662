// canonicalize-builtin-loads: every read of an OpenCL work-item builtin variable becomes the form
// lower-kernel-interface lowers, a load of the whole Input variable (and an extract of the
// component read). Generators other than llvm-spirv-15 reach the same builtins otherwise: older
// llvm-spirv declares them in the UniformConstant storage class (pyopencl's add-vectors-64.spv),
// and a component may be read through OpAccessChain or OpInBoundsPtrAccessChain, a pointer
// bitcast to the component type, or OpCopyObject of the pointer, with a constant or a run-time
// index. Runs after inline-functions, so reads in helper functions are the kernel's by then. A
// use it cannot read as a load (a store, a pointer passed to an imported function, an index past
// the vector) is an error naming the kernel and the instruction.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> canonicalizeBuiltinLoads(ir::Module& module, const Target& target);

}  // namespace cl2vk
