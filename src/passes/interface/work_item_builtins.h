// The OpenCL work-item functions (get_global_id, get_local_size, get_work_dim, the sub-group
// queries ...) reach a Kernel module as loads of Input variables with OpenCL BuiltIn decorations
// (v3ulong, ulong or uint). This part of lower-kernel-interface replaces each load with a value
// built from Vulkan's builtins, the dispatch information in the push constants and the
// work-group size specialization constants (docs/kernel-interface.md has the formulas).
#pragma once

#include <optional>
#include <unordered_map>

#include "cl2vk/expected.h"
#include "cl2vk/target.h"
#include "ir/builder.h"
#include "ir/module.h"
#include "passes/interface/word_reader.h"

namespace cl2vk {

// The Vulkan builtin Input variable for `builtin`, of type uint (or uvec3 when `vector`), created
// if missing.
uint32_t vulkanBuiltinVariable(ir::Module& module, spv::BuiltIn builtin, bool vector);

// The same for a builtin of any type (the uvec4 subgroup masks).
uint32_t builtinVariableOfType(ir::Module& module, spv::BuiltIn builtin, uint32_t type);

// The uint specialization constant with `specId` (default `defaultValue`), created if missing.
uint32_t specConstant(ir::Module& module, uint32_t specId, uint32_t defaultValue = 1);
// The WorkgroupSize-decorated composite of the work-group size specialization constants, created
// if missing. Every translated module has it: it sets the local size of each pipeline.
uint32_t workgroupSizeConstant(ir::Module& module);

// Whether loads of this OpenCL builtin need the dispatch information in the push constants.
bool builtinNeedsDispatchInfo(spv::BuiltIn builtin);

// The BuiltIn-decorated Input variables of a Kernel module (all of them are OpenCL's), with the
// builtin each stands for. Collect them before lowering adds Vulkan's own.
std::unordered_map<uint32_t, spv::BuiltIn> openclBuiltinVariables(const ir::Module& module);

// The value OpenCL's work-item functions give for a dimension index of 3 or more (1 for the sizes
// and group counts, 0 for the ids and the offset); none for a builtin that is not a vector of
// dimensions.
std::optional<uint64_t> valueBeyondTheDimensions(spv::BuiltIn builtin);

// Component `index` (a constant or a run-time id) of `vector`, the value of the dimension builtin
// `builtin`, as OpenCL's work-item functions define it: OpenCL's value beyond the dimensions for a
// constant index of 3 or more; for a run-time one, the component read only below 3.
uint32_t workItemDimension(ir::Builder& builder, spv::BuiltIn builtin, uint32_t componentType, uint32_t vector,
                           uint32_t index);

// Whether `kernel` computes the same whatever its work-groups are made of, so that it can be
// translated for free work-groups (Target::freeWorkGroups): it has no control barrier, no
// OpGroup*, OpGroupNonUniform* or OpSubgroup* instruction, no call left (after inlining only
// imported functions remain, the collectives among them), no Workgroup memory (a __local variable
// or argument) and no load of a sub-group builtin.
bool computesAlikeInAnyWorkGroups(const ir::Module& module, const ir::Function& kernel,
                                  const std::unordered_map<uint32_t, spv::BuiltIn>& builtins);

// Rewrites every load of an OpenCL builtin variable inside `kernel`. `dispatch` reads the push
// constants; it is only used for builtins that need the dispatch information, and for every
// work-group builtin of a kernel with free work-groups (`freeWorkGroups`), which are then computed
// from the global position and the enqueued local size. The sub-group builtins follow the
// target's subgroup packing (Target::subgroupsByRow).
Status lowerWorkItemBuiltins(ir::Module& module, ir::Function& kernel,
                             const std::unordered_map<uint32_t, spv::BuiltIn>& builtins, const WordReader* dispatch,
                             const Target& target, bool freeWorkGroups);

// The first thing a kernel with free work-groups does: return where its hardware invocation is
// past the global range in x (the dispatch rounds x up to whole hardware work-groups).
void returnOutsideTheRange(ir::Module& module, ir::Function& kernel, const WordReader& dispatch);

// Removes the OpenCL builtin variables once nothing loads them; any other use is an error.
Status removeOpenCLBuiltinVariables(ir::Module& module, const std::unordered_map<uint32_t, spv::BuiltIn>& builtins);

}  // namespace cl2vk
