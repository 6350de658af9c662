// Geometric OpenCL.std instructions. length, distance and normalize must not overflow or underflow
// in their sum of squares, which GLSL.std.450's Length, Distance and Normalize may (lavapipe's
// length of (2^64, 0) was inf): the vector is scaled by a power of two chosen from its largest
// magnitude before it is squared, and the result scaled back. Halves are computed in float, whose
// range holds their squares. The fast_ forms keep GLSL.std.450's instructions: OpenCL defines them
// as the plain sum of squares (half_sqrt, half_rsqrt of it), overflow included.
#include <spirv/unified1/OpenCL.std.h>

#include <cmath>
#include <utility>

#include "ir/types.h"
#include "passes/instructions/opencl_std_lowerings.h"

namespace cl2vk {
namespace {

using Lowered = Expected<uint32_t>;

// Where the largest magnitude M of a float (double) vector is moved before squaring: above 2^40
// (2^400) it is multiplied by 2^-70 (2^-600), below 2^-40 (2^-400) by 2^90 (2^700), so that
// M^2 lies in [2^-118, 2^116] ([2^-748, 2^848]) and the sum of up to four squares is finite and
// normal. A component too small for its square to be normal then adds less than 2^-30 of the sum.
struct SquaringRange {
  int threshold, down, up;  // exponents of 2
};
SquaringRange squaringRange(uint32_t width) {
  return width == 64 ? SquaringRange{400, -600, 700} : SquaringRange{40, -70, 90};
}

uint32_t twoTo(ir::Builder& e, uint32_t type, int exponent) { return e.real(type, std::ldexp(1.0, exponent)); }

// The largest |component| of `v`. NMax passes over a NaN component; the sum of squares still
// carries it.
uint32_t largestMagnitude(ir::Builder& e, uint32_t v) {
  uint32_t type = e.typeOf(v), scalar = e.componentType(type);
  uint32_t magnitudes = e.glsl(GLSLstd450FAbs, type, {v});
  uint32_t largest = e.extract(scalar, magnitudes, 0);
  for (uint32_t i = 1; i < e.componentCount(type); ++i)
    largest = e.glsl(GLSLstd450NMax, scalar, {largest, e.extract(scalar, magnitudes, i)});
  return largest;
}

// The power of two that brings `largest` into the squaring range, and its inverse; both exact.
std::pair<uint32_t, uint32_t> squaringScale(ir::Builder& e, uint32_t largest) {
  uint32_t type = e.typeOf(largest);
  SquaringRange range = squaringRange(e.width(type));
  uint32_t one = e.real(type, 1.0);
  uint32_t huge = e.compare(spv::Op::OpFOrdGreaterThan, largest, twoTo(e, type, range.threshold));
  uint32_t tiny = e.compare(spv::Op::OpFOrdLessThan, largest, twoTo(e, type, -range.threshold));
  uint32_t scale = e.select(huge, twoTo(e, type, range.down), e.select(tiny, twoTo(e, type, range.up), one));
  uint32_t unscale = e.select(huge, twoTo(e, type, -range.down), e.select(tiny, twoTo(e, type, -range.up), one));
  return {scale, unscale};
}

// The sum of the squares of `v` times scale^2 (`v` a vector).
uint32_t scaledSumOfSquares(ir::Builder& e, uint32_t v, uint32_t scale) {
  uint32_t scaled = e.op(spv::Op::OpVectorTimesScalar, e.typeOf(v), {v, scale});
  return e.op(spv::Op::OpDot, e.typeOf(scale), {scaled, scaled});
}

// sqrt(sum of squares) of a float or double vector, scaled so that neither overflows nor
// underflows. An infinite component gives inf and a NaN one NaN (NaN with both, as their squares'
// sum is).
uint32_t vectorLength(ir::Builder& e, uint32_t v) {
  auto [scale, unscale] = squaringScale(e, largestMagnitude(e, v));
  uint32_t sum = scaledSumOfSquares(e, v, scale);
  return e.fmul(e.glsl(GLSLstd450Sqrt, e.typeOf(sum), {sum}), unscale);
}

uint32_t length(ir::Builder& e, uint32_t v) {
  if (!e.isVector(e.typeOf(v))) return e.glsl(GLSLstd450FAbs, e.typeOf(v), {v});
  return vectorLength(e, v);
}

// 2^-e for the exponent e of `largest` (a magnitude, not inf or NaN), made from its exponent bits:
// the scaled vector's largest component is in [1, 2) (in [2^-22, 2) or [2^-51, 2) for a denormal,
// [1, 4) at the top of the range), so that no component underflows before the division by the
// length does. For float 2^(127 - E) for the biased exponent E, clamped to 253 so that the scale
// stays normal; for double the same in the high word, 2^(1023 - E), so that no 64-bit integer is
// needed.
uint32_t inverseExponent(ir::Builder& e, uint32_t largest) {
  uint32_t type = e.typeOf(largest);
  uint32_t uint = e.uintType(type, 32);
  bool isDouble = e.width(type) == 64;
  uint32_t fractionBits = isDouble ? 20 : 23, maxBiased = isDouble ? 2046 : 254;
  uint32_t high =
      isDouble ? e.extract(uint, e.bitcast(ir::typeVector(e.module(), uint, 2), largest), 1) : e.bitcast(uint, largest);
  uint32_t biased = e.lshr(high, e.bits(uint, fractionBits));
  biased = e.glsl(GLSLstd450UMin, uint, {biased, e.bits(uint, maxBiased - 1)});
  uint32_t scaleHigh = e.shl(e.isub(e.bits(uint, maxBiased), biased), e.bits(uint, fractionBits));
  if (!isDouble) return e.bitcast(type, scaleHigh);
  uint32_t words =
      e.op(spv::Op::OpCompositeConstruct, ir::typeVector(e.module(), uint, 2), {e.bits(uint, 0), scaleHigh});
  return e.bitcast(type, words);
}

// OpenCL's normalize: v itself when every component is zero; a NaN component makes every one NaN;
// with infinite components, the unit vector of their signs (the others taken as zero).
uint32_t normalize(ir::Builder& e, uint32_t v) {
  uint32_t type = e.typeOf(v);
  uint32_t scalar = e.componentType(type);
  if (!e.isVector(type)) {
    // ±1 by the sign, exactly; zero and NaN are themselves.
    uint32_t zeroOrNan = e.compare(spv::Op::OpFUnordEqual, v, e.real(type, 0.0));
    return e.select(zeroOrNan, v, e.glsl(GLSLstd450FSign, type, {v}));
  }
  uint32_t largest = largestMagnitude(e, v);
  uint32_t infinite = e.compare(spv::Op::OpFOrdEqual, largest, e.real(scalar, INFINITY));
  // OpenCL's 0 * v for the finite components: a zero of v's sign (Mesa folds a multiplication by
  // zero to zero; a NaN is dealt with at the end).
  uint32_t zero = e.real(type, 0.0);
  uint32_t positiveOrZero = e.select(e.compare(spv::Op::OpFOrdGreaterThan, v, zero), zero, v);
  uint32_t zeros = e.select(e.compare(spv::Op::OpFOrdLessThan, v, zero), e.real(type, -0.0), positiveOrZero);
  uint32_t signs = e.select(e.test(spv::Op::OpIsInf, v), e.glsl(GLSLstd450FSign, type, {v}), zeros);
  uint32_t direction = e.select(e.splat(e.boolType(type), infinite), signs, v);
  largest = e.select(infinite, e.real(scalar, 1.0), largest);
  uint32_t scale = inverseExponent(e, largest);
  uint32_t scaled = e.op(spv::Op::OpVectorTimesScalar, type, {direction, scale});
  uint32_t sum = e.op(spv::Op::OpDot, scalar, {scaled, scaled});
  uint32_t unit = e.op(spv::Op::OpVectorTimesScalar, type, {scaled, e.glsl(GLSLstd450InverseSqrt, scalar, {sum})});
  uint32_t allZero = e.compare(spv::Op::OpFOrdEqual, sum, e.real(scalar, 0.0));
  uint32_t result = e.select(e.splat(e.boolType(type), allZero), v, unit);
  // Every component NaN where one is, by a test: Vulkan lets a driver assume that arithmetic sees
  // no NaN, and propagation was not enough on NVIDIA (a half (1, NaN, inf) normalized to (0, 0, 1)).
  uint32_t anyNan = e.op(spv::Op::OpAny, e.boolType(scalar), {e.test(spv::Op::OpIsNan, v)});
  return e.select(e.splat(e.boolType(type), anyNan), e.real(type, std::nan("")), result);
}

// Half operands are widened to float (exactly) and the result rounded back to half.
uint32_t widened(ir::Builder& e, uint32_t value) {
  uint32_t type = e.typeOf(value);
  return e.width(type) == 16 ? e.op(spv::Op::OpFConvert, e.floatType(type, 32), {value}) : value;
}
uint32_t narrowedTo(ir::Builder& e, uint32_t type, uint32_t value) {
  return e.width(type) == 16 ? e.op(spv::Op::OpFConvert, type, {value}) : value;
}

Lowered lowerLength(ir::Builder& e, const ExtCall& c) {
  return narrowedTo(e, c.type, length(e, widened(e, c.args[0])));
}

Lowered lowerDistance(ir::Builder& e, const ExtCall& c) {
  // The difference overflows only where the distance does.
  return narrowedTo(e, c.type, length(e, e.fsub(widened(e, c.args[0]), widened(e, c.args[1]))));
}

Lowered lowerNormalize(ir::Builder& e, const ExtCall& c) {
  return narrowedTo(e, c.type, normalize(e, widened(e, c.args[0])));
}

Lowered lowerCross(ir::Builder& e, const ExtCall& c) {
  if (e.componentCount(c.type) == 3) return e.glsl(GLSLstd450Cross, c.type, {c.args[0], c.args[1]});
  // float4 cross: the xyz cross product and a zero w.
  uint32_t component = e.componentType(c.type);
  uint32_t vec3 = ir::typeVector(e.module(), component, 3);
  std::vector<uint32_t> parts;
  for (uint32_t v : {c.args[0], c.args[1]}) {
    uint32_t x = e.extract(component, v, 0), y = e.extract(component, v, 1), z = e.extract(component, v, 2);
    parts.push_back(e.op(spv::Op::OpCompositeConstruct, vec3, {x, y, z}));
  }
  uint32_t cross = e.glsl(GLSLstd450Cross, vec3, parts);
  std::vector<uint32_t> components;
  for (uint32_t i = 0; i < 3; ++i) components.push_back(e.extract(component, cross, i));
  components.push_back(ir::constantFloat(e.module(), component, 0.0));
  return e.op(spv::Op::OpCompositeConstruct, c.type, components);
}

// Fast length, distance and normalize of a scalar are |x|, |x - y| and sign(x) in GLSL too.
template <GLSLstd450 kOp>
Lowered lowerFast(ir::Builder& e, const ExtCall& c) {
  return e.glsl(kOp, c.type, std::vector<uint32_t>(c.args.begin(), c.args.end()));
}

}  // namespace

const ExtTable& geometricLowerings() {
  using namespace OpenCLLIB;
  static const ExtTable table = {
      {Cross, {"cross", lowerCross}},
      {Distance, {"distance", lowerDistance}},
      {Length, {"length", lowerLength}},
      {Normalize, {"normalize", lowerNormalize}},
      {Fast_distance, {"fast_distance", lowerFast<GLSLstd450Distance>}},
      {Fast_length, {"fast_length", lowerFast<GLSLstd450Length>}},
      {Fast_normalize, {"fast_normalize", lowerFast<GLSLstd450Normalize>}},
  };
  return table;
}

}  // namespace cl2vk
