// resolve-builtin-calls: calls to imported collective builtins, which llvm-spirv leaves for the
// functions it has no instruction for (_Z21work_group_reduce_andi, _Z29work_group_reduce_logical_xori,
// cl2vk's _Z28sub_group_scan_inclusive_xorj ...), become the OpGroup* instruction each stands for,
// with the scope and group operation its name says and the signedness its mangled parameter type
// says. Logical operations and votes convert OpenCL's int predicates to bool and back (1 or 0).
// Adds the Groups / GroupUniformArithmeticKHR capabilities and SPV_KHR_uniform_group_instructions
// as the new instructions need them, and removes each resolved declaration once nothing calls it.
// A collective name it cannot decode (wrong arity, unknown type) is an error naming the kernel;
// calls to other imported functions stay.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> resolveBuiltinCalls(ir::Module& module, const Target& target);

}  // namespace cl2vk
