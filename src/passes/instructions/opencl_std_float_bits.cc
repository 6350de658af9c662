#include "passes/instructions/opencl_std_float_bits.h"

#include "ir/types.h"

namespace cl2vk {

FloatFormat formatOf(uint32_t width) {
  switch (width) {
    case 16: return {16, 10, 5, 15};
    case 32: return {32, 23, 8, 127};
    default: return {64, 52, 11, 1023};
  }
}

namespace {

// Whether the magnitude `kept` (the bits kept after shifting, as an unsigned integer) must go up
// by one, given the bits shifted out (`rem`) and the value of half a unit in the last kept place.
uint32_t roundsUp(ir::Builder& e, uint32_t kept, uint32_t rem, uint32_t half, uint32_t negative, Rounding mode) {
  uint32_t type = e.typeOf(kept);
  uint32_t inexact = e.compare(spv::Op::OpINotEqual, rem, e.bits(type, 0));
  switch (mode) {
    case Rounding::kNearestEven: {
      uint32_t above = e.compare(spv::Op::OpUGreaterThan, rem, half);
      uint32_t tie = e.compare(spv::Op::OpIEqual, rem, half);
      uint32_t odd = e.compare(spv::Op::OpINotEqual, e.bitAnd(kept, e.bits(type, 1)), e.bits(type, 0));
      uint32_t up = e.compare(spv::Op::OpLogicalOr, above, e.compare(spv::Op::OpLogicalAnd, tie, odd));
      return e.compare(spv::Op::OpLogicalAnd, inexact, up);
    }
    case Rounding::kTowardZero: return e.splat(e.boolType(type), ir::constantBool(e.module(), false));
    case Rounding::kTowardPositive:
      return e.compare(spv::Op::OpLogicalAnd, inexact, e.test(spv::Op::OpLogicalNot, negative));
    case Rounding::kTowardNegative: return e.compare(spv::Op::OpLogicalAnd, inexact, negative);
  }
  return inexact;
}

// `bits` (a magnitude in format `dst`, possibly past the largest finite value) with overflow
// resolved as `mode` says: infinity, or the largest finite value when rounding goes toward it.
uint32_t resolveOverflow(ir::Builder& e, uint32_t bits, uint32_t negative, const FloatFormat& dst, Rounding mode) {
  uint32_t type = e.typeOf(bits);
  uint32_t infinity = e.bits(type, dst.infinityBits());
  uint32_t largest = e.bits(type, dst.infinityBits() - 1);
  uint32_t overflowValue = infinity;
  if (mode == Rounding::kTowardZero) overflowValue = largest;
  if (mode == Rounding::kTowardPositive) overflowValue = e.select(negative, largest, infinity);
  if (mode == Rounding::kTowardNegative) overflowValue = e.select(negative, infinity, largest);
  uint32_t overflow = e.compare(spv::Op::OpUGreaterThanEqual, bits, infinity);
  return e.select(overflow, overflowValue, bits);
}

uint32_t withSign(ir::Builder& e, uint32_t magnitude, uint32_t negative, const FloatFormat& dst) {
  uint32_t type = e.typeOf(magnitude);
  return e.bitOr(magnitude, e.select(negative, e.bits(type, dst.signBit()), e.bits(type, 0)));
}

}  // namespace

Rounding roundingFromSpirv(uint32_t mode) {
  switch (static_cast<spv::FPRoundingMode>(mode)) {
    case spv::FPRoundingMode::RTZ: return Rounding::kTowardZero;
    case spv::FPRoundingMode::RTP: return Rounding::kTowardPositive;
    case spv::FPRoundingMode::RTN: return Rounding::kTowardNegative;
    default: return Rounding::kNearestEven;
  }
}

uint32_t findMsb(ir::Builder& e, uint32_t value) {
  uint32_t type = e.typeOf(value);
  if (e.width(type) <= 32) return e.glsl(GLSLstd450FindUMsb, type, {value});
  uint32_t type32 = e.uintType(type, 32);
  uint32_t high = e.resize(e.lshr(value, e.bits(type, 32)), 32);
  uint32_t low = e.resize(value, 32);
  uint32_t highMsb = e.iadd(e.glsl(GLSLstd450FindUMsb, type32, {high}), e.bits(type32, 32));
  uint32_t lowMsb = e.glsl(GLSLstd450FindUMsb, type32, {low});
  uint32_t msb = e.select(e.compare(spv::Op::OpINotEqual, high, e.bits(type32, 0)), highMsb, lowMsb);
  return e.resizeSigned(msb, 64);
}

uint32_t narrowFloatBits(ir::Builder& e, uint32_t value, uint32_t dstWidth, Rounding mode) {
  uint32_t floatType = e.typeOf(value);
  FloatFormat src = formatOf(e.width(floatType)), dst = formatOf(dstWidth);
  uint32_t type = e.uintType(floatType, src.width);
  auto k = [&](uint64_t bits) { return e.bits(type, bits); };

  uint32_t u = e.bitcast(type, value);
  uint32_t negative = e.compare(spv::Op::OpINotEqual, e.bitAnd(u, k(src.signBit())), k(0));
  uint32_t magnitude = e.bitAnd(u, k(src.signBit() - 1));
  uint32_t exponent = e.lshr(magnitude, k(src.mantissaBits));
  uint32_t fraction = e.bitAnd(magnitude, k((1ull << src.mantissaBits) - 1));
  uint32_t normal = e.compare(spv::Op::OpINotEqual, exponent, k(0));
  // The significand with its implicit bit, and the exponent a denormal really has.
  uint32_t significand = e.bitOr(fraction, e.select(normal, k(1ull << src.mantissaBits), k(0)));
  uint32_t biased = e.select(normal, exponent, k(1));
  // How far below the destination's smallest normal exponent the value lies (then it becomes a
  // destination denormal and loses that many more bits).
  uint32_t below = e.isub(k(1 + src.bias - dst.bias), biased);
  uint32_t denormal = e.compare(spv::Op::OpSGreaterThan, below, k(0));
  uint32_t extraShift = e.select(denormal, below, k(0));
  uint32_t shift = e.glsl(GLSLstd450UMin, type,
                          {e.iadd(extraShift, k(src.mantissaBits - dst.mantissaBits)), k(src.mantissaBits + 2)});
  // (exponent - 1) << mantissa, plus the shifted significand whose implicit bit adds the one back.
  uint32_t base = e.select(denormal, k(0), e.shl(e.isub(biased, k(src.bias - dst.bias + 1)), k(dst.mantissaBits)));
  uint32_t kept = e.iadd(base, e.lshr(significand, shift));
  uint32_t unit = e.shl(k(1), shift);
  uint32_t rem = e.bitAnd(significand, e.isub(unit, k(1)));
  uint32_t half = e.lshr(unit, k(1));
  uint32_t up = roundsUp(e, kept, rem, half, negative, mode);
  uint32_t rounded = resolveOverflow(e, e.iadd(kept, e.select(up, k(1), k(0))), negative, dst, mode);

  uint32_t srcInfinity = k(src.infinityBits());
  uint32_t isInfinity = e.compare(spv::Op::OpIEqual, magnitude, srcInfinity);
  uint32_t isNan = e.compare(spv::Op::OpUGreaterThan, magnitude, srcInfinity);
  rounded = e.select(isInfinity, k(dst.infinityBits()), rounded);
  uint32_t nan = e.bitOr(k(dst.infinityBits() | (1ull << (dst.mantissaBits - 1))),
                         e.lshr(fraction, k(src.mantissaBits - dst.mantissaBits)));
  rounded = e.select(isNan, nan, rounded);
  return withSign(e, rounded, negative, dst);
}

uint32_t narrowFloat(ir::Builder& e, uint32_t value, uint32_t dstType, Rounding mode) {
  uint32_t dstWidth = e.width(dstType);
  uint32_t bits = e.resize(narrowFloatBits(e, value, dstWidth, mode), dstWidth);
  return e.bitcast(dstType, bits);
}

uint32_t intToFloat(ir::Builder& e, uint32_t value, bool isSigned, uint32_t dstType, Rounding mode) {
  uint32_t srcType = e.typeOf(value);
  uint32_t srcWidth = e.width(srcType);
  FloatFormat dst = formatOf(e.width(dstType));
  if (srcWidth <= dst.mantissaBits + 1)  // every source value is representable: nothing rounds
    return e.op(isSigned ? spv::Op::OpConvertSToF : spv::Op::OpConvertUToF, dstType, {value});

  uint32_t workWidth = srcWidth <= 32 ? 32 : 64;
  uint32_t v = isSigned ? e.resizeSigned(value, workWidth) : e.resize(value, workWidth);
  uint32_t type = e.typeOf(v);
  auto k = [&](uint64_t bits) { return e.bits(type, bits); };
  uint32_t negative = isSigned ? e.compare(spv::Op::OpSLessThan, v, k(0))
                               : e.splat(e.boolType(type), ir::constantBool(e.module(), false));
  // |INT_MIN| is its own bit pattern read as unsigned, which is right.
  uint32_t magnitude = isSigned ? e.select(negative, e.isub(k(0), v), v) : v;
  uint32_t msb = findMsb(e, magnitude);
  uint32_t left = e.glsl(GLSLstd450SMax, type, {e.isub(k(dst.mantissaBits), msb), k(0)});
  uint32_t right = e.glsl(GLSLstd450SMax, type, {e.isub(msb, k(dst.mantissaBits)), k(0)});
  uint32_t kept = e.lshr(e.shl(magnitude, left), right);
  uint32_t unit = e.shl(k(1), right);
  uint32_t rem = e.bitAnd(magnitude, e.isub(unit, k(1)));
  uint32_t half = e.lshr(unit, k(1));
  uint32_t up = roundsUp(e, kept, rem, half, negative, mode);
  // The significand's implicit bit, kept at bit `mantissaBits`, adds the last one to the exponent.
  uint32_t exponentField = e.shl(e.iadd(msb, k(dst.bias - 1)), k(dst.mantissaBits));
  uint32_t bits = e.iadd(e.iadd(exponentField, kept), e.select(up, k(1), k(0)));
  bits = e.select(e.compare(spv::Op::OpIEqual, magnitude, k(0)), k(0), bits);
  bits = withSign(e, resolveOverflow(e, bits, negative, dst, mode), negative, dst);
  return e.bitcast(dstType, e.resize(bits, dst.width));
}

uint32_t halfBitsToFloat(ir::Builder& e, uint32_t bits, uint32_t dstType) {
  uint32_t b = e.resize(bits, 32);
  uint32_t type = e.typeOf(b);
  auto k = [&](uint64_t value) { return e.bits(type, value); };
  uint32_t floatType = e.floatType(type, 32);
  uint32_t sign = e.shl(e.bitAnd(b, k(0x8000)), k(16));
  uint32_t exponent = e.bitAnd(e.lshr(b, k(10)), k(31));
  uint32_t fraction = e.bitAnd(b, k(0x3ff));
  uint32_t normal = e.bitOr(e.shl(e.iadd(exponent, k(127 - 15)), k(23)), e.shl(fraction, k(13)));
  uint32_t special = e.bitOr(k(0x7f800000), e.shl(fraction, k(13)));
  // A half denormal is fraction * 2^-24, a normal float: the product is exact.
  uint32_t denormalValue = e.fmul(e.op(spv::Op::OpConvertUToF, floatType, {fraction}), e.real(floatType, 0x1p-24));
  uint32_t denormal = e.bitcast(type, denormalValue);
  uint32_t magnitude = e.select(e.compare(spv::Op::OpIEqual, exponent, k(0)), denormal,
                                e.select(e.compare(spv::Op::OpIEqual, exponent, k(31)), special, normal));
  uint32_t result = e.bitcast(floatType, e.bitOr(magnitude, sign));
  if (e.width(dstType) == 32) return result;
  return e.op(spv::Op::OpFConvert, dstType, {result});  // widening is exact
}

}  // namespace cl2vk
