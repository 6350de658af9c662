// The walking half of every lowering pass, written once: a pass names the instructions it wants
// and gives a small function that rewrites one of them with a Builder placed at it (Mesa NIR's
// nir_lower_* shape). The function may insert before or after its instruction, replace its uses
// and remove it.
#pragma once

#include <functional>
#include <unordered_map>

#include "ir/module.h"
#include "passes/pass.h"

namespace cl2vk {

// Rewrites one instruction; returns whether it changed anything, or why it cannot be lowered.
using LowerFn = std::function<Expected<bool>(ir::Module&, ir::Instruction&)>;

// Calls `lower` on every instruction inside a function body for which `wanted` is true, in
// function and block order. The instructions are gathered first, so what `lower` adds is not
// visited; `lower` must not remove a gathered instruction other than its own.
Expected<PassResult> lowerInstructions(ir::Module& module, const std::function<bool(const ir::Instruction&)>& wanted,
                                       const LowerFn& lower);

// The same, dispatching on the opcode through `table`.
Expected<PassResult> lowerByOpcode(ir::Module& module, const std::unordered_map<spv::Op, LowerFn>& table);

}  // namespace cl2vk
