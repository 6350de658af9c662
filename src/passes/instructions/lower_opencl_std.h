// lower-opencl-std: rewrites every OpExtInst of the OpenCL.std set into GLSL.std.450 instructions
// (importing that set once) and core SPIR-V, keeping OpenCL's semantics: signedness from the
// OpenCL.std instruction, NaN and special-value rules that GLSL leaves undefined, exact integer
// saturation, and vloadn/vstoren/vload_half/vstore_half as per-component pointer accesses on the
// pointer's own storage class. The OpenCL.std import goes once nothing uses it. An instruction it
// cannot lower (erf, 64-bit transcendentals, ..., and printf, which is lower-printf's) is an error
// naming it and its function.
// Where Vulkan's precision is looser than OpenCL's, docs/precision.md says so.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerOpenclStd(ir::Module& module, const Target& target);

}  // namespace cl2vk
