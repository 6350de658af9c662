#include "passes/instructions/opencl_std_emitter.h"

#include <vector>

#include "ir/capabilities.h"
#include "ir/types.h"

namespace cl2vk {

using ir::Operand;

Emitter::Emitter(ir::Module& module, ir::Instruction* position)
    : module_(module), builder_(ir::Builder::before(module, position)) {}

uint32_t Emitter::typeOf(uint32_t value) const { return module_.def(value)->typeId(); }

uint32_t Emitter::componentType(uint32_t type) const {
  const ir::Instruction* def = module_.def(type);
  return def->opcode() == spv::Op::OpTypeVector ? def->idOperand(0) : type;
}

uint32_t Emitter::componentCount(uint32_t type) const {
  const ir::Instruction* def = module_.def(type);
  return def->opcode() == spv::Op::OpTypeVector ? def->wordOperand(1) : 1;
}

uint32_t Emitter::width(uint32_t type) const { return ir::scalarWidth(module_, componentType(type)); }

bool Emitter::isFloat(uint32_t type) const {
  return module_.def(componentType(type))->opcode() == spv::Op::OpTypeFloat;
}

uint32_t Emitter::shaped(uint32_t type, uint32_t component) {
  uint32_t count = componentCount(type);
  return count == 1 ? component : ir::typeVector(module_, component, count);
}

uint32_t Emitter::uintType(uint32_t type, uint32_t width) { return shaped(type, ir::typeInt(module_, width)); }
uint32_t Emitter::floatType(uint32_t type, uint32_t width) { return shaped(type, ir::typeFloat(module_, width)); }
uint32_t Emitter::boolType(uint32_t type) { return shaped(type, ir::typeBool(module_)); }

void Emitter::requireCapability(spv::Capability capability) { ir::requireCapability(module_, capability); }

uint32_t Emitter::structType(const std::vector<uint32_t>& members) {
  std::vector<Operand> operands;
  for (uint32_t member : members) operands.push_back(Operand::id(member));
  for (ir::Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpTypeStruct && inst.operands() == operands &&
        module_.decorations(inst.resultId()).empty())
      return inst.resultId();
  }
  uint32_t id = module_.takeId();
  module_.append(ir::Section::kGlobal, ir::Instruction(spv::Op::OpTypeStruct, 0, id, std::move(operands)));
  return id;
}

uint32_t Emitter::splat(uint32_t type, uint32_t value) {
  uint32_t count = componentCount(type);
  if (count == 1 || isVector(typeOf(value))) return value;
  ir::Instruction* def = module_.def(value);
  std::vector<uint32_t> copies(count, value);
  if (def->opcode() == spv::Op::OpConstant || def->opcode() == spv::Op::OpConstantNull ||
      def->opcode() == spv::Op::OpConstantTrue || def->opcode() == spv::Op::OpConstantFalse)
    return ir::constantComposite(module_, type, copies);
  std::vector<Operand> operands;
  for (uint32_t copy : copies) operands.push_back(Operand::id(copy));
  return builder_.value(spv::Op::OpCompositeConstruct, type, std::move(operands));
}

uint32_t Emitter::bits(uint32_t type, uint64_t bits) {
  return splat(type, ir::constantBits(module_, componentType(type), bits));
}

uint32_t Emitter::real(uint32_t type, double value) {
  return splat(type, ir::constantFloat(module_, componentType(type), value));
}

uint32_t Emitter::op(spv::Op opcode, uint32_t type, const std::vector<uint32_t>& ids) {
  return builder_.valueOfIds(opcode, type, ids);
}

uint32_t Emitter::glslImport() {
  for (ir::Instruction& inst : module_.section(ir::Section::kExtInstImport)) {
    if (inst.stringOperand(0) == "GLSL.std.450") return inst.resultId();
  }
  uint32_t id = module_.takeId();
  module_.append(ir::Section::kExtInstImport,
                 ir::Instruction(spv::Op::OpExtInstImport, 0, id, {Operand::string("GLSL.std.450")}));
  return id;
}

uint32_t Emitter::glsl(GLSLstd450 instruction, uint32_t type, const std::vector<uint32_t>& ids) {
  return extInst(glslImport(), instruction, type, ids);
}

uint32_t Emitter::extInst(uint32_t set, uint32_t instruction, uint32_t type, const std::vector<uint32_t>& ids) {
  std::vector<Operand> operands = {Operand::id(set),
                                   Operand{SPV_OPERAND_TYPE_EXTENSION_INSTRUCTION_NUMBER, {instruction}}};
  for (uint32_t id : ids) operands.push_back(Operand::id(id));
  return builder_.value(spv::Op::OpExtInst, type, std::move(operands));
}

namespace {

void addAlignment(std::vector<Operand>& operands, uint32_t alignment) {
  if (alignment == 0) return;
  operands.push_back(Operand::enumerant(SPV_OPERAND_TYPE_OPTIONAL_MEMORY_ACCESS,
                                        static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)));
  operands.push_back(Operand::literal(alignment));
}

}  // namespace

void Emitter::store(uint32_t pointer, uint32_t value, uint32_t alignment) {
  std::vector<Operand> operands = {Operand::id(pointer), Operand::id(value)};
  addAlignment(operands, alignment);
  builder_.add(spv::Op::OpStore, 0, std::move(operands));
}

uint32_t Emitter::load(uint32_t type, uint32_t pointer, uint32_t alignment) {
  std::vector<Operand> operands = {Operand::id(pointer)};
  addAlignment(operands, alignment);
  return builder_.value(spv::Op::OpLoad, type, std::move(operands));
}

uint32_t Emitter::extract(uint32_t type, uint32_t composite, uint32_t index) {
  return builder_.value(spv::Op::OpCompositeExtract, type, {Operand::id(composite), Operand::literal(index)});
}

uint32_t Emitter::compare(spv::Op opcode, uint32_t a, uint32_t b) { return op(opcode, boolType(typeOf(a)), {a, b}); }

uint32_t Emitter::test(spv::Op opcode, uint32_t a) { return op(opcode, boolType(typeOf(a)), {a}); }

uint32_t Emitter::select(uint32_t condition, uint32_t ifTrue, uint32_t ifFalse) {
  return op(spv::Op::OpSelect, typeOf(ifTrue), {condition, ifTrue, ifFalse});
}

uint32_t Emitter::resize(uint32_t value, uint32_t newWidth) {
  uint32_t type = typeOf(value);
  if (width(type) == newWidth) return value;
  return op(spv::Op::OpUConvert, uintType(type, newWidth), {value});
}

uint32_t Emitter::resizeSigned(uint32_t value, uint32_t newWidth) {
  uint32_t type = typeOf(value);
  if (width(type) == newWidth) return value;
  return op(spv::Op::OpSConvert, uintType(type, newWidth), {value});
}

}  // namespace cl2vk
