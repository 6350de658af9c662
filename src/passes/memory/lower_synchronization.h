// lower-synchronization: barriers, fences and atomics with scopes and memory semantics Vulkan
// accepts and that mean what OpenCL meant. CrossWorkgroupMemory (global memory) becomes
// UniformMemory, which covers PhysicalStorageBuffer memory in Vulkan; CrossDevice scope becomes
// Device. An atomic on global memory runs at Device scope whatever scope the front end wrote
// (llvm-spirv gives OpenCL 1.x atomic_add on a __global int Workgroup scope, which a GPU may
// implement as atomic only within one work-group). An atomic load keeps Acquire ordering at most,
// an atomic store Release, and a compare-exchange's Unequal semantics Acquire (what fails only
// loads); its Equal semantics order at least what its Unequal ones do.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerSynchronization(ir::Module& module, const Target& target);

}  // namespace cl2vk
