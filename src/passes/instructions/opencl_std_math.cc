// Float math and common OpenCL.std instructions. Where GLSL.std.450 has the same
// function with the same special cases it is used directly; where OpenCL pins down what GLSL
// leaves undefined (NaN operands of fmin/fmax, round's halfway cases, pow of negative bases,
// fract's upper bound, frexp/modf of infinities) the lowering adds the selects that make it so.
// GLSL.std.450's transcendental functions take 16- and 32-bit floats only, so their 64-bit forms
// are reported as unsupported rather than computed in single precision.
#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ir/types.h"
#include "passes/instructions/full_range_division.h"
#include "passes/instructions/opencl_std_float_bits.h"
#include "passes/instructions/opencl_std_lowerings.h"

namespace cl2vk {
namespace {

using Lowered = Expected<uint32_t>;

uint32_t arg(ir::Builder& e, const ExtCall& c, size_t index) { return argAs(e, c, index, c.type); }

// The int type (of the result's shape) that OpenCL pairs with a float: ldexp's and pown's
// exponent, frexp's exponent.
uint32_t intArg(ir::Builder& e, const ExtCall& c, size_t index) {
  return argAs(e, c, index, e.uintType(c.type, e.width(e.typeOf(c.args[index]))));
}

Lowered rejectDouble(ir::Builder& e, const ExtCall& c) {
  return unsupported(e, c, " on 64-bit floats: GLSL.std.450 has it for 16- and 32-bit floats only");
}

bool isDouble(ir::Builder& e, const ExtCall& c) { return e.width(c.type) == 64; }

uint32_t signMask(ir::Builder& e, uint32_t type) {
  return e.bits(e.uintType(type, e.width(type)), 1ull << (e.width(type) - 1));
}

// The magnitude of `magnitude` with the sign of `sign` (bit operations: exact for NaN and zero).
uint32_t withSignOf(ir::Builder& e, uint32_t magnitude, uint32_t sign) {
  uint32_t type = e.typeOf(magnitude);
  uint32_t uintType = e.uintType(type, e.width(type));
  uint32_t mask = signMask(e, type);
  uint32_t bits =
      e.bitOr(e.bitAnd(e.bitcast(uintType, magnitude), e.bitNot(mask)), e.bitAnd(e.bitcast(uintType, sign), mask));
  return e.bitcast(type, bits);
}

uint32_t signBitSet(ir::Builder& e, uint32_t x) {
  uint32_t type = e.typeOf(x);
  uint32_t uintType = e.uintType(type, e.width(type));
  return e.compare(spv::Op::OpINotEqual, e.bitAnd(e.bitcast(uintType, x), signMask(e, type)), e.bits(uintType, 0));
}

uint32_t either(ir::Builder& e, uint32_t a, uint32_t b) { return e.compare(spv::Op::OpLogicalOr, a, b); }
uint32_t both(ir::Builder& e, uint32_t a, uint32_t b) { return e.compare(spv::Op::OpLogicalAnd, a, b); }
uint32_t nan(ir::Builder& e, uint32_t type) { return e.real(type, std::nan("")); }
uint32_t infinity(ir::Builder& e, uint32_t type) { return e.real(type, INFINITY); }

template <GLSLstd450 kOp>
Lowered glslAnyWidth(ir::Builder& e, const ExtCall& c) {
  std::vector<uint32_t> args;
  for (size_t i = 0; i < c.args.size(); ++i) args.push_back(arg(e, c, i));
  return e.glsl(kOp, c.type, args);
}

// GLSL.std.450 instructions defined for 16- and 32-bit floats only (the transcendentals).
template <GLSLstd450 kOp>
Lowered glslNarrow(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  return glslAnyWidth<kOp>(e, c);
}

Lowered lowerRound(ir::Builder& e, const ExtCall& c) {
  // Halfway cases go away from zero; GLSL's Round leaves their direction open.
  uint32_t x = c.args[0];
  uint32_t truncated = e.glsl(GLSLstd450Trunc, c.type, {x});
  uint32_t fraction = e.glsl(GLSLstd450FAbs, c.type, {e.fsub(x, truncated)});  // exact
  uint32_t away = e.fadd(truncated, e.glsl(GLSLstd450FSign, c.type, {x}));
  return e.select(e.compare(spv::Op::OpFOrdGreaterThanEqual, fraction, e.real(c.type, 0.5)), away, truncated);
}

Lowered lowerFract(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0];
  uint32_t floor = e.glsl(GLSLstd450Floor, c.type, {x});
  double belowOne = 1.0 - std::ldexp(1.0, -int(e.width(c.type) == 16 ? 11 : e.width(c.type) == 32 ? 24 : 53));
  uint32_t fraction = e.glsl(GLSLstd450NMin, c.type, {e.fsub(x, floor), e.real(c.type, belowOne)});
  fraction = e.select(e.test(spv::Op::OpIsInf, x), withSignOf(e, e.real(c.type, 0.0), x), fraction);
  fraction = e.select(e.test(spv::Op::OpIsNan, x), x, fraction);
  e.store(c.args[1], floor);
  return fraction;
}

Lowered lowerModf(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0];
  uint32_t integral = e.glsl(GLSLstd450Trunc, c.type, {x});
  uint32_t fraction = e.select(e.test(spv::Op::OpIsInf, x), e.real(c.type, 0.0), e.fsub(x, integral));
  e.store(c.args[1], integral);
  return withSignOf(e, fraction, x);  // modf(-2.0) is -0.0
}

