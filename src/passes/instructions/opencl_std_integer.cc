// Integer and relational OpenCL.std instructions. Kernel SPIR-V integers have no sign, so the
// signedness is in the OpenCL.std instruction (s_max against u_max) and each lowering picks the
// signed or unsigned core operation itself. Saturating and high-half arithmetic is written out in
// core instructions; GLSL.std.450's FindUMsb, FindILsb and core OpBitCount, which Vulkan has for
// 32 bits only, are applied to 32-bit pieces.
#include <spirv/unified1/OpenCL.std.h>

#include "passes/instructions/opencl_std_float_bits.h"
#include "passes/instructions/opencl_std_lowerings.h"

namespace cl2vk {
namespace {

using Lowered = Expected<uint32_t>;

uint32_t arg(ir::Builder& e, const ExtCall& c, size_t index) { return argAs(e, c, index, c.type); }

uint64_t maxUnsigned(uint32_t width) { return width == 64 ? ~0ull : (1ull << width) - 1; }
uint64_t maxSigned(uint32_t width) { return maxUnsigned(width) >> 1; }
uint64_t minSigned(uint32_t width) { return 1ull << (width - 1); }

uint32_t isNegative(ir::Builder& e, uint32_t x) { return e.compare(spv::Op::OpSLessThan, x, e.bits(e.typeOf(x), 0)); }

// INT_MIN for negative `x`, INT_MAX otherwise: where a signed result saturates.
uint32_t saturationFor(ir::Builder& e, uint32_t negative, uint32_t type) {
  uint32_t width = e.width(type);
  return e.select(negative, e.bits(type, minSigned(width)), e.bits(type, maxSigned(width)));
}

template <GLSLstd450 kOp>
Lowered glslInt(ir::Builder& e, const ExtCall& c) {
  std::vector<uint32_t> args;
  for (size_t i = 0; i < c.args.size(); ++i) args.push_back(arg(e, c, i));
  return e.glsl(kOp, c.type, args);
}

Lowered lowerUAbs(ir::Builder&, const ExtCall& c) { return c.args[0]; }

template <bool kSigned>
Lowered lowerAbsDiff(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = c.args[1];
  uint32_t greater = e.compare(kSigned ? spv::Op::OpSGreaterThan : spv::Op::OpUGreaterThan, x, y);
  return e.select(greater, e.isub(x, y), e.isub(y, x));  // the difference is exact modulo 2^w
}

Lowered lowerSAddSat(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = c.args[1];
  uint32_t sum = e.iadd(x, y);
  // Overflow: both operands have the sign the sum lacks.
  uint32_t overflow = isNegative(e, e.bitAnd(e.bitXor(sum, x), e.bitXor(sum, y)));
  return e.select(overflow, saturationFor(e, isNegative(e, x), c.type), sum);
}

Lowered lowerUAddSat(ir::Builder& e, const ExtCall& c) {
  uint32_t sum = e.iadd(c.args[0], c.args[1]);
  uint32_t wrapped = e.compare(spv::Op::OpULessThan, sum, c.args[0]);
  return e.select(wrapped, e.bits(c.type, maxUnsigned(e.width(c.type))), sum);
}

Lowered lowerSSubSat(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = c.args[1];
  uint32_t difference = e.isub(x, y);
  // Overflow: the operands differ in sign and the difference has y's sign.
  uint32_t overflow = isNegative(e, e.bitAnd(e.bitXor(x, y), e.bitXor(x, difference)));
  return e.select(overflow, saturationFor(e, isNegative(e, x), c.type), difference);
}

Lowered lowerUSubSat(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = c.args[1];
  return e.select(e.compare(spv::Op::OpULessThan, x, y), e.bits(c.type, 0), e.isub(x, y));
}

// (x + y) >> 1 and (x + y + 1) >> 1 without the intermediate overflow.
template <bool kSigned, bool kRounded>
Lowered lowerHalfAdd(ir::Builder& e, const ExtCall& c) {
  uint32_t x = c.args[0], y = c.args[1];
  uint32_t one = e.bits(c.type, 1);
  spv::Op shift = kSigned ? spv::Op::OpShiftRightArithmetic : spv::Op::OpShiftRightLogical;
  uint32_t halves = e.iadd(e.binary(shift, x, one), e.binary(shift, y, one));
  uint32_t lowBits = kRounded ? e.bitOr(x, y) : e.bitAnd(x, y);
  return e.iadd(halves, e.bitAnd(lowBits, one));
}

// {low, high} halves of the full product.
std::pair<uint32_t, uint32_t> fullProduct(ir::Builder& e, bool isSigned, uint32_t x, uint32_t y) {
  uint32_t type = e.typeOf(x);
  uint32_t product =
      e.op(isSigned ? spv::Op::OpSMulExtended : spv::Op::OpUMulExtended, e.structType({type, type}), {x, y});
  return {e.extract(type, product, 0), e.extract(type, product, 1)};
}

template <bool kSigned>
Lowered lowerMulHi(ir::Builder& e, const ExtCall& c) {
  return fullProduct(e, kSigned, c.args[0], c.args[1]).second;
}

template <bool kSigned>
Lowered lowerMadHi(ir::Builder& e, const ExtCall& c) {
  return e.iadd(fullProduct(e, kSigned, c.args[0], c.args[1]).second, c.args[2]);
}

Lowered lowerSMadSat(ir::Builder& e, const ExtCall& c) {
  // The exact double-width sum high:low = x * y + z, saturated when it does not fit in one word.
  uint32_t width = e.width(c.type);
  uint32_t z = c.args[2];
  auto [low, high] = fullProduct(e, true, c.args[0], c.args[1]);
  uint32_t signShift = e.bits(c.type, width - 1);
  uint32_t sum = e.iadd(low, z);
  uint32_t carry = e.select(e.compare(spv::Op::OpULessThan, sum, low), e.bits(c.type, 1), e.bits(c.type, 0));
  uint32_t sumHigh = e.iadd(e.iadd(high, e.ashr(z, signShift)), carry);
  uint32_t fits = e.compare(spv::Op::OpIEqual, sumHigh, e.ashr(sum, signShift));
  return e.select(fits, sum, saturationFor(e, isNegative(e, sumHigh), c.type));
}

Lowered lowerUMadSat(ir::Builder& e, const ExtCall& c) {
  auto [low, high] = fullProduct(e, false, c.args[0], c.args[1]);
  uint32_t sum = e.iadd(low, c.args[2]);
  uint32_t overflow = e.compare(spv::Op::OpLogicalOr, e.compare(spv::Op::OpINotEqual, high, e.bits(c.type, 0)),
                                e.compare(spv::Op::OpULessThan, sum, low));
  return e.select(overflow, e.bits(c.type, maxUnsigned(e.width(c.type))), sum);
}

Lowered lowerMul24(ir::Builder& e, const ExtCall& c) { return e.imul(c.args[0], c.args[1]); }
Lowered lowerMad24(ir::Builder& e, const ExtCall& c) { return e.iadd(e.imul(c.args[0], c.args[1]), c.args[2]); }

Lowered lowerRotate(ir::Builder& e, const ExtCall& c) {
  // Shifting by the full width is undefined in SPIR-V: the right shift wraps to 0 instead, and
  // v | v is v.
  uint32_t width = e.width(c.type);
  uint32_t mask = e.bits(c.type, width - 1);
  uint32_t v = c.args[0];
  uint32_t left = e.bitAnd(arg(e, c, 1), mask);
  uint32_t right = e.bitAnd(e.isub(e.bits(c.type, width), left), mask);
  return e.bitOr(e.shl(v, left), e.lshr(v, right));
}

Lowered lowerClz(ir::Builder& e, const ExtCall& c) {
  uint32_t width = e.width(c.type);
  uint32_t wide = e.resize(c.args[0], width < 32 ? 32 : width);
  uint32_t msb = findMsb(e, wide);  // -1 for zero gives clz = width
  return e.resize(e.isub(e.bits(e.typeOf(msb), width - 1), msb), width);
}

// FindILsb of a 32-bit value, with the `limit` where it has no set bit (FindILsb gives -1, which
// UMin turns into the limit).
uint32_t lowestBit(ir::Builder& e, uint32_t value32, uint32_t limit) {
  uint32_t type = e.typeOf(value32);
  return e.glsl(GLSLstd450UMin, type, {e.glsl(GLSLstd450FindILsb, type, {value32}), e.bits(type, limit)});
}

Lowered lowerCtz(ir::Builder& e, const ExtCall& c) {
  uint32_t width = e.width(c.type);
  uint32_t x = c.args[0];
  if (width <= 32) return e.resize(lowestBit(e, e.resize(x, 32), width), width);
  uint32_t type32 = e.uintType(c.type, 32);
  uint32_t low = e.resize(x, 32), high = e.resize(e.lshr(x, e.bits(c.type, 32)), 32);
  uint32_t fromHigh = e.iadd(lowestBit(e, high, 32), e.bits(type32, 32));
  uint32_t lowIsZero = e.compare(spv::Op::OpIEqual, low, e.bits(type32, 0));
  return e.resize(e.select(lowIsZero, fromHigh, lowestBit(e, low, 32)), 64);
}

Lowered lowerPopcount(ir::Builder& e, const ExtCall& c) {
  uint32_t width = e.width(c.type);
  uint32_t x = c.args[0];
  uint32_t type32 = e.uintType(c.type, 32);
  if (width <= 32) return e.resize(e.op(spv::Op::OpBitCount, type32, {e.resize(x, 32)}), width);
  uint32_t low = e.resize(x, 32), high = e.resize(e.lshr(x, e.bits(c.type, 32)), 32);
  uint32_t count = e.iadd(e.op(spv::Op::OpBitCount, type32, {low}), e.op(spv::Op::OpBitCount, type32, {high}));
  return e.resize(count, 64);
}

// (hi << w) | lo; the sign of a signed hi is shifted out, so both forms are the same bits.
Lowered lowerUpsample(ir::Builder& e, const ExtCall& c) {
  uint32_t width = e.width(c.type);
  uint32_t high = e.resize(c.args[0], width), low = e.resize(c.args[1], width);
  return e.bitOr(e.shl(high, e.bits(c.type, width / 2)), low);
}

Lowered lowerBitselect(ir::Builder& e, const ExtCall& c) {
  // Each result bit comes from b where c has a 1, else from a; floats go through their bits.
  uint32_t bitsType = e.uintType(c.type, e.width(c.type));
  auto asBits = [&](uint32_t v) { return e.isFloat(c.type) ? e.bitcast(bitsType, v) : v; };
  uint32_t a = asBits(c.args[0]), b = asBits(c.args[1]), mask = asBits(c.args[2]);
  uint32_t bits = e.bitOr(e.bitAnd(a, e.bitNot(mask)), e.bitAnd(b, mask));
  return e.isFloat(c.type) ? e.bitcast(c.type, bits) : bits;
}

Lowered lowerSelect(ir::Builder& e, const ExtCall& c) {
  // Scalars test c != 0; vectors test the most significant bit of each component of c.
  uint32_t condition = c.args[2];
  uint32_t conditionType = e.typeOf(condition);
  uint32_t test = e.isVector(conditionType) ? e.compare(spv::Op::OpSLessThan, condition, e.bits(conditionType, 0))
                                            : e.compare(spv::Op::OpINotEqual, condition, e.bits(conditionType, 0));
  return e.select(test, c.args[1], c.args[0]);
}

}  // namespace

const ExtTable& integerLowerings() {
  using namespace OpenCLLIB;
  static const ExtTable table = {
      {SAbs, {"s_abs", glslInt<GLSLstd450SAbs>}},
      {UAbs, {"u_abs", lowerUAbs}},
      {SAbs_diff, {"s_abs_diff", lowerAbsDiff<true>}},
      {UAbs_diff, {"u_abs_diff", lowerAbsDiff<false>}},
      {SAdd_sat, {"s_add_sat", lowerSAddSat}},
      {UAdd_sat, {"u_add_sat", lowerUAddSat}},
      {SSub_sat, {"s_sub_sat", lowerSSubSat}},
      {USub_sat, {"u_sub_sat", lowerUSubSat}},
      {SHadd, {"s_hadd", lowerHalfAdd<true, false>}},
      {UHadd, {"u_hadd", lowerHalfAdd<false, false>}},
      {SRhadd, {"s_rhadd", lowerHalfAdd<true, true>}},
      {URhadd, {"u_rhadd", lowerHalfAdd<false, true>}},
      {SClamp, {"s_clamp", glslInt<GLSLstd450SClamp>}},
      {UClamp, {"u_clamp", glslInt<GLSLstd450UClamp>}},
      {Clz, {"clz", lowerClz}},
      {Ctz, {"ctz", lowerCtz}},
      {Popcount, {"popcount", lowerPopcount}},
      {SMad_hi, {"s_mad_hi", lowerMadHi<true>}},
      {UMad_hi, {"u_mad_hi", lowerMadHi<false>}},
      {SMad_sat, {"s_mad_sat", lowerSMadSat}},
      {UMad_sat, {"u_mad_sat", lowerUMadSat}},
      {SMax, {"s_max", glslInt<GLSLstd450SMax>}},
      {UMax, {"u_max", glslInt<GLSLstd450UMax>}},
      {SMin, {"s_min", glslInt<GLSLstd450SMin>}},
      {UMin, {"u_min", glslInt<GLSLstd450UMin>}},
      {SMul_hi, {"s_mul_hi", lowerMulHi<true>}},
      {UMul_hi, {"u_mul_hi", lowerMulHi<false>}},
      {Rotate, {"rotate", lowerRotate}},
      {S_Upsample, {"s_upsample", lowerUpsample}},
      {U_Upsample, {"u_upsample", lowerUpsample}},
      {SMad24, {"s_mad24", lowerMad24}},
      {UMad24, {"u_mad24", lowerMad24}},
      {SMul24, {"s_mul24", lowerMul24}},
      {UMul24, {"u_mul24", lowerMul24}},
      // Relational.
      {Bitselect, {"bitselect", lowerBitselect}},
      {Select, {"select", lowerSelect}},
  };
  return table;
}

}  // namespace cl2vk
