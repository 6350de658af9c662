// lower-int64's rewrite of one instruction: what it computes on 64-bit integers, on the halves.
// An instruction whose result is not a 64-bit integer but that takes one (a compare, a store, an
// access chain's index) takes the halves, or the value's memory form, instead.
#include <bit>
#include <cstdint>
#include <optional>
#include <set>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/instruction.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/types/int64_lowering.h"

namespace cl2vk::int64 {

using ir::Instruction;
using ir::Operand;
using spv::Op;

namespace {

constexpr const char* kNoInt64 =
    "cannot be emulated without Vulkan's shaderInt64 (64-bit integers), which this "
    "device lacks";

bool isCompare(Op op) {
  switch (op) {
    case Op::OpIEqual:
    case Op::OpINotEqual:
    case Op::OpULessThan:
    case Op::OpSLessThan:
    case Op::OpUGreaterThan:
    case Op::OpSGreaterThan:
    case Op::OpULessThanEqual:
    case Op::OpSLessThanEqual:
    case Op::OpUGreaterThanEqual:
    case Op::OpSGreaterThanEqual: return true;
    default: return false;
  }
}

bool isDivision(Op op) {
  return op == Op::OpUDiv || op == Op::OpSDiv || op == Op::OpUMod || op == Op::OpSRem || op == Op::OpSMod;
}

Status lowerBitcast(Lowering& l, Instruction& inst, ir::Builder& b) {
  ir::Module& module = l.module();
  uint32_t uint = ir::typeInt(module, 32);
  uint32_t source = inst.idOperand(0);
  uint32_t sourceType = b.typeOf(source);
  bool wideResult = l.isWide(inst.typeId()), wideSource = l.isWide(sourceType);
  if (wideResult && wideSource) {
    l.replace(inst, l.pair(source));
    return okStatus();
  }
  uint32_t count = ir::componentCount(module, wideResult ? inst.typeId() : sourceType);
  uint32_t other = wideResult ? sourceType : inst.typeId();
  if (count > 2 || (count == 2 && b.width(other) == 64)) {
    // Component by component, each 64 bits wide on both sides (long4 <-> double4).
    if (ir::componentCount(module, other) != count || b.width(other) != 64)
      return ir::refuse(l.module(), inst,
                        std::string("a bit cast of a long3 or long4 to narrower components ") + kNoInt64);
    uint32_t otherComponent = ir::componentType(module, other);
    uint32_t pairType = ir::typeVector(module, uint, 2);
    if (wideResult) {
      std::vector<Pair> parts;
      for (uint32_t c = 0; c < count; ++c) {
        uint32_t bits = b.bitcast(pairType, b.extract(otherComponent, source, c));
        parts.push_back({b.extract(uint, bits, 0), b.extract(uint, bits, 1)});
      }
      l.replace(inst, l.vectorOf(b, parts, l.halfType(inst.typeId())));
    } else {
      std::vector<uint32_t> components;
      for (uint32_t c = 0; c < count; ++c) {
        Pair part = l.component(b, l.pair(source), c);
        components.push_back(b.bitcast(otherComponent, b.op(Op::OpCompositeConstruct, pairType, {part.lo, part.hi})));
      }
      l.replace(inst, b.op(Op::OpCompositeConstruct, inst.typeId(), components));
    }
    return okStatus();
  }
  uint32_t words = ir::typeVector(module, uint, 2 * count);
  if (wideResult) {
    uint32_t bits = sourceType == words ? source : b.bitcast(words, source);
    if (count == 1) {
      l.replace(inst, Pair{b.extract(uint, bits, 0), b.extract(uint, bits, 1)});
    } else {
      uint32_t half = l.halfType(inst.typeId());
      l.replace(inst, Pair{b.value(Op::OpVectorShuffle, half,
                                   {Operand::id(bits), Operand::id(bits), Operand::literal(0), Operand::literal(2)}),
                           b.value(Op::OpVectorShuffle, half,
                                   {Operand::id(bits), Operand::id(bits), Operand::literal(1), Operand::literal(3)})});
    }
    return okStatus();
  }
  Pair halves = l.pair(source);
  uint32_t bits = count == 1 ? b.op(Op::OpCompositeConstruct, words, {halves.lo, halves.hi})
                             : b.value(Op::OpVectorShuffle, words,
                                       {Operand::id(halves.lo), Operand::id(halves.hi), Operand::literal(0),
                                        Operand::literal(2), Operand::literal(1), Operand::literal(3)});
  l.replace(inst, inst.typeId() == words ? bits : b.bitcast(inst.typeId(), bits));
  return okStatus();
}

// A switch on a 64-bit value whose cases share their high word: a switch on the low word, with a
// value that is no case's standing in for a selector with another high word.
Status lowerSwitch(Lowering& l, Instruction& inst, ir::Builder& b) {
  Pair selector = l.pair(inst.idOperand(0));
  std::vector<Operand> operands = inst.operands();
  std::set<uint32_t> lows;
  uint32_t high = 0;
  for (size_t i = 2; i + 1 < operands.size(); i += 2) {
    const std::vector<uint32_t>& words = operands[i].words;
    uint32_t caseHigh = words.size() > 1 ? words[1] : 0;
    if (i == 2) high = caseHigh;
    if (caseHigh != high)
      return ir::refuse(l.module(), inst,
                        std::string("a switch on a 64-bit value with cases that differ in the high word ") + kNoInt64);
    lows.insert(words[0]);
    operands[i].words = {words[0]};
  }
  uint32_t none = ~0u;
  while (lows.contains(none)) --none;
  uint32_t uint = b.typeOf(selector.lo);
  uint32_t sameHigh = b.compare(Op::OpIEqual, selector.hi, b.bits(uint, high));
  operands[0] = Operand::id(b.select(sameHigh, selector.lo, b.bits(uint, none)));
  l.module().update(&inst, Instruction(inst.opcode(), 0, 0, operands));
  return okStatus();
}

Status lowerConvert(Lowering& l, Instruction& inst, ir::Builder& b) {
  uint32_t source = inst.idOperand(0);
  bool wideResult = l.isWide(inst.typeId()), wideSource = l.isWideValue(source);
  if (wideResult && wideSource) {
    l.replace(inst, l.pair(source));
  } else if (wideResult) {
    uint32_t value = inst.opcode() == Op::OpSConvert ? b.resizeSigned(source, 32) : b.resize(source, 32);
    uint32_t hi =
        inst.opcode() == Op::OpSConvert ? b.ashr(value, b.bits(b.typeOf(value), 31)) : b.bits(b.typeOf(value), 0);
    l.replace(inst, Pair{value, hi});
  } else {
    uint32_t lo = l.pair(source).lo;
    l.replace(inst, b.width(inst.typeId()) == 32 ? lo : b.resize(lo, b.width(inst.typeId())));
  }
  return okStatus();
}

// Whether a 64-bit index is the sign extension of its low word: a constant in int's range, or a
// value widened from a 32-bit one (p[-1], p[i] with an int i), whose high word is the low word
// shifted right arithmetically by 31 (lowerConvert).
bool isSignExtended32(Lowering& l, uint32_t index) {
  ir::Module& module = l.module();
  if (std::optional<uint64_t> known = constantValue(module, index)) {
    auto value = static_cast<int64_t>(*known);
    return value >= INT32_MIN && value <= INT32_MAX;
  }
  Pair halves = l.pair(index);
  const Instruction* high = module.def(halves.hi);
  if (!high || high->opcode() != Op::OpShiftRightArithmetic || high->idOperand(0) != halves.lo) return false;
  std::optional<uint64_t> amount = constantValue(module, high->idOperand(1));
  return amount && *amount == 31;
}

// A pointer step by a 64-bit element index on a buffer address. An index that is a sign-extended
// 32-bit value stays a step, by that value: OpPtrAccessChain's element index is signed, and the
// driver moves the address in one instruction where the pair arithmetic takes nine per step (the
// sixteen components of a vload16 each take a step; SwiftShader's Subzero runs out of stack on
// the CTS's vector_creation kernels otherwise). Any other index moves the address as a pair, plus
// index * stride, and back. Other indexes (into arrays and structs of known size) take their low
// half.
Status lowerPointerStep(Lowering& l, Instruction& inst, ir::Builder& b) {
  ir::Module& module = l.module();
  uint32_t base = inst.idOperand(0);
  uint32_t baseType = b.typeOf(base);
  bool buffer = ir::isBufferPointer(module, baseType);
  std::vector<Operand> operands = inst.operands();
  for (size_t i = 1; i < operands.size(); ++i) operands[i] = Operand::id(l.low32(b, inst.idOperand(i)));
  if (!buffer || !l.isWideValue(inst.idOperand(1)) || isSignExtended32(l, inst.idOperand(1))) {
    module.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), operands));
    return okStatus();
  }
  const Instruction* strideDecoration = module.findDecoration(baseType, spv::Decoration::ArrayStride);
  if (!strideDecoration) return ir::refuse(l.module(), inst, "a pointer step without an ArrayStride");
  uint32_t stride = strideDecoration->wordOperand(2);
  uint32_t uint = ir::typeInt(module, 32);
  // A constant index outside int's range moves the address by a constant.
  Pair offset;
  if (std::optional<uint64_t> known = constantValue(module, inst.idOperand(1))) {
    offset = constant(b, uint, *known * stride);
  } else {
    Pair index = l.pair(inst.idOperand(1));
    offset = std::has_single_bit(stride) ? shiftLeftBy(b, index, std::countr_zero(stride))
                                         : mul(b, index, constant(b, uint, stride));
  }
  uint32_t pairType = ir::typeVector(module, uint, 2);
  uint32_t address = b.bitcast(pairType, base);
  Pair moved = add(b, Pair{b.extract(uint, address, 0), b.extract(uint, address, 1)}, offset);
  uint32_t stepped = b.bitcast(baseType, b.op(Op::OpCompositeConstruct, pairType, {moved.lo, moved.hi}));
  if (operands.size() == 2) {
    l.replace(inst, stepped);
    return okStatus();
  }
  operands.erase(operands.begin(), operands.begin() + 2);
  operands.insert(operands.begin(), Operand::id(stepped));
  Op chain = inst.opcode() == Op::OpPtrAccessChain ? Op::OpAccessChain : Op::OpInBoundsAccessChain;
  l.replace(inst, b.value(chain, inst.typeId(), operands));
  return okStatus();
}