// frexp from the bits, in integer arithmetic: GLSL's FrexpStruct need not take denormals
// (llvmpipe gives every float denormal the exponent -126, and a mantissa below 0.5), and a device
// that flushes them could not scale them up first. A denormal's fraction moves up until its
// leading one is the implicit bit.
Lowered lowerFrexp(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0];
  const FloatFormat format = formatOf(e.width(c.type));
  const uint32_t width = format.width, mantissaBits = format.mantissaBits;
  const uint64_t bias = format.bias, fractionMask = (1ull << mantissaBits) - 1;
  uint32_t bitsType = e.uintType(c.type, width);
  uint32_t intType = e.uintType(c.type, 32);
  auto k = [&](uint64_t value) { return e.bits(bitsType, value); };
  auto k32 = [&](int64_t value) { return e.bits(intType, uint64_t(value)); };

  uint32_t bits = e.bitcast(bitsType, x);
  uint32_t magnitude = e.bitAnd(bits, e.bitNot(signMask(e, c.type)));
  uint32_t fraction = e.bitAnd(bits, k(fractionMask));
  uint32_t exponentField = e.resize(e.lshr(magnitude, k(mantissaBits)), 32);
  // The leading one of a denormal's fraction, below bit `mantissaBits`.
  uint32_t msb = e.resizeSigned(findMsb(e, e.resize(fraction, std::max(width, 32u))), 32);
  uint32_t denormal = e.compare(spv::Op::OpIEqual, exponentField, k32(0));
  uint32_t shift = e.resize(e.isub(k32(mantissaBits), msb), width);
  uint32_t normalized = e.select(denormal, e.bitAnd(e.shl(fraction, shift), k(fractionMask)), fraction);
  uint32_t mantissa = e.bitOr(e.bitAnd(bits, signMask(e, c.type)), e.bitOr(k((bias - 1) << mantissaBits), normalized));
  // x = 0.1f * 2^(E - bias + 1) for a normal x, and 0.1f * 2^(msb + 2 - bias - mantissaBits) for a
  // denormal.
  uint32_t exponent = e.select(denormal, e.iadd(msb, k32(2 - int64_t(bias) - int64_t(mantissaBits))),
                               e.isub(exponentField, k32(int64_t(bias) - 1)));
  // Zeros, infinities and NaNs are their own mantissa, with the exponent 0.
  uint32_t special = either(e, e.compare(spv::Op::OpIEqual, magnitude, k(0)),
                            e.compare(spv::Op::OpIEqual, exponentField, k32((1 << format.exponentBits) - 1)));
  e.store(c.args[1], e.select(special, k32(0), exponent));
  return e.select(special, x, e.bitcast(c.type, mantissa));
}

