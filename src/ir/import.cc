#include "ir/import.h"

#include "ir/capabilities.h"

namespace cl2vk::ir {
namespace {

// Types the destination must declare a capability for before it holds them.
void requireWidthCapability(Module& into, const Instruction& type) {
  if (type.opcode() != spv::Op::OpTypeInt && type.opcode() != spv::Op::OpTypeFloat) return;
  bool isFloat = type.opcode() == spv::Op::OpTypeFloat;
  switch (type.wordOperand(0)) {
    case 8: requireCapability(into, spv::Capability::Int8); break;
    case 16: requireCapability(into, isFloat ? spv::Capability::Float16 : spv::Capability::Int16); break;
    case 64: requireCapability(into, isFloat ? spv::Capability::Float64 : spv::Capability::Int64); break;
    default: break;
  }
}

}  // namespace

Expected<uint32_t> FunctionImporter::mapped(uint32_t id) {
  if (auto it = ids_.find(id); it != ids_.end()) return it->second;
  const Instruction* def = from_.def(id);
  if (!def) return Error("importing a function: %" + std::to_string(id) + " is not defined");
  if (from_.function(id)) return import(id);
  if (def->opcode() == spv::Op::OpExtInstImport) {
    std::string set = def->stringOperand(0);
    for (Instruction& existing : into_.section(Section::kExtInstImport)) {
      if (existing.stringOperand(0) == set) return ids_[id] = existing.resultId();
    }
    uint32_t intoId = into_.takeId();
    into_.append(Section::kExtInstImport, Instruction(spv::Op::OpExtInstImport, 0, intoId, def->operands()));
    return ids_[id] = intoId;
  }
  if (def->list() == &from_.section(Section::kGlobal)) return importGlobal(*def);
  return Error("importing a function: " + from_.describe(*def) + " is neither global nor inside the function");
}

Expected<uint32_t> FunctionImporter::importGlobal(const Instruction& inst) {
  uint32_t type = 0;
  if (inst.typeId()) {
    Expected<uint32_t> mappedType = mapped(inst.typeId());
    if (!mappedType) return mappedType;
    type = *mappedType;
  }
  std::vector<Operand> operands = inst.operands();
  for (Operand& op : operands) {
    if (!op.isId()) continue;
    Expected<uint32_t> operand = mapped(op.words[0]);
    if (!operand) return operand;
    op.words[0] = *operand;
  }
  requireWidthCapability(into_, inst);
  uint32_t intoId = 0;
  if (isShareableGlobal(inst.opcode())) {
    intoId = into_.getOrAddGlobal(inst.opcode(), type, std::move(operands));
  } else {
    // Variables, undefs and aggregate types keep an identity of their own (and their decorations).
    intoId = into_.takeId();
    into_.append(Section::kGlobal, Instruction(inst.opcode(), type, intoId, std::move(operands)));
    copyDecorations(inst.resultId(), intoId);
  }
  return ids_[inst.resultId()] = intoId;
}

void FunctionImporter::copyDecorations(uint32_t fromId, uint32_t intoId) {
  for (const Instruction* decoration : from_.decorations(fromId)) {
    if (decoration->opcode() != spv::Op::OpDecorate) continue;
    if (spv::Decoration(decoration->wordOperand(1)) == spv::Decoration::LinkageAttributes) continue;
    std::vector<Operand> operands = decoration->operands();
    operands[0] = Operand::id(intoId);
    into_.append(Section::kAnnotation, Instruction(spv::Op::OpDecorate, 0, 0, std::move(operands)));
  }
}

Expected<uint32_t> FunctionImporter::import(uint32_t function) {
  if (auto it = ids_.find(function); it != ids_.end()) return it->second;
  const Function* source = from_.function(function);
  if (!source || source->isDeclaration())
    return Error("importing a function: %" + std::to_string(function) + " is not a defined function");
  uint32_t intoId = into_.takeId();
  ids_[function] = intoId;
  CL2VK_TRY(copyFunction(*source));  // the body refers to the function by its new id
  if (std::string name = from_.name(function); !name.empty()) {
    into_.append(Section::kDebug, Instruction(spv::Op::OpName, 0, 0, {Operand::id(intoId), Operand::string(name)}));
  }
  return intoId;
}

Status FunctionImporter::copyFunction(const Function& function) {
  // Every id the body defines gets its new number first, so that forward references (phis,
  // branches) resolve.
  std::vector<const Instruction*> local;
  for (const Instruction& inst : function.header()) local.push_back(&inst);
  for (const Block& block : function.blocks()) {
    for (const Instruction& inst : block.instructions()) local.push_back(&inst);
  }
  for (const Instruction* inst : local) {
    if (inst->resultId() && inst->resultId() != function.id()) ids_[inst->resultId()] = into_.takeId();
  }

  auto clone = [&](const Instruction& inst) -> Expected<Instruction> {
    uint32_t type = 0;
    if (inst.typeId()) {
      Expected<uint32_t> mappedType = mapped(inst.typeId());
      if (!mappedType) return mappedType.error();
      type = *mappedType;
    }
    std::vector<Operand> operands = inst.operands();
    for (Operand& op : operands) {
      if (!op.isId()) continue;
      Expected<uint32_t> operand = mapped(op.words[0]);
      if (!operand) return operand.error();
      op.words[0] = *operand;
    }
    return Instruction(inst.opcode(), type, inst.resultId() ? ids_.at(inst.resultId()) : 0, std::move(operands));
  };

  // Callees met while cloning are imported at once and appended after this function, which is
  // complete in `into` only at the end; build it aside and append it in one go.
  std::vector<Instruction> header;
  std::vector<std::vector<Instruction>> blocks;
  for (const Instruction& inst : function.header()) {
    Expected<Instruction> copy = clone(inst);
    if (!copy) return copy.error();
    header.push_back(std::move(*copy));
  }
  for (const Block& block : function.blocks()) {
    blocks.emplace_back();
    for (const Instruction& inst : block.instructions()) {
      Expected<Instruction> copy = clone(inst);
      if (!copy) return copy.error();
      blocks.back().push_back(std::move(*copy));
    }
  }

  Function* copy = into_.addFunction();
  for (Instruction& inst : header) into_.append(copy->header(), std::move(inst));
  for (std::vector<Instruction>& instructions : blocks) {
    Block* block = into_.addBlock(*copy);
    for (Instruction& inst : instructions) into_.append(block->instructions(), std::move(inst));
  }
  into_.append(copy->end(), Instruction(spv::Op::OpFunctionEnd, 0, 0));
  for (const Instruction* inst : local) {
    if (inst->resultId() && inst->resultId() != function.id())
      copyDecorations(inst->resultId(), ids_.at(inst->resultId()));
  }
  return okStatus();
}

}  // namespace cl2vk::ir
