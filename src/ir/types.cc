#include "ir/types.h"

#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>

namespace cl2vk::ir {
uint32_t typeVoid(Module& module) { return module.getOrAddGlobal(spv::Op::OpTypeVoid, 0, {}); }

uint32_t typeBool(Module& module) { return module.getOrAddGlobal(spv::Op::OpTypeBool, 0, {}); }

uint32_t typeInt(Module& module, uint32_t width, bool isSigned) {
  return module.getOrAddGlobal(spv::Op::OpTypeInt, 0, {Operand::literal(width), Operand::literal(isSigned ? 1 : 0)});
}

uint32_t typeFloat(Module& module, uint32_t width) {
  return module.getOrAddGlobal(spv::Op::OpTypeFloat, 0, {Operand::literal(width)});
}

uint32_t typeVector(Module& module, uint32_t componentType, uint32_t count) {
  return module.getOrAddGlobal(spv::Op::OpTypeVector, 0, {Operand::id(componentType), Operand::literal(count)});
}

uint32_t typePointer(Module& module, spv::StorageClass storage, uint32_t pointee) {
  return module.getOrAddGlobal(
      spv::Op::OpTypePointer, 0,
      {Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(storage)), Operand::id(pointee)});
}

uint32_t typeFunction(Module& module, uint32_t returnType, const std::vector<uint32_t>& parameterTypes) {
  std::vector<Operand> operands = {Operand::id(returnType)};
  for (uint32_t param : parameterTypes) operands.push_back(Operand::id(param));
  return module.getOrAddGlobal(spv::Op::OpTypeFunction, 0, std::move(operands));
}

uint32_t scalarWidth(const Module& module, uint32_t type) {
  const Instruction* def = module.def(type);
  if (!def || (def->opcode() != spv::Op::OpTypeInt && def->opcode() != spv::Op::OpTypeFloat)) return 0;
  return def->wordOperand(0);
}

namespace {

// The type itself, or a vector type's component type; null for an id that is not defined.
const Instruction* scalarOf(const Module& module, uint32_t type) {
  const Instruction* def = type ? module.def(type) : nullptr;
  if (def && def->opcode() == spv::Op::OpTypeVector) def = module.def(def->idOperand(0));
  return def;
}

}  // namespace

uint32_t intWidth(const Module& module, uint32_t type) {
  const Instruction* def = scalarOf(module, type);
  return def && def->opcode() == spv::Op::OpTypeInt ? def->wordOperand(0) : 0;
}

uint32_t floatWidth(const Module& module, uint32_t type) {
  const Instruction* def = scalarOf(module, type);
  return def && def->opcode() == spv::Op::OpTypeFloat ? def->wordOperand(0) : 0;
}

bool isBoolType(const Module& module, uint32_t type) {
  const Instruction* def = scalarOf(module, type);
  return def && def->opcode() == spv::Op::OpTypeBool;
}

bool isVectorType(const Module& module, uint32_t type) {
  const Instruction* def = type ? module.def(type) : nullptr;
  return def && def->opcode() == spv::Op::OpTypeVector;
}

uint32_t typeOf(const Module& module, uint32_t value) {
  const Instruction* def = module.def(value);
  return def ? def->typeId() : 0;
}

uint32_t componentType(const Module& module, uint32_t type) {
  const Instruction* def = module.def(type);
  return def && def->opcode() == spv::Op::OpTypeVector ? def->idOperand(0) : type;
}

uint32_t componentCount(const Module& module, uint32_t type) {
  const Instruction* def = module.def(type);
  return def && def->opcode() == spv::Op::OpTypeVector ? def->wordOperand(1) : 1;
}