// x * 2^n, rounded once, for every int n. GLSL's Ldexp is undefined for exponents past the type's
// range (llvmpipe gave a finite x * 2^254 for a denormal x and n = 948564122, where the answer is
// infinity: the CTS's math_brute_force). As musl's scalbn does, x is scaled at most twice by 2^emax
// or by 2^(emin + precision) while n lies outside [emin, emax], then by 2^n: a step before the last
// is exact, or rounds only where the last step then rounds to zero. Every power of two is built
// from its bits.
uint32_t scaledByPowerOfTwo(ir::Builder& e, uint32_t type, uint32_t x, uint32_t n) {
  const FloatFormat format = formatOf(e.width(type));
  const int64_t emax = format.bias, emin = 1 - int64_t(format.bias);
  const int64_t down = emin + format.mantissaBits + 1;  // float: 2^-102
  uint32_t intType = e.typeOf(n);
  auto k = [&](int64_t value) { return e.bits(intType, uint64_t(value)); };
  auto powerOfTwo = [&](uint32_t exponent) {  // for an exponent in [emin, emax]
    uint32_t field = e.resize(e.iadd(exponent, k(format.bias)), format.width);
    return e.bitcast(type, e.shl(field, e.bits(e.typeOf(field), format.mantissaBits)));
  };
  for (int step = 0; step < 2; ++step) {
    uint32_t below = e.select(e.compare(spv::Op::OpSLessThan, n, k(emin)), k(down), k(0));
    uint32_t scale = e.select(e.compare(spv::Op::OpSGreaterThan, n, k(emax)), k(emax), below);
    x = e.fmul(x, powerOfTwo(scale));
    n = e.isub(n, scale);
  }
  return e.fmul(x, powerOfTwo(e.glsl(GLSLstd450SClamp, intType, {n, k(emin), k(emax)})));
}

// Half in float, where a half times 2^n is exact for |n| <= 64 (past that it overflows or
// vanishes in half whatever n), rounded once.
Lowered lowerLdexp(ir::Builder& e, const ExtCall& c) {
  uint32_t n = intArg(e, c, 1);
  if (e.width(c.type) != 16) return scaledByPowerOfTwo(e, c.type, c.args[0], n);
  uint32_t floatType = e.floatType(c.type, 32);
  uint32_t intType = e.typeOf(n);
  n = e.glsl(GLSLstd450SClamp, intType, {n, e.bits(intType, uint64_t(-64)), e.bits(intType, 64)});
  uint32_t wide = scaledByPowerOfTwo(e, floatType, e.op(spv::Op::OpFConvert, floatType, {c.args[0]}), n);
  return narrowFloat(e, wide, c.type, Rounding::kNearestEven);
}

Lowered lowerCopysign(ir::Builder& e, const ExtCall& c) { return withSignOf(e, c.args[0], arg(e, c, 1)); }

Lowered lowerSign(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0];
  uint32_t sign = e.glsl(GLSLstd450FSign, c.type, {x});
  sign = e.select(e.test(spv::Op::OpIsNan, x), e.real(c.type, 0.0), sign);
  return e.select(e.compare(spv::Op::OpFOrdEqual, x, e.real(c.type, 0.0)), x, sign);  // keeps -0.0
}

Lowered lowerDegrees(ir::Builder& e, const ExtCall& c) {
  return e.fmul(c.args[0], e.real(c.type, 180.0 / std::numbers::pi));
}

Lowered lowerRadians(ir::Builder& e, const ExtCall& c) {
  return e.fmul(c.args[0], e.real(c.type, std::numbers::pi / 180.0));
}

Lowered lowerFmod(ir::Builder& e, const ExtCall& c) { return e.op(spv::Op::OpFRem, c.type, {c.args[0], arg(e, c, 1)}); }

Lowered lowerFdim(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = arg(e, c, 1);
  uint32_t difference = e.select(e.compare(spv::Op::OpFOrdGreaterThan, x, y), e.fsub(x, y), e.real(c.type, 0.0));
  return e.select(either(e, e.test(spv::Op::OpIsNan, x), e.test(spv::Op::OpIsNan, y)), nan(e, c.type), difference);
}

// The magnitude of float `x` as an unsigned integer (its bits without the sign): integers order
// magnitudes exactly, also where a device that flushes float denormals would compare them as zero
// while passing them through a select unflushed (NVIDIA: minmag, maxmag and nextafter of denormals
// gave results neither exact nor flushed, the CTS's math_brute_force).
uint32_t magnitudeBits(ir::Builder& e, uint32_t x) {
  uint32_t type = e.typeOf(x);
  return e.bitAnd(e.bitcast(e.uintType(type, e.width(type)), x), e.bitNot(signMask(e, type)));
}

template <bool kMax>
Lowered lowerMagnitudeSelect(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = arg(e, c, 1);
  uint32_t ax = magnitudeBits(e, x), ay = magnitudeBits(e, y);
  spv::Op wins = kMax ? spv::Op::OpUGreaterThan : spv::Op::OpULessThan;
  // Equal magnitudes: fmax(x, y) is the one without the sign, fmin the one with it.
  uint32_t tie = e.select(signBitSet(e, x), kMax ? y : x, kMax ? x : y);
  uint32_t result = e.select(e.compare(wins, ax, ay), x, e.select(e.compare(wins, ay, ax), y, tie));
  // A NaN operand: fmax and fmin give the other one.
  uint32_t orNan = e.glsl(kMax ? GLSLstd450NMax : GLSLstd450NMin, c.type, {x, y});
  return e.select(either(e, e.test(spv::Op::OpIsNan, x), e.test(spv::Op::OpIsNan, y)), orNan, result);
}

