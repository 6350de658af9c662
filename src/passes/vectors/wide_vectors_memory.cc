// lower-wide-vectors for memory accesses: loads and stores of a wide vector go part by part
// through pointers to its parts, an index into a wide vector in memory becomes the part and the
// component in it, and vloadn / vstoren of 8 or 16 become several 4-wide ones.
#include <optional>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/types.h"
#include "passes/vectors/wide_vectors_lowering.h"

namespace cl2vk::wide_vectors {

// offset * (n / 4) + k: vloadn(offset, p) reads p[offset * n + i], so part k is
// vload4(offset * n / 4 + k, p).
uint32_t WideVectorLowering::partOffset(Builder& b, uint32_t offset, uint32_t n, uint32_t k) {
  uint32_t type = module_.def(offset)->typeId();
  uint32_t scaled = b.valueOfIds(spv::Op::OpIMul, type, {offset, ir::constantBits(module_, type, n / 4)});
  return k == 0 ? scaled : b.valueOfIds(spv::Op::OpIAdd, type, {scaled, ir::constantBits(module_, type, k)});
}

Status WideVectorLowering::vectorLoad(Instruction& inst) {
  // offset, p, n
  uint32_t n = inst.wordOperand(4);
  if (!parts_.isWideType(inst.typeId()) || (n != 8 && n != 16))
    return ir::refuse(module_, inst, "expected n of 8 or 16");
  const WideType& type = parts_.wideType(inst.typeId());
  Builder b = Builder::before(module_, &inst);
  std::vector<uint32_t> parts;
  for (uint32_t k = 0; k < type.parts(); ++k) {
    uint32_t offset = partOffset(b, inst.idOperand(2), n, k);
    parts.push_back(
        b.value(spv::Op::OpExtInst, type.part,
                {inst.operand(0), inst.operand(1), Operand::id(offset), inst.operand(3), Operand::literal(4)}));
  }
  replaceByParts(inst, std::move(parts));
  return okStatus();
}

Status WideVectorLowering::vectorStore(Instruction& inst) {
  // data, offset, p, [rounding mode]
  uint32_t data = inst.idOperand(2);
  Expected<std::vector<uint32_t>> parts = parts_.partsOf(data);
  if (!parts) return parts.error().withContext(module_.describe(inst));
  uint32_t n = static_cast<uint32_t>(parts->size()) * 4;
  Builder b = Builder::before(module_, &inst);
  for (uint32_t k = 0; k < parts->size(); ++k) {
    std::vector<Operand> operands = inst.operands();
    operands[2] = Operand::id(parts->at(k));
    operands[3] = Operand::id(partOffset(b, inst.idOperand(3), n, k));
    b.add(spv::Op::OpExtInst, inst.typeId(), std::move(operands));
  }
  dead_.push_back(&inst);
  return okStatus();
}

// Loads and stores of a wide vector go part by part through pointers to the parts.
Status WideVectorLowering::load(Instruction& inst) {
  uint32_t pointer = inst.idOperand(0);
  if (!parts_.isWideType(inst.typeId()) || !parts_.pointsToWideMemory(pointer))
    return ir::refuse(module_, inst, "expected a load of a vector of 8 or 16 components");
  const WideType& type = parts_.wideType(inst.typeId());
  Builder b = Builder::before(module_, &inst);
  std::vector<uint32_t> parts;
  for (uint32_t k = 0; k < type.parts(); ++k) {
    std::vector<Operand> operands = parts_.partMemoryAccess(inst.operands(), 1, type.part);
    operands.insert(operands.begin(), Operand::id(parts_.partPointer(b, pointer, k)));
    parts.push_back(b.value(spv::Op::OpLoad, type.part, std::move(operands)));
  }
  replaceByParts(inst, std::move(parts));
  return okStatus();
}

Status WideVectorLowering::store(Instruction& inst) {
  uint32_t pointer = inst.idOperand(0), object = inst.idOperand(1);
  Expected<std::vector<uint32_t>> parts = parts_.partsOf(object);
  if (!parts) return parts.error().withContext(module_.describe(inst));
  if (!parts_.pointsToWideMemory(pointer))
    return ir::refuse(module_, inst, "expected a pointer to a vector of 8 or 16 components");
  Builder b = Builder::before(module_, &inst);
  for (uint32_t k = 0; k < parts->size(); ++k) {
    std::vector<Operand> operands = parts_.partMemoryAccess(inst.operands(), 2, ir::typeOf(module_, parts->at(k)));
    operands.insert(operands.begin(), {Operand::id(parts_.partPointer(b, pointer, k)), Operand::id(parts->at(k))});
    b.add(spv::Op::OpStore, 0, std::move(operands));
  }
  dead_.push_back(&inst);
  return okStatus();
}

// An index into a wide vector in memory, now an array of parts, becomes two indices.
Status WideVectorLowering::accessChain(Instruction& inst) {
  size_t first =
      inst.opcode() == spv::Op::OpPtrAccessChain || inst.opcode() == spv::Op::OpInBoundsPtrAccessChain ? 2 : 1;
  uint32_t type = parts_.pointee(ir::typeOf(module_, inst.idOperand(0)));
  std::vector<Operand> operands(inst.operands().begin(), inst.operands().begin() + first);
  bool changed = false;
  Builder b = Builder::before(module_, &inst);
  for (size_t i = first; i < inst.numOperands(); ++i) {
    uint32_t index = inst.idOperand(i);
    if (parts_.isMemoryType(type)) {
      auto [part, lane] = parts_.splitIndex(b, index);
      operands.push_back(Operand::id(part));
      operands.push_back(Operand::id(lane));
      type = parts_.memoryComponent(type);
      changed = true;
      continue;
    }
    operands.push_back(inst.operand(i));
    std::optional<uint64_t> constant = constantValue(module_, index);
    type = parts_.elementType(type, constant ? static_cast<uint32_t>(*constant) : 0);
  }
  if (changed) module_.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
  return okStatus();
}

}  // namespace cl2vk::wide_vectors
