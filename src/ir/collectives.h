// Recognising the OpenCL collectives in a Kernel module: the OpGroup* instructions and the calls
// to imported builtins (mangled names such as _Z21work_group_reduce_andi) that llvm-spirv leaves
// for the functions it does not map to instructions.
#pragma once

#include <string>
#include <string_view>

#include "ir/module.h"

namespace cl2vk::ir {

// OpGroupAll/Any/Broadcast, OpGroupIAdd ... OpGroupSMax, and the SPV_KHR_uniform_group_instructions
// set (OpGroupIMulKHR ... OpGroupLogicalXorKHR).
bool isGroupCollective(spv::Op opcode);

// The plain name inside an Itanium-mangled function name ("_Z21work_group_reduce_andi" ->
// "work_group_reduce_and"), or the name unchanged when it is not mangled.
std::string_view demangledBaseName(std::string_view mangled);

// Whether a function name (mangled or not) is a work-group or sub-group collective builtin.
bool isCollectiveBuiltinName(std::string_view name);

// The name a function is linked by (its LinkageAttributes), or "" when it has none.
std::string linkageName(const Module& module, uint32_t functionId);

}  // namespace cl2vk::ir