Lowered lowerNan(ir::Builder& e, const ExtCall& c) {
  const FloatFormat format = formatOf(e.width(c.type));
  const uint32_t width = format.width, mantissaBits = format.mantissaBits;
  uint32_t bitsType = e.uintType(c.type, width);
  uint64_t quietNan = format.infinityBits() | 1ull << (mantissaBits - 1);
  uint32_t code = e.bitAnd(e.resize(c.args[0], width), e.bits(bitsType, (1ull << mantissaBits) - 1));
  return e.bitcast(c.type, e.bitOr(code, e.bits(bitsType, quietNan)));
}

// nextafter in integers: each float as a signed integer that orders them as the reals (its
// magnitude, negated for a negative float; both zeros 0), moved one toward y's.
Lowered lowerNextafter(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = arg(e, c, 1);
  uint32_t bitsType = e.uintType(c.type, e.width(c.type));
  uint32_t zero = e.bits(bitsType, 0);
  auto ordered = [&](uint32_t value) {
    uint32_t magnitude = magnitudeBits(e, value);
    return e.select(signBitSet(e, value), e.isub(zero, magnitude), magnitude);
  };
  uint32_t kx = ordered(x), ky = ordered(y);
  uint32_t up = e.compare(spv::Op::OpSLessThan, kx, ky);
  uint32_t step = e.iadd(kx, e.select(up, e.bits(bitsType, 1), e.bits(bitsType, ~0ull)));
  // Back to a float's bits; a step onto zero keeps x's sign (nextafter(-denorm_min, 1) is -0).
  uint32_t negative = e.compare(spv::Op::OpSLessThan, step, zero);
  uint32_t bits = e.select(negative, e.bitOr(signMask(e, c.type), e.isub(zero, step)), step);
  bits =
      e.select(e.compare(spv::Op::OpIEqual, step, zero), e.bitAnd(e.bitcast(bitsType, x), signMask(e, c.type)), bits);
  uint32_t result = e.select(e.compare(spv::Op::OpIEqual, kx, ky), y, e.bitcast(c.type, bits));
  return e.select(either(e, e.test(spv::Op::OpIsNan, x), e.test(spv::Op::OpIsNan, y)), nan(e, c.type), result);
}

// hypot(x, y) of type `type` (32 or 64 bits), scaled so that squaring neither overflows nor
// underflows.
uint32_t hypotOf(ir::Builder& e, uint32_t type, uint32_t x, uint32_t y) {
  uint32_t ax = e.glsl(GLSLstd450FAbs, type, {x}), ay = e.glsl(GLSLstd450FAbs, type, {y});
  uint32_t large = e.glsl(GLSLstd450NMax, type, {ax, ay}), small = e.glsl(GLSLstd450NMin, type, {ax, ay});
  uint32_t one = e.real(type, 1.0);
  // Vulkan defines OpFDiv for divisors in [2^-126, 2^126] only (NVIDIA's reciprocal of a larger
  // one is flushed, and hypot(FLT_MAX, FLT_MAX) was FLT_MAX there): both operands are scaled
  // by 2^-64 where the larger is above 2^64 and by 2^64 where it is below 2^-64, exactly (a
  // smaller operand scaled into the denormals would not move the result).
  uint32_t up = e.real(type, 0x1p64), down = e.real(type, 0x1p-64);
  uint32_t huge = e.compare(spv::Op::OpFOrdGreaterThan, large, up);
  uint32_t tiny = e.compare(spv::Op::OpFOrdLessThan, large, down);
  uint32_t scaleUp = e.select(tiny, up, one);
  uint32_t scale = e.select(huge, down, scaleUp);
  uint32_t smallScaled = e.fmul(small, scale);
  uint32_t largeScaled = e.fmul(large, scale);
  uint32_t ratio = e.fdiv(smallScaled, largeScaled);
  uint32_t result = e.fmul(large, e.glsl(GLSLstd450Sqrt, type, {e.fadd(one, e.fmul(ratio, ratio))}));
  // Zero where the larger is zero, or a denormal that a flushing device sees as zero (NVIDIA:
  // returning it gave |x| for hypot of two denormals, neither the answer nor the flushed one).
  uint32_t zero = e.real(type, 0.0);
  result = e.select(e.compare(spv::Op::OpFOrdEqual, large, zero), zero, result);
  result = e.select(either(e, e.test(spv::Op::OpIsNan, x), e.test(spv::Op::OpIsNan, y)), nan(e, type), result);
  return e.select(either(e, e.test(spv::Op::OpIsInf, x), e.test(spv::Op::OpIsInf, y)), infinity(e, type), result);
}

