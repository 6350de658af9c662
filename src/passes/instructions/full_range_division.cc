#include "passes/instructions/full_range_division.h"

#include "ir/builder.h"
#include "ir/types.h"
#include "passes/instructions/opencl_std_float_bits.h"
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

uint32_t correctlyRoundedHalfDivide(ir::Builder& b, uint32_t x, uint32_t y) {
  uint32_t halfType = b.typeOf(x);
  uint32_t bitsType = b.uintType(halfType, 32);
  uint32_t floatType = b.floatType(halfType, 32);
  auto k = [&](uint64_t value) { return b.bits(bitsType, value); };
  uint32_t xBits = b.resize(b.bitcast(b.uintType(halfType, 16), x), 32);
  uint32_t yBits = b.resize(b.bitcast(b.uintType(halfType, 16), y), 32);
  uint32_t sign = b.bitAnd(b.bitXor(xBits, yBits), k(0x8000));
  uint32_t dividend = halfBitsToFloat(b, b.bitAnd(xBits, k(0x7fff)), floatType);
  uint32_t divisor = halfBitsToFloat(b, b.bitAnd(yBits, k(0x7fff)), floatType);
  // Within one half ULP of the exact quotient whatever the device's float division's few ULP.
  uint32_t nearest = narrowFloatBits(b, b.fdiv(dividend, divisor), 16, Rounding::kNearestEven);
  // The value halfway between the non-negative half `bits` and the next one up: the half plus
  // half its ULP, 2^(max(exponent, 1) - 26), exact in float.
  auto midpointAbove = [&](uint32_t bits) {
    uint32_t exponent = b.bitAnd(b.lshr(bits, k(10)), k(31));
    exponent = b.select(b.compare(spv::Op::OpIEqual, exponent, k(0)), k(1), exponent);
    uint32_t halfUlp = b.bitcast(floatType, b.shl(b.iadd(exponent, k(127 - 26)), k(23)));
    return b.fadd(halfBitsToFloat(b, bits, floatType), halfUlp);
  };
  uint32_t odd = b.compare(spv::Op::OpINotEqual, b.bitAnd(nearest, k(1)), k(0));
  // Beyond a midpoint, or on it with `nearest` odd: one half further. NaN compares false and
  // stays; infinity has no half above it, zero none below.
  auto beyond = [&](spv::Op strictly, uint32_t midpoint) {
    uint32_t scaled = b.fmul(midpoint, divisor);
    return b.compare(spv::Op::OpLogicalOr, b.compare(strictly, dividend, scaled),
                     b.compare(spv::Op::OpLogicalAnd, b.compare(spv::Op::OpFOrdEqual, dividend, scaled), odd));
  };
  uint32_t up = b.compare(spv::Op::OpLogicalAnd, b.compare(spv::Op::OpULessThan, nearest, k(0x7c00)),
                          beyond(spv::Op::OpFOrdGreaterThan, midpointAbove(nearest)));
  uint32_t below = b.isub(nearest, k(1));
  uint32_t down = b.compare(spv::Op::OpLogicalAnd,
                            b.compare(spv::Op::OpLogicalAnd, b.compare(spv::Op::OpUGreaterThan, nearest, k(0)),
                                      b.compare(spv::Op::OpULessThanEqual, nearest, k(0x7c00))),
                            beyond(spv::Op::OpFOrdLessThan, midpointAbove(below)));
  uint32_t rounded = b.select(up, b.iadd(nearest, k(1)), b.select(down, below, nearest));
  return b.bitcast(halfType, b.resize(b.bitOr(rounded, sign), 16));
}

Expected<PassResult> fullRangeDivision(ir::Module& module, const Target& target) {
  if (target.relaxedMath) return PassResult::kUnchanged;
  auto floatWidth = [&module](const ir::Instruction& inst) { return ir::floatWidth(module, inst.typeId()); };
  auto wanted = [&](const ir::Instruction& inst) {
    return inst.opcode() == spv::Op::OpFDiv && (floatWidth(inst) == 32 || floatWidth(inst) == 16);
  };
  return lowerInstructions(module, wanted, [&](ir::Module& m, ir::Instruction& inst) -> Expected<bool> {
    ir::Builder b = ir::Builder::before(m, &inst);
    uint32_t x = inst.idOperand(0), y = inst.idOperand(1);
    uint32_t quotient = floatWidth(inst) == 16 ? correctlyRoundedHalfDivide(b, x, y) : fullRangeDivide(b, x, y);
    m.replaceAllUses(inst.resultId(), quotient);
    CL2VK_TRY(m.remove(&inst));
    return true;
  });
}

}  // namespace cl2vk
