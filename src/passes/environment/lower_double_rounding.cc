#include "passes/environment/lower_double_rounding.h"

#include <spirv/unified1/GLSL.std.450.h>

#include "ir/builder.h"
#include "ir/types.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Instruction;
using ir::Module;

// The GLSL.std.450 instruction `inst` is, or 0.
uint32_t glslInstruction(const Module& module, const Instruction& inst) {
  if (inst.opcode() != spv::Op::OpExtInst) return 0;
  const Instruction* set = module.def(inst.idOperand(0));
  if (!set || set->stringOperand(0) != "GLSL.std.450") return 0;
  return inst.wordOperand(1);
}

// x's rounded magnitude given the sign of x: -m for a negative x, and x itself for a zero (whose
// sign Floor of the magnitude has lost).
uint32_t withSignOfX(Builder& b, uint32_t type, uint32_t x, uint32_t magnitude) {
  uint32_t zero = b.real(type, 0.0);
  uint32_t negative = b.compare(spv::Op::OpFOrdLessThan, x, zero);
  uint32_t negated = b.op(spv::Op::OpFNegate, type, {magnitude});
  uint32_t withSign = b.select(negative, negated, magnitude);
  uint32_t isZero = b.compare(spv::Op::OpFOrdEqual, x, zero);
  return b.select(isZero, x, withSign);
}

// trunc(x) = ±floor(|x|). NaN and infinities come through Floor unchanged.
uint32_t trunc(Builder& b, uint32_t type, uint32_t x) {
  uint32_t magnitude = b.glsl(GLSLstd450FAbs, type, {x});
  return withSignOfX(b, type, x, b.glsl(GLSLstd450Floor, type, {magnitude}));
}

// rint(x) = ±(f or f + 1) with f = floor(|x|): up where the fraction |x| - f (exact) is above one
// half, or is one half and f is odd. Every step is exact: f + 1 is below 2^53 wherever the fraction
// is not zero. An infinity's fraction is NaN, which compares false.
uint32_t roundEven(Builder& b, uint32_t type, uint32_t x) {
  uint32_t magnitude = b.glsl(GLSLstd450FAbs, type, {x});
  uint32_t floor = b.glsl(GLSLstd450Floor, type, {magnitude});
  uint32_t fraction = b.fsub(magnitude, floor);
  uint32_t half = b.real(type, 0.5);
  uint32_t halfFloor = b.fmul(floor, half);
  uint32_t odd = b.compare(spv::Op::OpFOrdNotEqual, b.glsl(GLSLstd450Floor, type, {halfFloor}), halfFloor);
  uint32_t overHalf = b.compare(spv::Op::OpFOrdGreaterThan, fraction, half);
  uint32_t tie = b.compare(spv::Op::OpFOrdEqual, fraction, half);
  uint32_t oddTie = b.compare(spv::Op::OpLogicalAnd, tie, odd);
  uint32_t up = b.compare(spv::Op::OpLogicalOr, overHalf, oddTie);
  uint32_t next = b.fadd(floor, b.real(type, 1.0));
  return withSignOfX(b, type, x, b.select(up, next, floor));
}

}  // namespace

Expected<PassResult> lowerDoubleRounding(Module& module, const Target& target) {
  if (target.float64Rounding) return PassResult::kUnchanged;
  auto wanted = [&module](const Instruction& inst) {
    uint32_t instruction = glslInstruction(module, inst);
    if (instruction != GLSLstd450RoundEven && instruction != GLSLstd450Trunc) return false;
    return ir::floatWidth(module, inst.typeId()) == 64;
  };
  return lowerInstructions(module, wanted, [](Module& m, Instruction& inst) -> Expected<bool> {
    Builder b = Builder::before(m, &inst);
    uint32_t x = inst.idOperand(2);
    uint32_t result =
        glslInstruction(m, inst) == GLSLstd450Trunc ? trunc(b, inst.typeId(), x) : roundEven(b, inst.typeId(), x);
    m.replaceAllUses(inst.resultId(), result);
    CL2VK_TRY(m.remove(&inst));
    return true;
  });
}

}  // namespace cl2vk
