// finalize-vulkan: the last step of translation. Once kernels, pointers and instructions speak
// Vulkan, this sets the module-wide parts: the capabilities and extensions the module now uses
// (and nothing Kernel-only), the memory model (PhysicalStorageBuffer64 GLSL450, or Vulkan's where
// the module orders memory across work-groups and the target allows it), the SPIR-V version
// of the target environment, entry-point interfaces, execution modes and decorations Vulkan
// accepts (ContractionOff becomes NoContraction on float arithmetic), and removes globals nothing
// uses. What is still OpenCL-only (an imported function, a collective not lowered, OpenCL.std)
// is an error naming the kernel and the instruction. It also records the module's device
// requirements in the reflection.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> finalizeVulkanModule(ir::Module& module, PassContext& context);

// finalize-vulkan's check that nothing OpenCL-only is left (an imported function, a collective not
// lowered, an extended instruction set other than GLSL.std.450, a __generic pointer), naming the
// kernel and the instruction; removes the imports and declarations nothing uses, and the undefined
// initializers llvm-spirv-15 gives kernel-scope __local structs (finalize_opencl_leftovers.cc).
Status rejectWhatIsStillOpenCL(ir::Module& module);

// The SPIR-V version word a Vulkan target environment uses (vulkan1.1: 1.3, 1.2: 1.5, 1.3: 1.6).
uint32_t spirvVersionFor(spv_target_env env);

}  // namespace cl2vk