Lowered lowerHypot(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = arg(e, c, 1);
  if (e.width(c.type) != 16) return hypotOf(e, c.type, x, y);
  // half: the float function of the widened operands, rounded once (computed in half, the ratio's
  // and the square root's roundings added up to 2.27 ULP: the CTS's math_brute_force).
  uint32_t floatType = e.floatType(c.type, 32);
  uint32_t wide =
      hypotOf(e, floatType, e.op(spv::Op::OpFConvert, floatType, {x}), e.op(spv::Op::OpFConvert, floatType, {y}));
  return narrowFloat(e, wide, c.type, Rounding::kNearestEven);
}

// pow(|x|, y) with the sign and special cases OpenCL gives a negative or zero base, which GLSL's
// Pow leaves undefined. `yIsInteger` and `yIsOdd` come from the caller (pown knows them exactly).
uint32_t powWithSign(ir::Builder& e, uint32_t type, uint32_t x, uint32_t y, uint32_t yIsInteger, uint32_t yIsOdd) {
  uint32_t zero = e.real(type, 0.0);
  uint32_t ax = e.glsl(GLSLstd450FAbs, type, {x});
  uint32_t result = e.glsl(GLSLstd450Pow, type, {ax, y});
  uint32_t zeroBaseNegativePower =
      both(e, e.compare(spv::Op::OpFOrdEqual, ax, zero), e.compare(spv::Op::OpFOrdLessThan, y, zero));
  result = e.select(zeroBaseNegativePower, infinity(e, type), result);
  result = e.select(both(e, signBitSet(e, x), yIsOdd), e.op(spv::Op::OpFNegate, type, {result}), result);
  uint32_t negativeBase = e.compare(spv::Op::OpFOrdLessThan, x, zero);
  result = e.select(both(e, negativeBase, e.test(spv::Op::OpLogicalNot, yIsInteger)), nan(e, type), result);
  uint32_t one = e.real(type, 1.0);
  result = e.select(e.compare(spv::Op::OpFOrdEqual, y, zero), one, result);
  return e.select(e.compare(spv::Op::OpFOrdEqual, x, one), one, result);
}

Lowered lowerPow(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  uint32_t x = c.args[0], y = arg(e, c, 1);
  uint32_t isInteger = e.compare(spv::Op::OpFOrdEqual, e.glsl(GLSLstd450Trunc, c.type, {y}), y);
  uint32_t halfY = e.fmul(y, e.real(c.type, 0.5));
  uint32_t isOdd =
      both(e, isInteger, e.compare(spv::Op::OpFOrdNotEqual, e.glsl(GLSLstd450Trunc, c.type, {halfY}), halfY));
  return powWithSign(e, c.type, x, y, isInteger, isOdd);
}

Lowered lowerPown(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  uint32_t n = intArg(e, c, 1);
  uint32_t intType = e.typeOf(n);
  uint32_t y = e.op(spv::Op::OpConvertSToF, c.type, {n});
  uint32_t isOdd = e.compare(spv::Op::OpINotEqual, e.bitAnd(n, e.bits(intType, 1)), e.bits(intType, 0));
  uint32_t isInteger = e.splat(e.boolType(c.type), ir::constantBool(e.module(), true));
  return powWithSign(e, c.type, c.args[0], y, isInteger, isOdd);
}

Lowered lowerRootn(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  uint32_t x = c.args[0], n = intArg(e, c, 1);
  uint32_t intType = e.typeOf(n);
  uint32_t y = e.fdiv(e.real(c.type, 1.0), e.op(spv::Op::OpConvertSToF, c.type, {n}));
  uint32_t isOdd = e.compare(spv::Op::OpINotEqual, e.bitAnd(n, e.bits(intType, 1)), e.bits(intType, 0));
  uint32_t zero = e.real(c.type, 0.0);
  uint32_t ax = e.glsl(GLSLstd450FAbs, c.type, {x});
  uint32_t result = e.glsl(GLSLstd450Pow, c.type, {ax, y});
  uint32_t negativePower = e.compare(spv::Op::OpSLessThan, n, e.bits(intType, 0));
  result = e.select(both(e, e.compare(spv::Op::OpFOrdEqual, ax, zero), negativePower), infinity(e, c.type), result);
  result = e.select(isOdd, withSignOf(e, result, x), result);
  uint32_t noRoot = either(e, e.compare(spv::Op::OpIEqual, n, e.bits(intType, 0)),
                           both(e, e.compare(spv::Op::OpFOrdLessThan, x, zero), e.test(spv::Op::OpLogicalNot, isOdd)));
  return e.select(noRoot, nan(e, c.type), result);
}

