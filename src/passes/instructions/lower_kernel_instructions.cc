#include "passes/instructions/lower_kernel_instructions.h"

#include "ir/builder.h"
#include "ir/types.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Instruction;
using ir::Module;

Status finish(Module& module, Instruction& inst, uint32_t value) {
  module.replaceAllUses(inst.resultId(), value);
  return module.remove(&inst);
}

// The float operand's bits as unsigned integers of the same width and shape (`intType`).
uint32_t bitsOf(Builder& b, uint32_t value, uint32_t& intType) {
  uint32_t type = b.typeOf(value);
  intType = b.uintType(type, b.width(type));
  return b.bitcast(intType, value);
}

Expected<bool> lowerClassification(Module& module, Instruction& inst) {
  Builder b = Builder::before(module, &inst);
  uint32_t resultType = inst.typeId();
  switch (inst.opcode()) {
    case spv::Op::OpIsFinite: {
      uint32_t nan = b.valueOfIds(spv::Op::OpIsNan, resultType, {inst.idOperand(0)});
      uint32_t inf = b.valueOfIds(spv::Op::OpIsInf, resultType, {inst.idOperand(0)});
      uint32_t either = b.valueOfIds(spv::Op::OpLogicalOr, resultType, {nan, inf});
      CL2VK_TRY(finish(module, inst, b.valueOfIds(spv::Op::OpLogicalNot, resultType, {either})));
      return true;
    }
    case spv::Op::OpIsNormal: {
      // Normal: the exponent field is neither all zeros nor all ones.
      uint32_t intType;
      uint32_t bits = bitsOf(b, inst.idOperand(0), intType);
      uint32_t width = b.width(intType);
      uint32_t mantissa = width == 16 ? 10 : width == 32 ? 23 : 52;
      uint64_t exponentMask = ((uint64_t{1} << (width - 1 - mantissa)) - 1) << mantissa;
      uint32_t exponent = b.bitAnd(bits, b.bits(intType, exponentMask));
      uint32_t notZero = b.valueOfIds(spv::Op::OpINotEqual, resultType, {exponent, b.bits(intType, 0)});
      uint32_t notMax = b.valueOfIds(spv::Op::OpINotEqual, resultType, {exponent, b.bits(intType, exponentMask)});
      CL2VK_TRY(finish(module, inst, b.valueOfIds(spv::Op::OpLogicalAnd, resultType, {notZero, notMax})));
      return true;
    }
    case spv::Op::OpSignBitSet: {
      uint32_t intType;
      uint32_t bits = bitsOf(b, inst.idOperand(0), intType);
      uint32_t sign = b.bitAnd(bits, b.bits(intType, uint64_t{1} << (b.width(intType) - 1)));
      CL2VK_TRY(finish(module, inst, b.valueOfIds(spv::Op::OpINotEqual, resultType, {sign, b.bits(intType, 0)})));
      return true;
    }
    case spv::Op::OpLessOrGreater:
      CL2VK_TRY(finish(module, inst,
                       b.valueOfIds(spv::Op::OpFOrdNotEqual, resultType, {inst.idOperand(0), inst.idOperand(1)})));
      return true;
    case spv::Op::OpOrdered:
    case spv::Op::OpUnordered: {
      uint32_t a = b.valueOfIds(spv::Op::OpIsNan, resultType, {inst.idOperand(0)});
      uint32_t c = b.valueOfIds(spv::Op::OpIsNan, resultType, {inst.idOperand(1)});
      uint32_t any = b.valueOfIds(spv::Op::OpLogicalOr, resultType, {a, c});
      uint32_t result =
          inst.opcode() == spv::Op::OpUnordered ? any : b.valueOfIds(spv::Op::OpLogicalNot, resultType, {any});
      CL2VK_TRY(finish(module, inst, result));
      return true;
    }
    default: return false;
  }
}

// Vulkan has OpBitCount for 32-bit integers only, Base and Result alike. SPIR-V before 1.5 lets
// the Result's width differ from the Base's, so the count is taken at the Base's width and then
// converted to the Result's.
Expected<bool> lowerBitCount(Module& module, Instruction& inst) {
  uint32_t value = inst.idOperand(0);
  Builder b = Builder::before(module, &inst);
  uint32_t baseType = b.typeOf(value);
  uint32_t width = b.width(baseType);
  uint32_t resultWidth = b.width(inst.typeId());
  if (width == 32 && resultWidth == 32) return false;
  uint32_t wide = b.uintType(baseType, 32);
  uint32_t counted;
  if (width == 32) {
    counted = b.valueOfIds(spv::Op::OpBitCount, wide, {value});
  } else if (width < 32) {
    uint32_t extended = b.valueOfIds(spv::Op::OpUConvert, wide, {value});
    counted = b.valueOfIds(spv::Op::OpBitCount, wide, {extended});
  } else {
    uint32_t low = b.valueOfIds(spv::Op::OpUConvert, wide, {value});
    uint32_t shifted = b.valueOfIds(spv::Op::OpShiftRightLogical, baseType, {value, b.bits(baseType, 32)});
    uint32_t high = b.valueOfIds(spv::Op::OpUConvert, wide, {shifted});
    counted =
        b.valueOfIds(spv::Op::OpIAdd, wide,
                     {b.valueOfIds(spv::Op::OpBitCount, wide, {low}), b.valueOfIds(spv::Op::OpBitCount, wide, {high})});
  }
  if (resultWidth != 32) counted = b.valueOfIds(spv::Op::OpUConvert, inst.typeId(), {counted});
  CL2VK_TRY(finish(module, inst, counted));
  return true;
}