Status lowerGlsl(Lowering& l, Instruction& inst, ir::Builder& b) {
  const Instruction* set = l.module().def(inst.idOperand(0));
  if (!set || set->stringOperand(0) != "GLSL.std.450") return ir::refuse(l.module(), inst, kNoInt64);
  auto arg = [&](size_t i) { return l.pair(inst.idOperand(2 + i)); };
  auto pick = [&](Op less, Pair x, Pair y) { return select(b, compare(b, less, x, y), x, y); };
  switch (static_cast<GLSLstd450>(inst.wordOperand(1))) {
    case GLSLstd450SAbs: l.replace(inst, select(b, isNegative(b, arg(0)), negate(b, arg(0)), arg(0))); break;
    case GLSLstd450SMin: l.replace(inst, pick(Op::OpSLessThan, arg(0), arg(1))); break;
    case GLSLstd450UMin: l.replace(inst, pick(Op::OpULessThan, arg(0), arg(1))); break;
    case GLSLstd450SMax: l.replace(inst, pick(Op::OpSGreaterThan, arg(0), arg(1))); break;
    case GLSLstd450UMax: l.replace(inst, pick(Op::OpUGreaterThan, arg(0), arg(1))); break;
    case GLSLstd450SClamp:
      l.replace(inst, pick(Op::OpSLessThan, pick(Op::OpSGreaterThan, arg(0), arg(1)), arg(2)));
      break;
    case GLSLstd450UClamp:
      l.replace(inst, pick(Op::OpULessThan, pick(Op::OpUGreaterThan, arg(0), arg(1)), arg(2)));
      break;
    default: return ir::refuse(l.module(), inst, kNoInt64);
  }
  return okStatus();
}

