#include "passes/environment/broadcast_first_by_lane.h"

#include "ir/builder.h"
#include "ir/types.h"
#include "passes/environment/finalize_vulkan.h"
#include "passes/interface/work_item_builtins.h"
#include "passes/lowering.h"

namespace cl2vk {

Expected<PassResult> broadcastFirstByLane(ir::Module& module, const Target& target) {
  if (target.broadcastFirstOfComputedFloats) return PassResult::kUnchanged;
  // OpGroupNonUniformBroadcast takes a lane that is not a constant from SPIR-V 1.5 on.
  spv::Op fromLane = spirvVersionFor(target.vulkanEnv) >= 0x00010500 ? spv::Op::OpGroupNonUniformBroadcast
                                                                     : spv::Op::OpGroupNonUniformShuffle;
  if (fromLane == spv::Op::OpGroupNonUniformShuffle && !target.subgroupShuffle) return PassResult::kUnchanged;
  auto wanted = [](const ir::Instruction& inst) { return inst.opcode() == spv::Op::OpGroupNonUniformBroadcastFirst; };
  return lowerInstructions(module, wanted, [fromLane](ir::Module& m, ir::Instruction& inst) -> Expected<bool> {
    ir::Builder b = ir::Builder::before(m, &inst);
    uint32_t uint = ir::typeInt(m, 32);
    uint32_t scope = inst.idOperand(0);
    uint32_t lane = b.load(uint, vulkanBuiltinVariable(m, spv::BuiltIn::SubgroupLocalInvocationId, false));
    uint32_t firstLane = b.op(spv::Op::OpGroupNonUniformBroadcastFirst, uint, {scope, lane});
    uint32_t value = b.op(fromLane, inst.typeId(), {scope, inst.idOperand(1), firstLane});
    m.replaceAllUses(inst.resultId(), value);
    CL2VK_TRY(m.remove(&inst));
    return true;
  });
}

}  // namespace cl2vk
