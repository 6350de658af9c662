#include "passes/types/integer_widening.h"

#include <vector>

#include "ir/opcode_classes.h"
#include "ir/types.h"

namespace cl2vk {

using ir::Builder;
using ir::Instruction;

namespace {

// The value of a literal number of one or two words (a constant's).
uint64_t literalValue(const ir::Operand& operand) {
  uint64_t value = operand.words.at(0);
  if (operand.words.size() > 1) value |= uint64_t{operand.words[1]} << 32;
  return value;
}

uint64_t lowBits(uint32_t width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

}  // namespace

bool IntegerWidening::involves(uint32_t type) {
  const Instruction* def = type ? module_.def(type) : nullptr;
  if (!def || !ir::isTypeDeclaration(def->opcode())) return false;
  if (auto known = involves_.find(type); known != involves_.end()) return known->second;
  involves_[type] = false;  // a struct that points to itself does not recurse forever
  bool result = false;
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: result = sourceWidth(type) != 0; break;
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypeRuntimeArray: result = involves(def->idOperand(0)); break;
    case spv::Op::OpTypePointer: result = involves(def->idOperand(1)); break;
    case spv::Op::OpTypeStruct:
    case spv::Op::OpTypeFunction:
      for (size_t i = 0; i < def->numOperands(); ++i) result = result || involves(def->idOperand(i));
      break;
    default: break;
  }
  involves_[type] = result;
  return result;
}

uint32_t IntegerWidening::mapType(uint32_t type) {
  if (!involves(type)) return type;
  if (auto known = mapped_.find(type); known != mapped_.end()) return known->second;
  const Instruction* def = module_.def(type);
  // Arrays and structs are made afresh: without the explicit layout that Function and Workgroup
  // variables must not have, and apart from an equal one that carries decorations of its own.
  auto fresh = [&](spv::Op opcode, std::vector<ir::Operand> operands) {
    uint32_t id = module_.takeId();
    module_.append(ir::Section::kGlobal, Instruction(opcode, 0, id, std::move(operands)));
    return id;
  };
  uint32_t result = type;
  switch (def->opcode()) {
    case spv::Op::OpTypeArray:
      result = fresh(spv::Op::OpTypeArray,
                     {ir::Operand::id(mapType(def->idOperand(0))), ir::Operand::id(def->idOperand(1))});
      break;
    case spv::Op::OpTypeRuntimeArray:
      result = fresh(spv::Op::OpTypeRuntimeArray, {ir::Operand::id(mapType(def->idOperand(0)))});
      break;
    case spv::Op::OpTypeStruct: {
      std::vector<ir::Operand> members;
      for (size_t i = 0; i < def->numOperands(); ++i) members.push_back(ir::Operand::id(mapType(def->idOperand(i))));
      result = fresh(spv::Op::OpTypeStruct, std::move(members));
      break;
    }
    case spv::Op::OpTypeFunction: {
      std::vector<uint32_t> parameters;
      for (size_t i = 1; i < def->numOperands(); ++i) parameters.push_back(mapType(def->idOperand(i)));
      result = ir::typeFunction(module_, mapType(def->idOperand(0)), parameters);
      break;
    }
    default: result = mapNonAggregate(*def); break;
  }
  mapped_[type] = result;
  return result;
}

uint32_t IntegerWidening::originalType(uint32_t value) const {
  if (auto known = original_.find(value); known != original_.end()) return known->second;
  return ir::typeOf(module_, value);
}

uint32_t IntegerWidening::widened(uint32_t value) {
  const Instruction* def = module_.def(value);
  if (!def || def->block() || !ir::isConstantLike(def->opcode()) || !involves(def->typeId())) return value;
  if (auto known = constants_.find(value); known != constants_.end()) return known->second;
  uint32_t type = mapType(def->typeId());
  uint32_t result = value;
  switch (def->opcode()) {
    case spv::Op::OpConstant:
      // Held zero-extended, whatever high bits the writer left in the literal's words.
      result = ir::constantBits(module_, type, literalValue(def->operand(0)) & lowBits(sourceWidth(def->typeId())));
      break;
    case spv::Op::OpConstantComposite: {
      std::vector<uint32_t> parts;
      for (size_t i = 0; i < def->numOperands(); ++i) parts.push_back(widened(def->idOperand(i)));
      result = ir::constantComposite(module_, type, parts);
      break;
    }
    case spv::Op::OpConstantNull: result = ir::constantNull(module_, type); break;
    default: result = ir::undef(module_, type); break;
  }
  constants_[value] = result;
  return result;
}

Status IntegerWidening::finish(Instruction& inst, uint32_t value, uint32_t original) {
  uint32_t valueType = ir::typeOf(module_, value);
  if (valueType != original || originalType(value) != original) {
    // Only values this lowering made may remember a type of their own: a constant or an older
    // value (a char zero-extended to the uint it was converted to, an address) is shared with
    // uses that read it as what it is, so the result gets an id of its own.
    const Instruction* def = module_.def(value);
    if (!def || !def->block() || value < firstNewId_)
      value = Builder::before(module_, &inst).op(spv::Op::OpCopyObject, valueType, {value});
    if (valueType != original) original_[value] = original;
  }
  module_.replaceAllUses(inst.resultId(), value);
  return module_.remove(&inst);
}

void IntegerWidening::retype(Instruction& inst) {
  std::vector<ir::Operand> operands = inst.operands();
  for (ir::Operand& operand : operands) {
    if (operand.isId()) operand = ir::Operand::id(widened(operand.words[0]));
  }
  uint32_t type = inst.typeId() ? mapType(inst.typeId()) : 0;
  if (type != inst.typeId()) original_[inst.resultId()] = inst.typeId();
  module_.update(&inst, Instruction(inst.opcode(), type, inst.resultId(), std::move(operands)));
}

bool IntegerWidening::startInstruction(const Instruction& inst) {
  bool involved = involves(inst.typeId());
  for (const ir::Operand& operand : inst.operands())
    involved = involved || (operand.isId() && involves(originalType(operand.words[0])));
  if (involved) firstNewId_ = module_.bound();
  return involved;
}

void IntegerWidening::widenSwitch(Instruction& inst) {
  uint32_t width = sourceWidth(originalType(inst.idOperand(0)));
  module_.update(&inst, ir::switchOnWidened(inst, widened(inst.idOperand(0)), width));
}

Status IntegerWidening::removeUnusedOldTypes() {
  for (bool removed = true; removed;) {
    std::vector<Instruction*> unused;
    for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
      bool old = ir::isTypeDeclaration(inst.opcode()) ? involves(inst.resultId())
                                                      : ir::isConstantLike(inst.opcode()) && involves(inst.typeId());
      if (old && !module_.isUsed(inst.resultId())) unused.push_back(&inst);
    }
    for (auto it = unused.rbegin(); it != unused.rend(); ++it) CL2VK_TRY(module_.remove(*it));
    removed = !unused.empty();
  }
  return okStatus();
}

}  // namespace cl2vk
