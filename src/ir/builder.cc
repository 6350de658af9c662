#include "ir/builder.h"

#include <cassert>

#include "ir/capabilities.h"
#include "ir/types.h"

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
  uint32_t resultId = hasResultId(opcode) ? module_->takeId() : 0;
  Instruction inst(opcode, typeId, resultId, std::move(operands));
  switch (mode_) {
    case Mode::kBefore: return module_->insertBefore(anchor_, std::move(inst));
    case Mode::kAfter: anchor_ = module_->insertAfter(anchor_, std::move(inst)); return anchor_;
    case Mode::kAtEnd: return module_->append(block_->instructions(), std::move(inst));
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

// --- Types ---------------------------------------------------------------------------------------

uint32_t Builder::typeOf(uint32_t value) const { return ir::typeOf(*module_, value); }

uint32_t Builder::componentType(uint32_t type) const { return ir::componentType(*module_, type); }

uint32_t Builder::componentCount(uint32_t type) const { return ir::componentCount(*module_, type); }

uint32_t Builder::width(uint32_t type) const { return scalarWidth(*module_, componentType(type)); }

bool Builder::isFloat(uint32_t type) const {
  return module_->def(componentType(type))->opcode() == spv::Op::OpTypeFloat;
}

uint32_t Builder::shaped(uint32_t type, uint32_t component) {
  uint32_t count = componentCount(type);
  return count == 1 ? component : typeVector(*module_, component, count);
}

uint32_t Builder::uintType(uint32_t type, uint32_t width) { return shaped(type, typeInt(*module_, width)); }
uint32_t Builder::floatType(uint32_t type, uint32_t width) { return shaped(type, typeFloat(*module_, width)); }
uint32_t Builder::boolType(uint32_t type) { return shaped(type, typeBool(*module_)); }

void Builder::requireCapability(spv::Capability capability) { ir::requireCapability(*module_, capability); }

uint32_t Builder::structType(const std::vector<uint32_t>& members) {
  std::vector<Operand> operands;
  for (uint32_t member : members) operands.push_back(Operand::id(member));
  for (Instruction& inst : module_->section(Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpTypeStruct && inst.operands() == operands &&
        module_->decorations(inst.resultId()).empty())
      return inst.resultId();
  }
  uint32_t id = module_->takeId();
  module_->append(Section::kGlobal, Instruction(spv::Op::OpTypeStruct, 0, id, std::move(operands)));
  return id;
}

// --- Constants -----------------------------------------------------------------------------------

uint32_t Builder::splat(uint32_t type, uint32_t value) {
  uint32_t count = componentCount(type);
  if (count == 1 || isVector(typeOf(value))) return value;
  Instruction* def = module_->def(value);
  std::vector<uint32_t> copies(count, value);
  if (def->opcode() == spv::Op::OpConstant || def->opcode() == spv::Op::OpConstantNull ||
      def->opcode() == spv::Op::OpConstantTrue || def->opcode() == spv::Op::OpConstantFalse)
    return constantComposite(*module_, type, copies);
  return valueOfIds(spv::Op::OpCompositeConstruct, type, copies);
}

uint32_t Builder::bits(uint32_t type, uint64_t bits) {
  return splat(type, constantBits(*module_, componentType(type), bits));
}

uint32_t Builder::real(uint32_t type, double value) {
  return splat(type, constantFloat(*module_, componentType(type), value));
}

// --- Instructions --------------------------------------------------------------------------------

uint32_t Builder::op(spv::Op opcode, uint32_t type, const std::vector<uint32_t>& ids) {
  return valueOfIds(opcode, type, ids);
}

uint32_t Builder::glslImport() {
  for (Instruction& inst : module_->section(Section::kExtInstImport)) {
    if (inst.stringOperand(0) == "GLSL.std.450") return inst.resultId();
  }
  uint32_t id = module_->takeId();
  module_->append(Section::kExtInstImport,
                  Instruction(spv::Op::OpExtInstImport, 0, id, {Operand::string("GLSL.std.450")}));
  return id;
}

uint32_t Builder::glsl(GLSLstd450 instruction, uint32_t type, const std::vector<uint32_t>& ids) {
  return extInst(glslImport(), instruction, type, ids);
}

uint32_t Builder::extInst(uint32_t set, uint32_t instruction, uint32_t type, const std::vector<uint32_t>& ids) {
  std::vector<Operand> operands = {Operand::id(set),
                                   Operand{SPV_OPERAND_TYPE_EXTENSION_INSTRUCTION_NUMBER, {instruction}}};
  for (uint32_t id : ids) operands.push_back(Operand::id(id));
  return value(spv::Op::OpExtInst, type, std::move(operands));
}

namespace {

void addAlignment(std::vector<Operand>& operands, uint32_t alignment) {
  if (alignment == 0) return;
  operands.push_back(Operand::enumerant(SPV_OPERAND_TYPE_OPTIONAL_MEMORY_ACCESS,
                                        static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)));
  operands.push_back(Operand::literal(alignment));
}

}  // namespace

void Builder::store(uint32_t pointer, uint32_t value, uint32_t alignment) {
  std::vector<Operand> operands = {Operand::id(pointer), Operand::id(value)};
  addAlignment(operands, alignment);
  add(spv::Op::OpStore, 0, std::move(operands));
}

uint32_t Builder::load(uint32_t type, uint32_t pointer, uint32_t alignment) {
  std::vector<Operand> operands = {Operand::id(pointer)};
  addAlignment(operands, alignment);
  return value(spv::Op::OpLoad, type, std::move(operands));
}

uint32_t Builder::extract(uint32_t type, uint32_t composite, uint32_t index) {
  return value(spv::Op::OpCompositeExtract, type, {Operand::id(composite), Operand::literal(index)});
}

uint32_t Builder::compare(spv::Op opcode, uint32_t a, uint32_t b) { return op(opcode, boolType(typeOf(a)), {a, b}); }

uint32_t Builder::test(spv::Op opcode, uint32_t a) { return op(opcode, boolType(typeOf(a)), {a}); }

uint32_t Builder::select(uint32_t condition, uint32_t ifTrue, uint32_t ifFalse) {
  return op(spv::Op::OpSelect, typeOf(ifTrue), {condition, ifTrue, ifFalse});
}

uint32_t Builder::resize(uint32_t value, uint32_t newWidth) {
  uint32_t type = typeOf(value);
  if (width(type) == newWidth) return value;
  return op(spv::Op::OpUConvert, uintType(type, newWidth), {value});
}

uint32_t Builder::resizeSigned(uint32_t value, uint32_t newWidth) {
  uint32_t type = typeOf(value);
  if (width(type) == newWidth) return value;
  return op(spv::Op::OpSConvert, uintType(type, newWidth), {value});
}

}  // namespace cl2vk::ir