uint32_t constantBits(Module& module, uint32_t type, uint64_t bits) {
  uint32_t width = scalarWidth(module, type);
  assert(width != 0 && "constantBits needs an integer or float type");
  std::vector<uint32_t> words;
  if (width <= 32) {
    uint64_t mask = width == 32 ? 0xffffffffull : (1ull << width) - 1;
    uint32_t low = static_cast<uint32_t>(bits & mask);
    // SPIR-V 2.2.1: narrower literals fill the high bits with the sign for signed integer types.
    const Instruction* def = module.def(type);
    if (width < 32 && def->opcode() == spv::Op::OpTypeInt && def->wordOperand(1) == 1 && (low >> (width - 1)) & 1)
      low |= ~static_cast<uint32_t>(mask);
    words = {low};
  } else {
    words = {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
  }
  return module.getOrAddGlobal(spv::Op::OpConstant, type, {Operand::number(std::move(words))});
}

uint32_t constantUint(Module& module, uint32_t width, uint64_t value) {
  return constantBits(module, typeInt(module, width), value);
}

uint16_t floatToHalfBits(double value) {
  // Rounded from the double's own bits: through float first, a value just off a half's rounding
  // midpoint could round onto it and then to even.
  uint64_t x = std::bit_cast<uint64_t>(value);
  uint32_t sign = static_cast<uint32_t>(x >> 48) & 0x8000u;
  uint32_t exponent = static_cast<uint32_t>(x >> 52) & 0x7ffu;
  uint64_t mantissa = x & ((uint64_t{1} << 52) - 1);
  if (exponent == 0x7ff) return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));  // inf / nan
  int e = static_cast<int>(exponent) - 1023 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow: infinity
  uint32_t shift = 42;                                        // the 52 bits of the mantissa to half's 10
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);  // below half the smallest subnormal: signed zero
    // Subnormal: the mantissa with its implicit bit shifted into place.
    mantissa |= uint64_t{1} << 52;
    shift = static_cast<uint32_t>(43 - e);
    e = 0;
  }
  uint32_t half = sign | (static_cast<uint32_t>(e) << 10) | static_cast<uint32_t>(mantissa >> shift);
  uint64_t rest = mantissa & ((uint64_t{1} << shift) - 1);
  uint64_t halfway = uint64_t{1} << (shift - 1);
  if (rest > halfway || (rest == halfway && (half & 1))) ++half;  // may carry into the exponent: fine
  return static_cast<uint16_t>(half);
}

uint32_t constantFloat(Module& module, uint32_t type, double value) {
  switch (scalarWidth(module, type)) {
    case 16: return constantBits(module, type, floatToHalfBits(value));
    case 32: return constantBits(module, type, std::bit_cast<uint32_t>(static_cast<float>(value)));
    case 64: return constantBits(module, type, std::bit_cast<uint64_t>(value));
    default: assert(false && "constantFloat needs a 16, 32 or 64-bit float type"); return 0;
  }
}

uint32_t constantBool(Module& module, bool value) {
  return module.getOrAddGlobal(value ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse, typeBool(module), {});
}

uint32_t constantNull(Module& module, uint32_t type) {
  return module.getOrAddGlobal(spv::Op::OpConstantNull, type, {});
}

uint32_t undef(Module& module, uint32_t type) {
  for (const Use& use : module.uses(type)) {
    const Instruction& user = *use.user;
    if (use.operandIndex == Use::kResultType && user.opcode() == spv::Op::OpUndef &&
        user.list() == &module.section(Section::kGlobal))
      return user.resultId();
  }
  uint32_t id = module.takeId();
  module.append(Section::kGlobal, Instruction(spv::Op::OpUndef, type, id));
  return id;
}

uint32_t constantComposite(Module& module, uint32_t type, const std::vector<uint32_t>& constituents) {
  std::vector<Operand> operands;
  for (uint32_t id : constituents) operands.push_back(Operand::id(id));
  return module.getOrAddGlobal(spv::Op::OpConstantComposite, type, std::move(operands));
}

bool isPointerType(const Module& module, uint32_t type) {
  const Instruction* def = module.def(type);
  return def && def->opcode() == spv::Op::OpTypePointer;
}

spv::StorageClass storageOf(const Module& module, uint32_t pointerType) {
  assert(isPointerType(module, pointerType));
  return static_cast<spv::StorageClass>(module.def(pointerType)->wordOperand(0));
}

uint32_t pointeeOf(const Module& module, uint32_t pointerType) {
  assert(isPointerType(module, pointerType));
  return module.def(pointerType)->idOperand(1);
}

bool isBufferPointer(const Module& module, uint32_t type) {
  const Instruction* def = module.def(type);
  return def && def->opcode() == spv::Op::OpTypePointer &&
         def->wordOperand(0) == static_cast<uint32_t>(spv::StorageClass::PhysicalStorageBuffer);
}

bool isUndefined(const Module& module, uint32_t id) {
  const Instruction* def = module.def(id);
  if (!def) return false;
  if (def->opcode() == spv::Op::OpUndef) return true;
  if (def->opcode() != spv::Op::OpConstantComposite && def->opcode() != spv::Op::OpSpecConstantComposite) return false;
  for (size_t i = 0; i < def->numOperands(); ++i) {
    if (!isUndefined(module, def->idOperand(i))) return false;
  }
  return true;
}

}  // namespace cl2vk::ir