// Division and remainder through divideUnsigned's loop, one component at a time; the block is
// split after the instruction for the loop's blocks.
Status lowerDivision(Lowering& l, Instruction& inst) {
  ir::Module& module = l.module();
  Op op = inst.opcode();
  Pair dividends = l.pair(inst.idOperand(0)), divisors = l.pair(inst.idOperand(1));
  auto [b, rest] = ir::Builder::splitAfter(module, &inst);
  uint32_t count = ir::componentCount(module, inst.typeId());
  std::vector<Pair> results;
  for (uint32_t i = 0; i < count; ++i) {
    Pair n = l.component(b, dividends, i), d = l.component(b, divisors, i);
    bool isSigned = op == Op::OpSDiv || op == Op::OpSRem || op == Op::OpSMod;
    uint32_t nNegative = 0, dNegative = 0;
    if (isSigned) {
      nNegative = isNegative(b, n), dNegative = isNegative(b, d);
      n = select(b, nNegative, negate(b, n), n);
      d = select(b, dNegative, negate(b, d), d);
    }
    auto [quotient, remainder] = divideUnsigned(b, n, d);
    Pair result = op == Op::OpUDiv || op == Op::OpSDiv ? quotient : remainder;
    if (op == Op::OpSDiv) {
      result = select(b, b.compare(Op::OpLogicalNotEqual, nNegative, dNegative), negate(b, result), result);
    } else if (op == Op::OpSRem || op == Op::OpSMod) {
      result = select(b, nNegative, negate(b, result), result);
    }
    if (op == Op::OpSMod) {
      // The remainder takes the divisor's sign: a non-zero one of the other sign gains the divisor.
      Pair divisor = l.component(b, divisors, i);
      uint32_t uint = ir::typeInt(module, 32);
      uint32_t nonZero = compare(b, Op::OpINotEqual, result, constant(b, uint, 0));
      uint32_t otherSign = b.compare(Op::OpLogicalNotEqual, isNegative(b, result), dNegative);
      result = select(b, b.compare(Op::OpLogicalAnd, nonZero, otherSign), add(b, result, divisor), result);
    }
    results.push_back(result);
  }
  Pair result = l.vectorOf(b, results, l.halfType(inst.typeId()));
  b.branchTo(rest);
  l.replace(inst, result);
  return okStatus();
}

