#include "ir/builder.h"

#include <cassert>

namespace cl2vk::ir {

Builder Builder::before(Module& module, Instruction* position) {
  return Builder(module, Mode::kBefore, position, nullptr);
}

Builder Builder::after(Module& module, Instruction* position) {
  return Builder(module, Mode::kAfter, position, nullptr);
}

Builder Builder::atEnd(Module& module, Block& block) { return Builder(module, Mode::kAtEnd, nullptr, &block); }

Instruction* Builder::add(spv::Op opcode, uint32_t typeId, std::vector<Operand> operands) {
  assert(hasResultType(opcode) == (typeId != 0) && "result type given where the opcode has none, or missing");
  uint32_t resultId = hasResultId(opcode) ? module_.takeId() : 0;
  Instruction inst(opcode, typeId, resultId, std::move(operands));
  switch (mode_) {
    case Mode::kBefore:
      return module_.insertBefore(anchor_, std::move(inst));
    case Mode::kAfter:
      anchor_ = module_.insertAfter(anchor_, std::move(inst));
      return anchor_;
    case Mode::kAtEnd:
      return module_.append(block_->instructions(), std::move(inst));
  }
  return nullptr;
}

uint32_t Builder::value(spv::Op opcode, uint32_t typeId, std::vector<Operand> operands) {
  Instruction* inst = add(opcode, typeId, std::move(operands));
  assert(inst->resultId() != 0);
  return inst->resultId();
}

uint32_t Builder::valueOfIds(spv::Op opcode, uint32_t typeId, const std::vector<uint32_t>& ids) {
  std::vector<Operand> operands;
  operands.reserve(ids.size());
  for (uint32_t id : ids) operands.push_back(Operand::id(id));
  return value(opcode, typeId, std::move(operands));
}

}  // namespace cl2vk::ir
