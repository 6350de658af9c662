// Vulkan's memory model for the modules that need it (docs/decisions.md, "Device-scope
// ordering"), finalize-vulkan's step.
#pragma once

#include "ir/module.h"

namespace cl2vk {

// Whether a release or acquire orders memory at device scope: a fence or barrier with
// memory_scope_device, an atomic with an order other than relaxed at device scope (OpenCL C 2.0's
// atomics are seq_cst at device scope unless told otherwise; OpenCL 1.x's atomic_add and the like
// are relaxed). Such ordering is how work-groups hand each other data through buffers.
bool ordersMemoryAcrossWorkGroups(const ir::Module& module);

// Rewrites a module for Vulkan's memory model. Under GLSL450 a buffer that is not Coherent may be
// read through a cache other work-groups' stores do not reach, whatever the barriers say (NVIDIA's
// L1: the CTS's c11_atomics atomic_flag saw another work-group's flag cleared and then read the
// result it guarded from before), and a PhysicalStorageBuffer pointer to a scalar has no variable
// or member to decorate Coherent. Under Vulkan's, each access to buffer and workgroup memory is
// NonPrivatePointer (ordered among invocations), each release makes the writes before it available
// and each acquire the writes after it visible at its scope (MakeAvailable, MakeVisible), which is
// OpenCL's meaning of a fence; SequentiallyConsistent, which that model forbids, is AcquireRelease
// (Vulkan reads it so under GLSL450 too), and the Coherent and Volatile decorations, which it also
// forbids, go. The memory model instruction and the capabilities are the caller's.
void useVulkanMemoryModel(ir::Module& module);

}  // namespace cl2vk