Status lowerComposite(Lowering& l, Instruction& inst, ir::Builder& b) {
  ir::Module& module = l.module();
  bool wideResult = l.isWide(inst.typeId());
  uint32_t half = wideResult ? l.halfType(inst.typeId()) : 0;
  std::vector<Operand> operands = inst.operands();
  switch (inst.opcode()) {
    case Op::OpCompositeExtract: {
      uint32_t composite = inst.idOperand(0);
      if (l.isWideValue(composite)) {
        l.replace(inst, l.component(b, l.pair(composite), inst.wordOperand(1)));
      } else {
        uint32_t memory = b.value(Op::OpCompositeExtract, l.memoryType(inst.typeId()), operands);
        l.replace(inst, l.split(b, memory, inst.typeId()));
      }
      return okStatus();
    }
    case Op::OpCompositeInsert:
      if (wideResult) {
        Pair object = l.pair(inst.idOperand(0)), composite = l.pair(inst.idOperand(1));
        auto insert = [&](uint32_t part, uint32_t into) {
          return b.value(Op::OpCompositeInsert, half, {Operand::id(part), Operand::id(into), operands[2]});
        };
        l.replace(inst, Pair{insert(object.lo, composite.lo), insert(object.hi, composite.hi)});
      } else {
        uint32_t object = inst.idOperand(0);
        module.setOperand(&inst, 0, Operand::id(l.join(b, l.pair(object), b.typeOf(object))));
      }
      return okStatus();
    case Op::OpCompositeConstruct:
      if (wideResult) {
        std::vector<uint32_t> los, his;
        for (size_t i = 0; i < operands.size(); ++i) {
          Pair part = l.pair(inst.idOperand(i));
          los.push_back(part.lo), his.push_back(part.hi);
        }
        l.replace(inst, Pair{b.op(Op::OpCompositeConstruct, half, los), b.op(Op::OpCompositeConstruct, half, his)});
      } else {
        for (size_t i = 0; i < operands.size(); ++i) {
          uint32_t part = inst.idOperand(i);
          if (l.isWideValue(part)) operands[i] = Operand::id(l.join(b, l.pair(part), b.typeOf(part)));
        }
        module.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), operands));
      }
      return okStatus();
    case Op::OpVectorShuffle: {
      Pair x = l.pair(inst.idOperand(0)), y = l.pair(inst.idOperand(1));
      auto shuffle = [&](uint32_t a, uint32_t c) {
        std::vector<Operand> parts = operands;
        parts[0] = Operand::id(a), parts[1] = Operand::id(c);
        return b.value(Op::OpVectorShuffle, half, parts);
      };
      l.replace(inst, Pair{shuffle(x.lo, y.lo), shuffle(x.hi, y.hi)});
      return okStatus();
    }
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic: {
      size_t indexAt = inst.opcode() == Op::OpVectorExtractDynamic ? 1 : 2;
      uint32_t index = l.low32(b, inst.idOperand(indexAt));
      if (!l.isWideValue(inst.idOperand(0))) {
        module.setOperand(&inst, indexAt, Operand::id(index));
        return okStatus();
      }
      Pair vector = l.pair(inst.idOperand(0));
      if (indexAt == 1) {
        uint32_t uint = ir::typeInt(module, 32);
        l.replace(inst,
                  Pair{b.op(inst.opcode(), uint, {vector.lo, index}), b.op(inst.opcode(), uint, {vector.hi, index})});
      } else {
        Pair object = l.pair(inst.idOperand(1));
        l.replace(inst, Pair{b.op(inst.opcode(), half, {vector.lo, object.lo, index}),
                             b.op(inst.opcode(), half, {vector.hi, object.hi, index})});
      }
      return okStatus();
    }
    default: return ir::refuse(l.module(), inst, kNoInt64);
  }
}

}  // namespace

