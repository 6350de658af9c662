// What lower-pointers asks of pointer types and values (storage class, pointee, whether a value
// is a pointer, which instructions forward one), and the error it reports when a pointer cannot
// be expressed in Vulkan. Shared by the address-space inference, the logical-pointer rewrite and
// the pass.
#pragma once

#include <cstdint>
#include <string>

#include "cl2vk/expected.h"
#include "ir/module.h"
#include "ir/types.h"

namespace cl2vk::pointers {

using ir::Block;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;
using SC = spv::StorageClass;

Operand storageOperand(SC storage);

bool isPointerValue(const Module& module, const Instruction& inst);

using ir::pointeeOf;
using ir::storageOf;

bool isLogical(SC storage);

bool isPtrAccessChain(spv::Op op);

// Instructions whose result points where their first operand points.
bool forwardsPointer(spv::Op op);

// Whether `id` is a null pointer constant, or one cast (to or from generic, or to another
// pointee): OpenCL's NULL of every space, which converts to 0.
bool isNullPointer(const Module& module, uint32_t id);

// The error for a __local or __private pointer used by `user` in a way no rewrite covers. A call
// to a function the module only declares gets its own reason: that is what a plain C99 `inline`
// function looks like when the front end chose not to inline it (docs/clients.md, "CLBlast").
Error unsupportedPointerUse(const Module& module, const Instruction& user);

}  // namespace cl2vk::pointers