Lowered lowerPowr(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  uint32_t x = c.args[0], y = arg(e, c, 1);
  uint32_t zero = e.real(c.type, 0.0);
  uint32_t result = e.glsl(GLSLstd450Pow, c.type, {x, y});
  uint32_t zeroBaseNegativePower =
      both(e, e.compare(spv::Op::OpFOrdEqual, x, zero), e.compare(spv::Op::OpFOrdLessThan, y, zero));
  result = e.select(zeroBaseNegativePower, infinity(e, c.type), result);
  return e.select(e.compare(spv::Op::OpFOrdLessThan, x, zero), nan(e, c.type), result);
}

Lowered lowerCbrt(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  uint32_t x = c.args[0];
  uint32_t root = e.glsl(GLSLstd450Pow, c.type, {e.glsl(GLSLstd450FAbs, c.type, {x}), e.real(c.type, 1.0 / 3.0)});
  return withSignOf(e, root, x);
}

// exp10 and log10 through the base-2 functions.
Lowered lowerExp10(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  return e.glsl(GLSLstd450Exp2, c.type, {e.fmul(c.args[0], e.real(c.type, std::log2(10.0)))});
}

// exp, exp2 and exp10 by the instructions, with a NaN argument's NaN: SwiftShader's Exp and Exp2
// give +inf for a NaN (CTS math_brute_force half_exp, half_exp2, half_exp10 there).
template <Lowered (*kLowering)(ir::Builder&, const ExtCall&)>
Lowered nanThrough(ir::Builder& e, const ExtCall& c) {
  Lowered value = kLowering(e, c);
  if (!value) return value;
  uint32_t x = c.args[0];
  return e.select(e.test(spv::Op::OpIsNan, x), x, *value);
}

Lowered lowerLog10(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  return e.fmul(e.glsl(GLSLstd450Log2, c.type, {c.args[0]}), e.real(c.type, std::log10(2.0)));
}

// expm1 and log1p by Kahan's correction, which keeps the small-argument accuracy that
// exp(x) - 1 and log(1 + x) lose.
Lowered lowerExpm1(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  uint32_t x = c.args[0];
  uint32_t one = e.real(c.type, 1.0);
  uint32_t u = e.glsl(GLSLstd450Exp, c.type, {x});
  uint32_t um1 = e.fsub(u, one);
  uint32_t result = e.fdiv(e.fmul(um1, x), e.glsl(GLSLstd450Log, c.type, {u}));
  result = e.select(e.compare(spv::Op::OpFOrdEqual, u, one), x, result);
  result = e.select(e.compare(spv::Op::OpFOrdEqual, um1, e.real(c.type, -1.0)), um1, result);
  return e.select(e.compare(spv::Op::OpFOrdEqual, u, infinity(e, c.type)), u, result);
}

Lowered lowerLog1p(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  uint32_t x = c.args[0];
  uint32_t one = e.real(c.type, 1.0);
  uint32_t u = e.fadd(one, x);
  uint32_t logU = e.glsl(GLSLstd450Log, c.type, {u});
  uint32_t result = e.fdiv(e.fmul(logU, x), e.fsub(u, one));
  result = e.select(e.compare(spv::Op::OpFOrdEqual, u, one), x, result);
  return e.select(
      either(e, e.test(spv::Op::OpIsInf, u), e.compare(spv::Op::OpFOrdLessThanEqual, u, e.real(c.type, 0.0))), logU,
      result);
}

// asinpi and friends: the GLSL function divided by pi.
template <GLSLstd450 kOp>
Lowered lowerOverPi(ir::Builder& e, const ExtCall& c) {
  Lowered angle = glslNarrow<kOp>(e, c);
  if (!angle) return angle;
  return e.fmul(*angle, e.real(c.type, 1.0 / std::numbers::pi));
}

