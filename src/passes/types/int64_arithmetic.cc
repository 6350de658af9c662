// 64-bit integer arithmetic on pairs of 32-bit halves: carries and borrows, products from 32x32
// -> 64-bit multiplies, shifts that move bits across the halves, compares high half first, and a
// shift-subtract division loop.
#include "ir/types.h"
#include "passes/types/int64_lowering.h"

namespace cl2vk::int64 {

using spv::Op;

namespace {

uint32_t half(ir::Builder& b, Pair x) { return b.typeOf(x.lo); }
uint32_t k(ir::Builder& b, uint32_t type, uint64_t value) { return b.bits(type, value); }

// 1 where `condition` holds, else 0, in `type`.
uint32_t oneIf(ir::Builder& b, uint32_t condition, uint32_t type) {
  return b.select(condition, k(b, type, 1), k(b, type, 0));
}

// {low, high} words of the 64-bit product of two 32-bit halves.
std::pair<uint32_t, uint32_t> wideProduct(ir::Builder& b, uint32_t x, uint32_t y) {
  uint32_t type = b.typeOf(x);
  uint32_t product = b.op(Op::OpUMulExtended, b.structType({type, type}), {x, y});
  return {b.extract(type, product, 0), b.extract(type, product, 1)};
}

uint32_t less(ir::Builder& b, Pair x, Pair y, bool isSigned) {
  uint32_t highLess = b.compare(isSigned ? Op::OpSLessThan : Op::OpULessThan, x.hi, y.hi);
  uint32_t highEqual = b.compare(Op::OpIEqual, x.hi, y.hi);
  uint32_t lowLess = b.compare(Op::OpULessThan, x.lo, y.lo);
  return b.compare(Op::OpLogicalOr, highLess, b.compare(Op::OpLogicalAnd, highEqual, lowLess));
}

}  // namespace

Pair constant(ir::Builder& b, uint32_t type, uint64_t value) {
  return {k(b, type, value & 0xffffffffu), k(b, type, value >> 32)};
}

Pair add(ir::Builder& b, Pair x, Pair y) {
  uint32_t lo = b.iadd(x.lo, y.lo);
  uint32_t carry = oneIf(b, b.compare(Op::OpULessThan, lo, x.lo), half(b, x));
  // An address moved by a constant offset below 2^32 (every constant step) adds only the carry.
  uint32_t hi = y.hi == k(b, half(b, x), 0) ? x.hi : b.iadd(x.hi, y.hi);
  return {lo, b.iadd(hi, carry)};
}

Pair sub(ir::Builder& b, Pair x, Pair y) {
  uint32_t borrow = oneIf(b, b.compare(Op::OpULessThan, x.lo, y.lo), half(b, x));
  return {b.isub(x.lo, y.lo), b.isub(b.isub(x.hi, y.hi), borrow)};
}

Pair negate(ir::Builder& b, Pair x) { return sub(b, constant(b, half(b, x), 0), x); }

Pair mul(ir::Builder& b, Pair x, Pair y) {
  // (x1:x0)(y1:y0) mod 2^64 = x0y0 + (x0y1 + x1y0) << 32: only x0y0 needs its high word.
  auto [lo, carried] = wideProduct(b, x.lo, y.lo);
  uint32_t cross = b.iadd(b.imul(x.lo, y.hi), b.imul(x.hi, y.lo));
  return {lo, b.iadd(carried, cross)};
}

Pair mulHigh(ir::Builder& b, Pair x, Pair y, bool isSigned) {
  // The four 32x32 products, summed by columns of 32 bits; only the carries out of the second
  // column reach the high half.
  uint32_t type = half(b, x);
  auto [p00lo, p00hi] = wideProduct(b, x.lo, y.lo);
  auto [p01lo, p01hi] = wideProduct(b, x.lo, y.hi);
  auto [p10lo, p10hi] = wideProduct(b, x.hi, y.lo);
  auto [p11lo, p11hi] = wideProduct(b, x.hi, y.hi);
  (void)p00lo;
  uint32_t column = b.iadd(p00hi, p01lo);
  uint32_t carries = oneIf(b, b.compare(Op::OpULessThan, column, p00hi), type);
  uint32_t column2 = b.iadd(column, p10lo);
  carries = b.iadd(carries, oneIf(b, b.compare(Op::OpULessThan, column2, column), type));
  uint32_t zero = k(b, type, 0);
  Pair high = add(b, Pair{p11lo, p11hi}, Pair{p01hi, zero});
  high = add(b, high, Pair{p10hi, zero});
  high = add(b, high, Pair{carries, zero});
  if (!isSigned) return high;
  // The signed product differs by y << 64 when x < 0 and by x << 64 when y < 0.
  Pair none = constant(b, type, 0);
  high = sub(b, high, select(b, isNegative(b, x), y, none));
  return sub(b, high, select(b, isNegative(b, y), x, none));
}

Pair shiftLeft(ir::Builder& b, Pair x, uint32_t amount) {
  uint32_t type = half(b, x);
  uint32_t within = b.bitAnd(amount, k(b, type, 31));
  uint32_t pastHalf = b.compare(Op::OpINotEqual, b.bitAnd(amount, k(b, type, 32)), k(b, type, 0));
  uint32_t lo = b.shl(x.lo, within);
  // x.lo >> (32 - within), written so that within = 0 shifts by at most 31 (and gives 0).
  uint32_t crossing = b.lshr(b.lshr(x.lo, k(b, type, 1)), b.isub(k(b, type, 31), within));
  uint32_t hi = b.bitOr(b.shl(x.hi, within), crossing);
  return select(b, pastHalf, Pair{k(b, type, 0), lo}, Pair{lo, hi});
}

Pair shiftRight(ir::Builder& b, Pair x, uint32_t amount, bool arithmetic) {
  uint32_t type = half(b, x);
  uint32_t within = b.bitAnd(amount, k(b, type, 31));
  uint32_t pastHalf = b.compare(Op::OpINotEqual, b.bitAnd(amount, k(b, type, 32)), k(b, type, 0));
  uint32_t hi = arithmetic ? b.ashr(x.hi, within) : b.lshr(x.hi, within);
  uint32_t crossing = b.shl(b.shl(x.hi, k(b, type, 1)), b.isub(k(b, type, 31), within));
  uint32_t lo = b.bitOr(b.lshr(x.lo, within), crossing);
  uint32_t fill = arithmetic ? b.ashr(x.hi, k(b, type, 31)) : k(b, type, 0);
  return select(b, pastHalf, Pair{hi, fill}, Pair{lo, hi});
}

Pair shiftLeftBy(ir::Builder& b, Pair x, uint32_t amount) {
  uint32_t type = half(b, x);
  if (amount == 0) return x;
  if (amount >= 32) return {k(b, type, 0), amount == 32 ? x.lo : b.shl(x.lo, k(b, type, amount - 32))};
  uint32_t hi = b.bitOr(b.shl(x.hi, k(b, type, amount)), b.lshr(x.lo, k(b, type, 32 - amount)));
  return {b.shl(x.lo, k(b, type, amount)), hi};
}

uint32_t compare(ir::Builder& b, spv::Op opcode, Pair x, Pair y) {
  switch (opcode) {
    case Op::OpIEqual:
      return b.compare(Op::OpLogicalAnd, b.compare(Op::OpIEqual, x.lo, y.lo), b.compare(Op::OpIEqual, x.hi, y.hi));
    case Op::OpINotEqual:
      return b.compare(Op::OpLogicalOr, b.compare(Op::OpINotEqual, x.lo, y.lo), b.compare(Op::OpINotEqual, x.hi, y.hi));
    case Op::OpULessThan: return less(b, x, y, false);
    case Op::OpSLessThan: return less(b, x, y, true);
    case Op::OpUGreaterThan: return less(b, y, x, false);
    case Op::OpSGreaterThan: return less(b, y, x, true);
    case Op::OpULessThanEqual: return b.test(Op::OpLogicalNot, less(b, y, x, false));
    case Op::OpSLessThanEqual: return b.test(Op::OpLogicalNot, less(b, y, x, true));
    case Op::OpUGreaterThanEqual: return b.test(Op::OpLogicalNot, less(b, x, y, false));
    case Op::OpSGreaterThanEqual: return b.test(Op::OpLogicalNot, less(b, x, y, true));
    default: return 0;
  }
}

Pair select(ir::Builder& b, uint32_t condition, Pair x, Pair y) {
  return {b.select(condition, x.lo, y.lo), b.select(condition, x.hi, y.hi)};
}

Pair bitwise(ir::Builder& b, spv::Op opcode, Pair x, Pair y) {
  return {b.binary(opcode, x.lo, y.lo), b.binary(opcode, x.hi, y.hi)};
}

uint32_t isNegative(ir::Builder& b, Pair x) { return b.compare(Op::OpSLessThan, x.hi, k(b, half(b, x), 0)); }

std::pair<Pair, Pair> divideUnsigned(ir::Builder& b, Pair n, Pair d) {
  ir::Module& module = b.module();
  uint32_t uint = ir::typeInt(module, 32);
  uint32_t quad = ir::typeVector(module, uint, 4);
  uint32_t zero = k(b, uint, 0), one = k(b, uint, 1), top = k(b, uint, 31);
  uint32_t narrow =
      b.compare(Op::OpLogicalAnd, b.compare(Op::OpIEqual, n.hi, zero), b.compare(Op::OpIEqual, d.hi, zero));
  // {quotient.lo, quotient.hi, remainder.lo, remainder.hi}
  uint32_t result = b.ifElseValue(
      narrow, quad,
      [&] {
        return b.op(Op::OpCompositeConstruct, quad,
                    {b.op(Op::OpUDiv, uint, {n.lo, d.lo}), zero, b.op(Op::OpUMod, uint, {n.lo, d.lo}), zero});
      },
      [&] {
        // The dividend shifts out of the top of {q} into {r} one bit per step while the quotient's
        // bits shift into the bottom of {q}. r < d before each step, so 2r + 1 can need a 65th bit,
        // which `overflow` holds.
        uint32_t start = b.op(Op::OpCompositeConstruct, quad, {n.lo, n.hi, zero, zero});
        return b.foldLoop(zero, k(b, uint, 64), one, quad, start, [&](uint32_t acc, uint32_t) {
          uint32_t qlo = b.extract(uint, acc, 0), qhi = b.extract(uint, acc, 1);
          uint32_t rlo = b.extract(uint, acc, 2), rhi = b.extract(uint, acc, 3);
          uint32_t overflow = b.compare(Op::OpINotEqual, b.lshr(rhi, top), zero);
          Pair r{b.bitOr(b.shl(rlo, one), b.lshr(qhi, top)), b.bitOr(b.shl(rhi, one), b.lshr(rlo, top))};
          uint32_t newQhi = b.bitOr(b.shl(qhi, one), b.lshr(qlo, top));
          uint32_t fits = b.compare(Op::OpLogicalOr, overflow, b.test(Op::OpLogicalNot, less(b, r, d, false)));
          r = select(b, fits, sub(b, r, d), r);
          uint32_t newQlo = b.bitOr(b.shl(qlo, one), oneIf(b, fits, uint));
          return b.op(Op::OpCompositeConstruct, quad, {newQlo, newQhi, r.lo, r.hi});
        });
      });
  return {Pair{b.extract(uint, result, 0), b.extract(uint, result, 1)},
          Pair{b.extract(uint, result, 2), b.extract(uint, result, 3)}};
}

}  // namespace cl2vk::int64
