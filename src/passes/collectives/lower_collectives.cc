#include "passes/collectives/lower_collectives.h"

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/collectives.h"
#include "ir/types.h"
#include "passes/collectives/collective_lowering.h"

namespace cl2vk {
namespace {

using collectives::CollectiveLowering;
using ir::Block;
using ir::Function;
using ir::Instruction;
using ir::Module;

bool isAsyncCopyOrWait(spv::Op opcode) {
  return opcode == spv::Op::OpGroupAsyncCopy || opcode == spv::Op::OpGroupWaitEvents;
}

}  // namespace

namespace collectives {

std::optional<Collective> collectiveOf(spv::Op op) {
  using O = spv::Op;
  switch (op) {
    case O::OpGroupIAdd: return Collective{Combine::kIAdd, O::OpGroupNonUniformIAdd};
    case O::OpGroupFAdd: return Collective{Combine::kFAdd, O::OpGroupNonUniformFAdd};
    case O::OpGroupSMin: return Collective{Combine::kSMin, O::OpGroupNonUniformSMin};
    case O::OpGroupUMin: return Collective{Combine::kUMin, O::OpGroupNonUniformUMin};
    case O::OpGroupFMin: return Collective{Combine::kFMin, O::OpGroupNonUniformFMin};
    case O::OpGroupSMax: return Collective{Combine::kSMax, O::OpGroupNonUniformSMax};
    case O::OpGroupUMax: return Collective{Combine::kUMax, O::OpGroupNonUniformUMax};
    case O::OpGroupFMax: return Collective{Combine::kFMax, O::OpGroupNonUniformFMax};
    case O::OpGroupIMulKHR: return Collective{Combine::kIMul, O::OpGroupNonUniformIMul};
    case O::OpGroupFMulKHR: return Collective{Combine::kFMul, O::OpGroupNonUniformFMul};
    case O::OpGroupBitwiseAndKHR: return Collective{Combine::kAnd, O::OpGroupNonUniformBitwiseAnd};
    case O::OpGroupBitwiseOrKHR: return Collective{Combine::kOr, O::OpGroupNonUniformBitwiseOr};
    case O::OpGroupBitwiseXorKHR: return Collective{Combine::kXor, O::OpGroupNonUniformBitwiseXor};
    case O::OpGroupLogicalAndKHR: return Collective{Combine::kLogicalAnd, O::OpGroupNonUniformLogicalAnd};
    case O::OpGroupLogicalOrKHR: return Collective{Combine::kLogicalOr, O::OpGroupNonUniformLogicalOr};
    case O::OpGroupLogicalXorKHR: return Collective{Combine::kLogicalXor, O::OpGroupNonUniformLogicalXor};
    case O::OpGroupAll: return Collective{Combine::kLogicalAnd, O::OpGroupNonUniformAll, true};
    case O::OpGroupAny: return Collective{Combine::kLogicalOr, O::OpGroupNonUniformAny, true};
    default: return std::nullopt;
  }
}

std::optional<Collective> asBitwise(const Collective& c) {
  if (c.vote) return std::nullopt;
  switch (c.combine) {
    case Combine::kLogicalAnd: return Collective{Combine::kAnd, spv::Op::OpGroupNonUniformBitwiseAnd};
    case Combine::kLogicalOr: return Collective{Combine::kOr, spv::Op::OpGroupNonUniformBitwiseOr};
    case Combine::kLogicalXor: return Collective{Combine::kXor, spv::Op::OpGroupNonUniformBitwiseXor};
    default: return std::nullopt;
  }
}

Status CollectiveLowering::lower(Instruction* inst) {
  if (isNonUniformGroupOp(inst->opcode())) return lowerNonUniform(inst);
  std::optional<uint64_t> scope = constantValue(module_, inst->idOperand(0));
  if (isAsyncCopyOrWait(inst->opcode())) {
    if (scope != kWorkgroup) return ir::refuse(module_, *inst, "the scope must be the constant Workgroup");
    return inst->opcode() == spv::Op::OpGroupAsyncCopy ? lowerAsyncCopy(inst) : lowerWaitEvents(inst);
  }
  if (!scope || (*scope != kWorkgroup && *scope != kSubgroup))
    return ir::refuse(module_, *inst, "the scope must be the constant Workgroup or Subgroup");
  CL2VK_TRY(checkOperandTypes(*inst));
  ++stats_.collectives;
  bool inMemory = !hasSubgroupArithmeticFor(inst->typeId());
  if (*scope == kSubgroup && !inMemory) return lowerSubgroup(inst);
  return lowerWithBlocks(inst, static_cast<uint32_t>(*scope), inMemory);
}

Status CollectiveLowering::checkOperandTypes(const Instruction& inst) const {
  bool broadcast = inst.opcode() == spv::Op::OpGroupBroadcast;
  bool vote = !broadcast && collectiveOf(inst.opcode())->vote;
  uint32_t value = inst.idOperand(broadcast || vote ? 1 : 2);
  if (ir::typeOf(module_, value) != inst.typeId())
    return ir::refuse(module_, inst,
                      (broadcast ? "the value"
                       : vote    ? "the predicate"
                                 : "the operand X") +
                          std::string(" must have the result's type (SPIR-V requires it)"));
  if (broadcast) {
    uint32_t localId = ir::typeOf(module_, inst.idOperand(2));
    uint32_t components = ir::componentCount(module_, localId);
    bool integer = ir::intWidth(module_, localId) != 0 && (components == 1 || components == 2 || components == 3);
    if (!integer)
      return ir::refuse(module_, inst, "the local id must be an integer or a vector of two or three integers");
  }
  return okStatus();
}

bool CollectiveLowering::hasSubgroupArithmeticFor(uint32_t type) const {
  if (!target_.subgroupArithmetic) return false;
  uint32_t width = ir::scalarWidth(module_, type);
  bool extended = (width != 0 && width < 32) || ir::intWidth(module_, type) == 64;
  return !extended || target_.subgroupExtendedTypes;
}

}  // namespace collectives

// Events only order async copies, which are complete when they return: an event becomes a 32-bit
// integer (Vulkan has no event type), null where OpenCL's is.
void eventsBecomeIntegers(Module& module) {
  std::vector<Instruction*> events;
  for (Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpTypeEvent) events.push_back(&inst);
  }
  for (Instruction* event : events) {
    module.replaceAllUses(event->resultId(), ir::typeInt(module, 32));
    (void)module.remove(event);  // no longer used
  }
}

Expected<PassResult> lowerCollectives(Module& module, PassContext& context) {
  bool changed = false;
  for (Function& function : module.functions()) {
    std::vector<Instruction*> collectives;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (ir::isGroupCollective(inst.opcode()) || isAsyncCopyOrWait(inst.opcode()) ||
            collectives::isNonUniformGroupOp(inst.opcode()))
          collectives.push_back(&inst);
      }
    }
    if (collectives.empty()) continue;
    CollectiveLowering lowering(module, context.target, function);
    for (Instruction* inst : collectives) CL2VK_TRY(lowering.lower(inst));
    // Recorded where lower-kernel-interface has made the kernel's reflection (not when run alone).
    if (KernelReflection* kernel = context.reflection.kernel(module.functionName(function)))
      kernel->collectives = lowering.stats();
    changed = true;
  }
  eventsBecomeIntegers(module);
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
