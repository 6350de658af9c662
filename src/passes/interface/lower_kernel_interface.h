// lower-kernel-interface: turns each OpenCL kernel into a Vulkan compute entry point with no
// parameters. Arguments arrive in the push constants (or, when they do not fit, in an argument
// buffer whose address is in the push constants): global and constant pointers as 64-bit device
// addresses, values as their bytes. __local pointer arguments become Workgroup arrays sized by
// specialization constants. The work-item functions become Vulkan builtins, specialization
// constants and the dispatch information. The layout is recorded in the reflection.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerKernelInterface(ir::Module& module, PassContext& context);

}  // namespace cl2vk