// Kernel SPIR-V has only unsigned-typed integers; the opcode carries the sign. Signed division
// runs on signed types (through bitcasts, which cost nothing), as Shader modules have it.
Expected<bool> lowerSignedDivision(Module& module, Instruction& inst) {
  Builder b = Builder::before(module, &inst);
  const Instruction* def = module.def(b.componentType(inst.typeId()));
  uint32_t width = ir::intWidth(module, inst.typeId());
  if (!width || def->wordOperand(1) == 1) return false;  // already a signed type
  uint32_t signedType = b.shaped(inst.typeId(), ir::typeInt(module, width, true));
  uint32_t a = b.valueOfIds(spv::Op::OpBitcast, signedType, {inst.idOperand(0)});
  uint32_t c = b.valueOfIds(spv::Op::OpBitcast, signedType, {inst.idOperand(1)});
  uint32_t result = b.valueOfIds(inst.opcode(), signedType, {a, c});
  CL2VK_TRY(finish(module, inst, b.valueOfIds(spv::Op::OpBitcast, inst.typeId(), {result})));
  return true;
}

// Vulkan leaves OpSRem and OpSMod undefined for negative operands (an NVIDIA driver computes a
// uint-typed -976 % 1000 as 320), so both are built from an unsigned remainder of the
// magnitudes: srem takes the dividend's sign, smod the divisor's.
Expected<bool> lowerSignedRemainder(Module& module, Instruction& inst) {
  uint32_t type = inst.typeId();
  Builder b = Builder::before(module, &inst);
  uint32_t boolType = b.boolType(type);
  uint32_t zero = b.bits(type, 0);
  auto negative = [&](uint32_t v) { return b.valueOfIds(spv::Op::OpSLessThan, boolType, {v, zero}); };
  auto magnitude = [&](uint32_t v, uint32_t isNegative) {
    return b.valueOfIds(spv::Op::OpSelect, type, {isNegative, b.valueOfIds(spv::Op::OpSNegate, type, {v}), v});
  };
  uint32_t a = inst.idOperand(0), d = inst.idOperand(1);
  uint32_t aNegative = negative(a), dNegative = negative(d);
  uint32_t r = b.valueOfIds(spv::Op::OpUMod, type, {magnitude(a, aNegative), magnitude(d, dNegative)});
  uint32_t result = b.valueOfIds(spv::Op::OpSelect, type, {aNegative, b.valueOfIds(spv::Op::OpSNegate, type, {r}), r});
  if (inst.opcode() == spv::Op::OpSMod) {
    // A non-zero remainder whose sign differs from the divisor's moves by one divisor.
    uint32_t nonZero = b.valueOfIds(spv::Op::OpINotEqual, boolType, {result, zero});
    uint32_t signsDiffer = b.valueOfIds(spv::Op::OpLogicalNotEqual, boolType, {negative(result), dNegative});
    uint32_t adjust = b.valueOfIds(spv::Op::OpLogicalAnd, boolType, {nonZero, signsDiffer});
    result = b.valueOfIds(spv::Op::OpSelect, type, {adjust, b.valueOfIds(spv::Op::OpIAdd, type, {result, d}), result});
  }
  CL2VK_TRY(finish(module, inst, result));
  return true;
}

}  // namespace

Expected<PassResult> lowerKernelInstructions(Module& module, const Target&) {
  return lowerByOpcode(module, {
                                   {spv::Op::OpIsFinite, lowerClassification},
                                   {spv::Op::OpIsNormal, lowerClassification},
                                   {spv::Op::OpSignBitSet, lowerClassification},
                                   {spv::Op::OpLessOrGreater, lowerClassification},
                                   {spv::Op::OpOrdered, lowerClassification},
                                   {spv::Op::OpUnordered, lowerClassification},
                                   {spv::Op::OpBitCount, lowerBitCount},
                                   {spv::Op::OpSDiv, lowerSignedDivision},
                                   {spv::Op::OpSRem, lowerSignedRemainder},
                                   {spv::Op::OpSMod, lowerSignedRemainder},
                               });
}

}  // namespace cl2vk
