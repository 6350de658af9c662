// Conversions between 64-bit integer pairs and floats, built from conversions that are exact
// (integers of at most a significand's bits), scaling by powers of two, and a rounding to nearest
// even done on the integer bits, so that each direction rounds once, correctly.
#include "passes/types/int64_lowering.h"

namespace cl2vk::int64 {

using spv::Op;

namespace {

uint32_t unsignedToFloat(ir::Builder& b, Pair x, uint32_t type) {
  uint32_t half = b.typeOf(x.lo);
  auto k = [&](uint32_t value) { return b.bits(half, value); };
  if (b.width(type) == 64) {
    // Both halves convert exactly; the one rounding is the add's.
    uint32_t high = b.fmul(b.op(Op::OpConvertUToF, type, {x.hi}), b.real(type, 4294967296.0));
    return b.fadd(high, b.op(Op::OpConvertUToF, type, {x.lo}));
  }
  // The top 32 significant bits, with the bits shifted out kept as a sticky lowest bit, round as
  // the whole value would. shift is 0 when the value fits in the low word, else 1..32.
  uint32_t highIsZero = b.compare(Op::OpIEqual, x.hi, k(0));
  uint32_t shift = b.select(highIsZero, k(0), b.iadd(b.glsl(GLSLstd450FindUMsb, half, {x.hi}), k(1)));
  uint32_t safeShift = b.glsl(GLSLstd450UMax, half, {shift, k(1)});  // the shifts below stay in 0..31
  uint32_t fromLowHalf = b.lshr(b.lshr(x.lo, k(1)), b.isub(safeShift, k(1)));
  uint32_t kept = b.bitOr(fromLowHalf, b.shl(x.hi, b.isub(k(32), safeShift)));
  uint32_t dropped = b.shl(x.lo, b.isub(k(32), safeShift));
  uint32_t sticky = b.select(b.compare(Op::OpINotEqual, dropped, k(0)), k(1), k(0));
  uint32_t word = b.select(highIsZero, x.lo, b.bitOr(kept, sticky));
  // Rounded to the float's significand by hand, to nearest even, so that the conversion below is
  // exact: SwiftShader's 32-bit conversion does not round words above 2^24 correctly.
  uint32_t significand = b.width(type) == 16 ? 11 : 24;
  uint32_t msb = b.glsl(GLSLstd450FindUMsb, half, {word});  // -1 for 0, which the SMax below keeps
  uint32_t drop = b.glsl(GLSLstd450SMax, half, {b.isub(msb, k(significand - 1)), k(0)});
  uint32_t truncated = b.lshr(word, drop);
  uint32_t unit = b.shl(k(1), drop);
  uint32_t rest = b.bitAnd(word, b.isub(unit, k(1)));
  uint32_t halfway = b.lshr(unit, k(1));
  uint32_t above = b.compare(Op::OpUGreaterThan, rest, halfway);
  uint32_t tie = b.compare(Op::OpLogicalAnd, b.compare(Op::OpIEqual, rest, halfway),
                           b.compare(Op::OpINotEqual, b.bitAnd(truncated, k(1)), k(0)));
  uint32_t up =
      b.compare(Op::OpLogicalAnd, b.compare(Op::OpINotEqual, drop, k(0)), b.compare(Op::OpLogicalOr, above, tie));
  uint32_t rounded = b.iadd(truncated, b.select(up, k(1), k(0)));
  uint32_t exact = b.op(Op::OpConvertUToF, type, {rounded});
  return b.glsl(GLSLstd450Ldexp, type, {exact, b.iadd(shift, drop)});
}

// `value` is integral (truncated) and not negative.
Pair unsignedFromFloat(ir::Builder& b, uint32_t value) {
  uint32_t type = b.typeOf(value);
  uint32_t half = b.uintType(type, 32);
  uint32_t highPart = b.glsl(GLSLstd450Floor, type, {b.fmul(value, b.real(type, 1.0 / 4294967296.0))});
  // Both parts are exact: value - highPart * 2^32 is below 2^32 and a multiple of value's ulp.
  uint32_t lowPart = b.fsub(value, b.fmul(highPart, b.real(type, 4294967296.0)));
  Pair x{b.op(Op::OpConvertFToU, half, {lowPart}), b.op(Op::OpConvertFToU, half, {highPart})};
  uint32_t over = b.compare(Op::OpFOrdGreaterThanEqual, value, b.real(type, 18446744073709551616.0));
  uint32_t positive = b.compare(Op::OpFOrdGreaterThan, value, b.real(type, 0.0));
  x = select(b, positive, x, constant(b, half, 0));
  return select(b, over, constant(b, half, ~0ull), x);
}

}  // namespace

uint32_t toFloat(ir::Builder& b, Pair x, uint32_t type, bool isSigned) {
  if (!isSigned) return unsignedToFloat(b, x, type);
  uint32_t negative = isNegative(b, x);
  uint32_t magnitude = unsignedToFloat(b, select(b, negative, negate(b, x), x), type);
  return b.select(negative, b.op(Op::OpFNegate, type, {magnitude}), magnitude);
}

Pair fromFloat(ir::Builder& b, uint32_t value, bool isSigned) {
  uint32_t type = b.typeOf(value);
  if (b.width(type) == 16) {
    type = b.floatType(type, 32);
    value = b.op(Op::OpFConvert, type, {value});  // exact
  }
  uint32_t truncated = b.glsl(GLSLstd450Trunc, type, {value});
  if (!isSigned) return unsignedFromFloat(b, truncated);
  uint32_t half = b.uintType(type, 32);
  uint32_t negative = b.compare(Op::OpFOrdLessThan, truncated, b.real(type, 0.0));
  uint32_t magnitude = b.glsl(GLSLstd450FAbs, type, {truncated});
  Pair unsignedValue = unsignedFromFloat(b, magnitude);
  Pair result = select(b, negative, negate(b, unsignedValue), unsignedValue);
  uint32_t tooLarge = b.compare(Op::OpFOrdGreaterThanEqual, magnitude, b.real(type, 9223372036854775808.0));
  Pair limit = select(b, negative, constant(b, half, 1ull << 63), constant(b, half, ~0ull >> 1));
  return select(b, tooLarge, limit, result);
}

}  // namespace cl2vk::int64