bool isBufferPointerCast(const ir::Module& module, const Instruction& inst) {
  return inst.opcode() == Op::OpBitcast && ir::isBufferPointer(module, inst.typeId()) &&
         ir::isBufferPointer(module, ir::typeOf(module, inst.idOperand(0)));
}

Status lowerInstruction(Lowering& l, Instruction& inst) {
  ir::Module& module = l.module();
  Op op = inst.opcode();
  if (ir::isAtomic(op))
    return ir::refuse(l.module(), inst,
                      "64-bit atomics need Vulkan's shaderInt64 and shaderBufferInt64Atomics, which this device "
                      "lacks");
  if (isDivision(op)) return lowerDivision(l, inst);
  ir::Builder b = ir::Builder::before(module, &inst);
  auto arg = [&](size_t i) { return l.pair(inst.idOperand(i)); };
  bool wideResult = l.isWide(inst.typeId());
  if (isBufferPointerCast(module, inst)) {
    uint32_t pairType = ir::typeVector(module, ir::typeInt(module, 32), 2);
    l.replace(inst, b.bitcast(inst.typeId(), b.bitcast(pairType, inst.idOperand(0))));
    return okStatus();
  }
  switch (op) {
    case Op::OpIAdd: l.replace(inst, add(b, arg(0), arg(1))); break;
    case Op::OpISub: l.replace(inst, sub(b, arg(0), arg(1))); break;
    case Op::OpIMul: l.replace(inst, mul(b, arg(0), arg(1))); break;
    case Op::OpSNegate: l.replace(inst, negate(b, arg(0))); break;
    case Op::OpNot: l.replace(inst, Pair{b.bitNot(arg(0).lo), b.bitNot(arg(0).hi)}); break;
    case Op::OpBitwiseAnd:
    case Op::OpBitwiseOr:
    case Op::OpBitwiseXor: l.replace(inst, bitwise(b, op, arg(0), arg(1))); break;
    case Op::OpShiftLeftLogical:
    case Op::OpShiftRightLogical:
    case Op::OpShiftRightArithmetic: {
      uint32_t amount = l.low32(b, inst.idOperand(1));
      if (!wideResult) {
        module.setOperand(&inst, 1, Operand::id(amount));
      } else if (op == Op::OpShiftLeftLogical) {
        l.replace(inst, shiftLeft(b, arg(0), amount));
      } else {
        l.replace(inst, shiftRight(b, arg(0), amount, op == Op::OpShiftRightArithmetic));
      }
      break;
    }
    case Op::OpSelect: l.replace(inst, select(b, inst.idOperand(0), arg(1), arg(2))); break;
    case Op::OpVariable: break;  // a 64-bit initializer becomes its memory form with the constants
    case Op::OpCopyObject: l.replace(inst, arg(0)); break;
    case Op::OpUndef: {
      uint32_t undef = ir::undef(module, l.halfType(inst.typeId()));
      l.replace(inst, Pair{undef, undef});
      break;
    }
    case Op::OpUConvert:
    case Op::OpSConvert: return lowerConvert(l, inst, b);
    case Op::OpConvertUToF:
    case Op::OpConvertSToF: l.replace(inst, toFloat(b, arg(0), inst.typeId(), op == Op::OpConvertSToF)); break;
    case Op::OpConvertFToU:
    case Op::OpConvertFToS: l.replace(inst, fromFloat(b, inst.idOperand(0), op == Op::OpConvertFToS)); break;
    case Op::OpBitcast: return lowerBitcast(l, inst, b);
    case Op::OpConvertPtrToU: {
      uint32_t pairType = ir::typeVector(module, ir::typeInt(module, 32), 2);
      l.replace(inst, l.split(b, b.bitcast(pairType, inst.idOperand(0)), inst.typeId()));
      break;
    }
    case Op::OpConvertUToPtr:
      l.replace(inst, b.bitcast(inst.typeId(), l.join(b, arg(0), b.typeOf(inst.idOperand(0)))));
      break;
    case Op::OpLoad:
      l.replace(inst, l.split(b, b.value(Op::OpLoad, l.memoryType(inst.typeId()), inst.operands()), inst.typeId()));
      break;
    case Op::OpStore: {
      uint32_t object = inst.idOperand(1);
      module.setOperand(&inst, 1, Operand::id(l.join(b, arg(1), b.typeOf(object))));
      break;
    }
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain: return lowerPointerStep(l, inst, b);
    case Op::OpExtInst: return lowerGlsl(l, inst, b);
    case Op::OpBitCount: {
      Pair x = arg(0);
      uint32_t half = b.typeOf(x.lo);
      uint32_t count = b.iadd(b.op(Op::OpBitCount, half, {x.lo}), b.op(Op::OpBitCount, half, {x.hi}));
      if (wideResult) {
        l.replace(inst, Pair{count, b.bits(half, 0)});
      } else {
        l.replace(inst, b.width(inst.typeId()) == 32 ? count : b.resize(count, b.width(inst.typeId())));
      }
      break;
    }
    case Op::OpUMulExtended:
    case Op::OpSMulExtended: {
      uint32_t wideType = b.typeOf(inst.idOperand(0));
      Pair low = mul(b, arg(0), arg(1));
      Pair high = mulHigh(b, arg(0), arg(1), op == Op::OpSMulExtended);
      l.replace(inst,
                b.op(Op::OpCompositeConstruct, inst.typeId(), {l.join(b, low, wideType), l.join(b, high, wideType)}));
      break;
    }
    case Op::OpCompositeExtract:
    case Op::OpCompositeInsert:
    case Op::OpCompositeConstruct:
    case Op::OpVectorShuffle:
    case Op::OpVectorExtractDynamic:
    case Op::OpVectorInsertDynamic: return lowerComposite(l, inst, b);
    case Op::OpSwitch: return lowerSwitch(l, inst, b);
    default:
      if (isCompare(op)) {
        l.replace(inst, compare(b, op, arg(0), arg(1)));
        break;
      }
      if (ir::isNonUniformGroupOperation(op)) return lowerCollective(l, inst);
      if (ir::isCrossInvocation(op))
        return ir::refuse(l.module(), inst, std::string("a 64-bit sub-group or work-group collective ") + kNoInt64);
      return ir::refuse(l.module(), inst, kNoInt64);
  }
  return okStatus();
}

}  // namespace cl2vk::int64
