#include "passes/instructions/full_range_division.h"

#include "ir/builder.h"
#include "ir/types.h"
#include "passes/lowering.h"

namespace cl2vk {

uint32_t fullRangeDivide(ir::Builder& b, uint32_t x, uint32_t y) {
  // Two compares rather than an absolute value: the module is still OpenCL's, without GLSL.std.450.
  uint32_t type = b.typeOf(y);
  uint32_t above = b.compare(spv::Op::OpFOrdGreaterThan, y, b.real(type, 0x1p126));
  uint32_t below = b.compare(spv::Op::OpFOrdLessThan, y, b.real(type, -0x1p126));
  uint32_t beyond = b.compare(spv::Op::OpLogicalOr, above, below);
  uint32_t scale = b.select(beyond, b.real(type, 0.25), b.real(type, 1.0));
  uint32_t scaledX = b.fmul(x, scale);
  uint32_t scaledY = b.fmul(y, scale);
  return b.fdiv(scaledX, scaledY);
}

Expected<PassResult> fullRangeDivision(ir::Module& module, const Target& target) {
  if (target.relaxedMath) return PassResult::kUnchanged;
  auto wanted = [&module](const ir::Instruction& inst) {
    if (inst.opcode() != spv::Op::OpFDiv) return false;
    const ir::Instruction* component = module.def(ir::componentType(module, inst.typeId()));
    return component && component->opcode() == spv::Op::OpTypeFloat && component->wordOperand(0) == 32;
  };
  return lowerInstructions(module, wanted, [](ir::Module& m, ir::Instruction& inst) -> Expected<bool> {
    ir::Builder b = ir::Builder::before(m, &inst);
    uint32_t quotient = fullRangeDivide(b, inst.idOperand(0), inst.idOperand(1));
    m.replaceAllUses(inst.resultId(), quotient);
    CL2VK_TRY(m.remove(&inst));
    return true;
  });
}

}  // namespace cl2vk
