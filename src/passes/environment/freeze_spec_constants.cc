#include "passes/environment/freeze_spec_constants.h"

#include <vector>

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;

bool isConstant(const Module& module, uint32_t id) {
  const Instruction* def = module.def(id);
  if (!def) return false;
  switch (def->opcode()) {
    case spv::Op::OpConstant:
    case spv::Op::OpConstantTrue:
    case spv::Op::OpConstantFalse:
    case spv::Op::OpConstantNull:
    case spv::Op::OpConstantComposite:
    case spv::Op::OpUndef: return true;
    default: return false;
  }
}

// The plain constant opcode `inst` becomes, or OpNop when it stays a specialization constant.
spv::Op frozen(const Module& module, const Instruction& inst) {
  switch (inst.opcode()) {
    case spv::Op::OpSpecConstant: return spv::Op::OpConstant;
    case spv::Op::OpSpecConstantTrue: return spv::Op::OpConstantTrue;
    case spv::Op::OpSpecConstantFalse: return spv::Op::OpConstantFalse;
    case spv::Op::OpSpecConstantComposite:
      for (size_t i = 0; i < inst.numOperands(); ++i) {
        if (!isConstant(module, inst.idOperand(i))) return spv::Op::OpNop;
      }
      return spv::Op::OpConstantComposite;
    default: return spv::Op::OpNop;
  }
}

}  // namespace

Expected<PassResult> freezeSpecConstants(Module& module, const Target&) {
  bool changed = false;
  // In order, so that a composite's constituents are frozen before it is looked at.
  for (Instruction& inst : module.section(ir::Section::kGlobal)) {
    spv::Op opcode = frozen(module, inst);
    if (opcode == spv::Op::OpNop) continue;
    module.update(&inst, Instruction(opcode, inst.typeId(), inst.resultId(), inst.operands()));
    changed = true;
  }
  std::vector<Instruction*> specIds;
  for (Instruction& inst : module.section(ir::Section::kAnnotation)) {
    if (inst.opcode() == spv::Op::OpDecorate && inst.wordOperand(1) == static_cast<uint32_t>(spv::Decoration::SpecId))
      specIds.push_back(&inst);
  }
  for (Instruction* decoration : specIds) CL2VK_TRY(module.remove(decoration));
  return changed || !specIds.empty() ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
