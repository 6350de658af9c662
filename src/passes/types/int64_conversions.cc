// Conversions between 64-bit integer pairs and floats. Vulkan rounds 32-bit integer to float
// conversions correctly, and scaling by a power of two is exact, so each direction is built from
// those without a second rounding.
#include "passes/types/int64_lowering.h"

namespace cl2vk::int64 {

using spv::Op;

namespace {

uint32_t unsignedToFloat(ir::Builder& b, Pair x, uint32_t type) {
  uint32_t half = b.typeOf(x.lo);
  uint32_t zero = b.bits(half, 0);
  uint32_t highIsZero = b.compare(Op::OpIEqual, x.hi, zero);
  uint32_t fromLow = b.op(Op::OpConvertUToF, type, {x.lo});
  if (b.width(type) == 64) {
    // Both halves convert exactly; the one rounding is the add's.
    uint32_t high = b.fmul(b.op(Op::OpConvertUToF, type, {x.hi}), b.real(type, 4294967296.0));
    return b.fadd(high, fromLow);
  }
  if (b.width(type) == 16) {
    // A value of 2^32 or more is beyond half's range: infinity, as rounding would give.
    return b.select(highIsZero, fromLow, b.bits(type, 0x7c00));
  }
  // The top 32 significant bits, with the bits shifted out kept as a sticky lowest bit, round to
  // float exactly as the whole value would; then the exact scale by 2^shift. shift is 1..32.
  uint32_t shift = b.glsl(GLSLstd450UMax, half,
                          {b.iadd(b.glsl(GLSLstd450FindUMsb, half, {x.hi}), b.bits(half, 1)), b.bits(half, 1)});
  uint32_t fromLowHalf = b.lshr(b.lshr(x.lo, b.bits(half, 1)), b.isub(shift, b.bits(half, 1)));
  uint32_t kept = b.bitOr(fromLowHalf, b.shl(x.hi, b.isub(b.bits(half, 32), shift)));
  uint32_t dropped = b.shl(x.lo, b.isub(b.bits(half, 32), shift));
  uint32_t sticky = b.select(b.compare(Op::OpINotEqual, dropped, zero), b.bits(half, 1), zero);
  uint32_t rounded = b.op(Op::OpConvertUToF, type, {b.bitOr(kept, sticky)});
  return b.select(highIsZero, fromLow, b.glsl(GLSLstd450Ldexp, type, {rounded, shift}));
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