Lowered lowerSincos(ir::Builder& e, const ExtCall& c) {
  if (isDouble(e, c)) return rejectDouble(e, c);
  e.store(c.args[1], e.glsl(GLSLstd450Cos, c.type, {c.args[0]}));
  return e.glsl(GLSLstd450Sin, c.type, {c.args[0]});
}

// NaN for NaN: NVIDIA's double InverseSqrt of a signalling NaN gave 0 (the CTS).
Lowered lowerRsqrt(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0];
  return e.select(e.test(spv::Op::OpIsNan, x), x, e.glsl(GLSLstd450InverseSqrt, c.type, {x}));
}

// half_divide's 8192 ULP hold for every divisor, which Vulkan's OpFDiv bounds only up to 2^126.
Lowered lowerDivide(ir::Builder& e, const ExtCall& c) { return fullRangeDivide(e, c.args[0], c.args[1]); }
Lowered lowerRecip(ir::Builder& e, const ExtCall& c) { return e.fdiv(e.real(c.type, 1.0), c.args[0]); }

}  // namespace

const ExtTable& mathLowerings() {
  using namespace OpenCLLIB;
  static const ExtTable table = {
      {Acos, {"acos", glslNarrow<GLSLstd450Acos>}},
      {Acosh, {"acosh", glslNarrow<GLSLstd450Acosh>}},
      {Acospi, {"acospi", lowerOverPi<GLSLstd450Acos>}},
      {Asin, {"asin", glslNarrow<GLSLstd450Asin>}},
      {Asinh, {"asinh", glslNarrow<GLSLstd450Asinh>}},
      {Asinpi, {"asinpi", lowerOverPi<GLSLstd450Asin>}},
      {Atan, {"atan", glslNarrow<GLSLstd450Atan>}},
      {Atan2, {"atan2", glslNarrow<GLSLstd450Atan2>}},
      {Atanh, {"atanh", glslNarrow<GLSLstd450Atanh>}},
      {Atanpi, {"atanpi", lowerOverPi<GLSLstd450Atan>}},
      {Atan2pi, {"atan2pi", lowerOverPi<GLSLstd450Atan2>}},
      {Cbrt, {"cbrt", lowerCbrt}},
      {Ceil, {"ceil", glslAnyWidth<GLSLstd450Ceil>}},
      {Copysign, {"copysign", lowerCopysign}},
      {Cos, {"cos", glslNarrow<GLSLstd450Cos>}},
      {Cosh, {"cosh", glslNarrow<GLSLstd450Cosh>}},
      {Cospi, {"cospi", nullptr}},
      {Erfc, {"erfc", nullptr}},
      {Erf, {"erf", nullptr}},
      {Exp, {"exp", nanThrough<glslNarrow<GLSLstd450Exp>>}},
      {Exp2, {"exp2", nanThrough<glslNarrow<GLSLstd450Exp2>>}},
      {Exp10, {"exp10", nanThrough<lowerExp10>}},
      {Expm1, {"expm1", lowerExpm1}},
      {Fabs, {"fabs", glslAnyWidth<GLSLstd450FAbs>}},
      {Fdim, {"fdim", lowerFdim}},
      {Floor, {"floor", glslAnyWidth<GLSLstd450Floor>}},
      {Fma, {"fma", glslAnyWidth<GLSLstd450Fma>}},
      {Fmax, {"fmax", glslAnyWidth<GLSLstd450NMax>}},
      {Fmin, {"fmin", glslAnyWidth<GLSLstd450NMin>}},
      {Fmod, {"fmod", lowerFmod}},
      {Fract, {"fract", lowerFract}},
      {Frexp, {"frexp", lowerFrexp}},
      {Hypot, {"hypot", lowerHypot}},
      {Ilogb, {"ilogb", nullptr}},
      {Ldexp, {"ldexp", lowerLdexp}},
      {Lgamma, {"lgamma", nullptr}},
      {Lgamma_r, {"lgamma_r", nullptr}},
      {Log, {"log", glslNarrow<GLSLstd450Log>}},
      {Log2, {"log2", glslNarrow<GLSLstd450Log2>}},
      {Log10, {"log10", lowerLog10}},
      {Log1p, {"log1p", lowerLog1p}},
      {Logb, {"logb", nullptr}},
      {Mad, {"mad", glslAnyWidth<GLSLstd450Fma>}},
      {Maxmag, {"maxmag", lowerMagnitudeSelect<true>}},
      {Minmag, {"minmag", lowerMagnitudeSelect<false>}},
      {Modf, {"modf", lowerModf}},
      {Nan, {"nan", lowerNan}},
      {Nextafter, {"nextafter", lowerNextafter}},
      {Pow, {"pow", lowerPow}},
      {Pown, {"pown", lowerPown}},
      {Powr, {"powr", lowerPowr}},
      {Remainder, {"remainder", nullptr}},
      {Remquo, {"remquo", nullptr}},
      {Rint, {"rint", glslAnyWidth<GLSLstd450RoundEven>}},
      {Rootn, {"rootn", lowerRootn}},
      {Round, {"round", lowerRound}},
      {Rsqrt, {"rsqrt", lowerRsqrt}},
      {Sin, {"sin", glslNarrow<GLSLstd450Sin>}},
      {Sincos, {"sincos", lowerSincos}},
      {Sinh, {"sinh", glslNarrow<GLSLstd450Sinh>}},
      {Sinpi, {"sinpi", nullptr}},
      {Sqrt, {"sqrt", glslAnyWidth<GLSLstd450Sqrt>}},
      {Tan, {"tan", glslNarrow<GLSLstd450Tan>}},
      {Tanh, {"tanh", glslNarrow<GLSLstd450Tanh>}},
      {Tanpi, {"tanpi", nullptr}},
      {Tgamma, {"tgamma", nullptr}},
      {Trunc, {"trunc", glslAnyWidth<GLSLstd450Trunc>}},
      {Half_cos, {"half_cos", glslNarrow<GLSLstd450Cos>}},
      {Half_divide, {"half_divide", lowerDivide}},
      {Half_exp, {"half_exp", nanThrough<glslNarrow<GLSLstd450Exp>>}},
      {Half_exp2, {"half_exp2", nanThrough<glslNarrow<GLSLstd450Exp2>>}},
      {Half_exp10, {"half_exp10", nanThrough<lowerExp10>}},
      {Half_log, {"half_log", glslNarrow<GLSLstd450Log>}},
      {Half_log2, {"half_log2", glslNarrow<GLSLstd450Log2>}},
      {Half_log10, {"half_log10", lowerLog10}},
      {Half_powr, {"half_powr", lowerPowr}},
      {Half_recip, {"half_recip", lowerRecip}},
      {Half_rsqrt, {"half_rsqrt", glslAnyWidth<GLSLstd450InverseSqrt>}},
      {Half_sin, {"half_sin", glslNarrow<GLSLstd450Sin>}},
      {Half_sqrt, {"half_sqrt", glslAnyWidth<GLSLstd450Sqrt>}},
      {Half_tan, {"half_tan", glslNarrow<GLSLstd450Tan>}},
      {Native_cos, {"native_cos", glslNarrow<GLSLstd450Cos>}},
      {Native_divide, {"native_divide", lowerDivide}},
      {Native_exp, {"native_exp", glslNarrow<GLSLstd450Exp>}},
      {Native_exp2, {"native_exp2", glslNarrow<GLSLstd450Exp2>}},
      {Native_exp10, {"native_exp10", lowerExp10}},
      {Native_log, {"native_log", glslNarrow<GLSLstd450Log>}},
      {Native_log2, {"native_log2", glslNarrow<GLSLstd450Log2>}},
      {Native_log10, {"native_log10", lowerLog10}},
      {Native_powr, {"native_powr", lowerPowr}},
      {Native_recip, {"native_recip", lowerRecip}},
      {Native_rsqrt, {"native_rsqrt", glslAnyWidth<GLSLstd450InverseSqrt>}},
      {Native_sin, {"native_sin", glslNarrow<GLSLstd450Sin>}},
      {Native_sqrt, {"native_sqrt", glslAnyWidth<GLSLstd450Sqrt>}},
      {Native_tan, {"native_tan", glslNarrow<GLSLstd450Tan>}},
      // Common.
      {FClamp, {"fclamp", glslAnyWidth<GLSLstd450NClamp>}},
      {Degrees, {"degrees", lowerDegrees}},
      {FMax_common, {"fmax_common", glslAnyWidth<GLSLstd450FMax>}},
      {FMin_common, {"fmin_common", glslAnyWidth<GLSLstd450FMin>}},
      {Mix, {"mix", glslAnyWidth<GLSLstd450FMix>}},
      {Radians, {"radians", lowerRadians}},
      {Step, {"step", glslAnyWidth<GLSLstd450Step>}},
      {Smoothstep, {"smoothstep", glslAnyWidth<GLSLstd450SmoothStep>}},
      {Sign, {"sign", lowerSign}},
  };
  return table;
}

}  // namespace cl2vk
