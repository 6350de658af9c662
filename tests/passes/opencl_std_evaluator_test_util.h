// A tiny evaluator for the straight-line code the OpenCL.std and conversion lowerings emit, so that
// tests can compare the lowered instructions with C++ reference implementations over many inputs
// without a GPU. It runs one function of a single block (integer and float arithmetic, bit
// operations, comparisons, selects, conversions, composites and the GLSL.std.450 instructions the
// lowerings use) on 8- to 64-bit scalars and vectors, and reports anything it does not know, or a
// conversion whose result SPIR-V leaves undefined, as a test failure.
#pragma once

#include <gtest/gtest.h>
#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"
#include "ir/types.h"

namespace cl2vk::test {

// 128-bit integers for exact products and clamps (a GCC extension, hence the marker).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

// A scalar or vector holds one lane per component (the bits, zero-extended); a struct holds
// members.
struct EvalValue {
  std::vector<uint64_t> lanes;
  std::vector<EvalValue> members;
};

inline double halfBitsToDouble(uint64_t bits) {
  int exponent = int((bits >> 10) & 31);
  double fraction = double(bits & 0x3ff);
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  if (exponent == 31) return fraction != 0 ? std::nan("") : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(fraction + 1024, exponent - 25);
}

class Evaluator {
 public:
  explicit Evaluator(const ir::Module& module) : module_(module) {}

  // Runs `function` (by OpName) on `arguments` and returns what its OpReturnValue returns.
  EvalValue run(const std::string& function, const std::vector<EvalValue>& arguments) {
    values_.clear();
    const ir::Function* fn = nullptr;
    for (const ir::Function& candidate : module_.functions()) {
      if (module_.name(candidate.id()) == function) fn = &candidate;
    }
    EXPECT_NE(fn, nullptr) << "no function " << function;
    if (!fn) return {};
    size_t index = 0;
    for (const ir::Instruction& param : fn->header()) {
      if (param.opcode() == spv::Op::OpFunctionParameter) values_[param.resultId()] = arguments.at(index++);
    }
    EXPECT_EQ(fn->blocks().size(), 1u) << "the evaluator runs straight-line code only";
    for (const ir::Instruction& inst : fn->blocks().front().instructions()) {
      if (inst.opcode() == spv::Op::OpLabel) continue;
      if (inst.opcode() == spv::Op::OpReturnValue) return value(inst.idOperand(0));
      values_[inst.resultId()] = execute(inst);
    }
    ADD_FAILURE() << "no OpReturnValue";
    return {};
  }

 private:
  struct Kind {
    uint32_t width = 0;
    bool isFloat = false;
    bool isBool = false;
  };

  Kind kind(uint32_t type) const {
    const ir::Instruction* def = module_.def(type);
    if (def->opcode() == spv::Op::OpTypeVector) def = module_.def(def->idOperand(0));
    if (def->opcode() == spv::Op::OpTypeBool) return {1, false, true};
    return {def->wordOperand(0), def->opcode() == spv::Op::OpTypeFloat, false};
  }
  static uint64_t mask(uint32_t width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }
  static int64_t sext(uint64_t bits, uint32_t width) {
    return width >= 64 ? int64_t(bits) : int64_t(bits << (64 - width)) >> (64 - width);
  }
  static double toDouble(uint64_t bits, uint32_t width) {
    if (width == 16) return halfBitsToDouble(bits);
    if (width == 32) return std::bit_cast<float>(uint32_t(bits));
    return std::bit_cast<double>(bits);
  }
  static uint64_t fromDouble(double value, uint32_t width) {
    if (width == 16) return ir::floatToHalfBits(value);
    if (width == 32) return std::bit_cast<uint32_t>(float(value));
    return std::bit_cast<uint64_t>(value);
  }

  EvalValue value(uint32_t id) {
    if (auto it = values_.find(id); it != values_.end()) return it->second;
    const ir::Instruction* def = module_.def(id);
    EvalValue result;
    switch (def->opcode()) {
      case spv::Op::OpConstant: {
        const auto& words = def->operand(0).words;
        result.lanes = {words[0] | (words.size() > 1 ? uint64_t(words[1]) << 32 : 0)};
        result.lanes[0] &= mask(kind(def->typeId()).width);
        break;
      }
      case spv::Op::OpConstantTrue: result.lanes = {1}; break;
      case spv::Op::OpConstantFalse: result.lanes = {0}; break;
      case spv::Op::OpConstantComposite:
        for (size_t i = 0; i < def->numOperands(); ++i) result.lanes.push_back(value(def->idOperand(i)).lanes[0]);
        break;
      default: ADD_FAILURE() << "the evaluator cannot read " << module_.describe(*def);
    }
    return values_[id] = result;
  }

  EvalValue execute(const ir::Instruction& inst) {
    spv::Op op = inst.opcode();
    Kind out = inst.typeId() ? kind(inst.typeId()) : Kind{};
    auto operand = [&](size_t i) { return value(inst.idOperand(i)); };
    auto lanewise = [&](size_t count, auto&& f) {
      std::vector<EvalValue> args;
      for (size_t i = 0; i < count; ++i) args.push_back(operand(i));
      EvalValue result;
      for (size_t lane = 0; lane < args[0].lanes.size(); ++lane) {
        std::vector<uint64_t> a;
        for (const EvalValue& arg : args) a.push_back(arg.lanes.size() == 1 ? arg.lanes[0] : arg.lanes[lane]);
        result.lanes.push_back(f(a) & mask(out.width));
      }
      return result;
    };
    Kind in = inst.numOperands() > 0 && inst.operand(0).isId() && module_.def(inst.idOperand(0))->typeId()
                  ? kind(module_.def(inst.idOperand(0))->typeId())
                  : Kind{};
    uint32_t w = in.width;
    auto fl = [&](uint64_t bits) { return toDouble(bits, w); };
    // Float arithmetic rounds to the result width once (f32 in float, f64 in double).
    auto fround = [&](double v) { return fromDouble(out.width == 32 ? double(float(v)) : v, out.width); };
    switch (op) {
      case spv::Op::OpIAdd: return lanewise(2, [](auto a) { return a[0] + a[1]; });
      case spv::Op::OpISub: return lanewise(2, [](auto a) { return a[0] - a[1]; });
      case spv::Op::OpIMul: return lanewise(2, [](auto a) { return a[0] * a[1]; });
      case spv::Op::OpSNegate: return lanewise(1, [](auto a) { return 0 - a[0]; });
      case spv::Op::OpBitwiseAnd: return lanewise(2, [](auto a) { return a[0] & a[1]; });
      case spv::Op::OpBitwiseOr: return lanewise(2, [](auto a) { return a[0] | a[1]; });
      case spv::Op::OpBitwiseXor: return lanewise(2, [](auto a) { return a[0] ^ a[1]; });
      case spv::Op::OpNot: return lanewise(1, [](auto a) { return ~a[0]; });
      case spv::Op::OpShiftLeftLogical:
      case spv::Op::OpShiftRightLogical:
      case spv::Op::OpShiftRightArithmetic:
        return lanewise(2, [&](auto a) -> uint64_t {
          if (a[1] >= w)
            ADD_FAILURE() << "shift by " << a[1] << " of a " << w << "-bit value in " << module_.describe(inst);
          uint64_t s = a[1] & 63;
          if (op == spv::Op::OpShiftLeftLogical) return a[0] << s;
          if (op == spv::Op::OpShiftRightLogical) return a[0] >> s;
          return uint64_t(sext(a[0], w) >> s);
        });
      case spv::Op::OpIEqual:
      case spv::Op::OpLogicalEqual: return lanewise(2, [](auto a) { return uint64_t(a[0] == a[1]); });
      case spv::Op::OpINotEqual:
      case spv::Op::OpLogicalNotEqual: return lanewise(2, [](auto a) { return uint64_t(a[0] != a[1]); });
      case spv::Op::OpULessThan: return lanewise(2, [](auto a) { return uint64_t(a[0] < a[1]); });
      case spv::Op::OpULessThanEqual: return lanewise(2, [](auto a) { return uint64_t(a[0] <= a[1]); });
      case spv::Op::OpUGreaterThan: return lanewise(2, [](auto a) { return uint64_t(a[0] > a[1]); });
      case spv::Op::OpUGreaterThanEqual: return lanewise(2, [](auto a) { return uint64_t(a[0] >= a[1]); });
      case spv::Op::OpSLessThan: return lanewise(2, [&](auto a) { return uint64_t(sext(a[0], w) < sext(a[1], w)); });
      case spv::Op::OpSLessThanEqual:
        return lanewise(2, [&](auto a) { return uint64_t(sext(a[0], w) <= sext(a[1], w)); });
      case spv::Op::OpSGreaterThan: return lanewise(2, [&](auto a) { return uint64_t(sext(a[0], w) > sext(a[1], w)); });
      case spv::Op::OpSGreaterThanEqual:
        return lanewise(2, [&](auto a) { return uint64_t(sext(a[0], w) >= sext(a[1], w)); });
      case spv::Op::OpLogicalAnd: return lanewise(2, [](auto a) { return a[0] & a[1]; });
      case spv::Op::OpLogicalOr: return lanewise(2, [](auto a) { return a[0] | a[1]; });
      case spv::Op::OpLogicalNot: return lanewise(1, [](auto a) { return a[0] ^ 1; });
      case spv::Op::OpSelect: return lanewise(3, [](auto a) { return a[0] ? a[1] : a[2]; });
      case spv::Op::OpUConvert: return lanewise(1, [](auto a) { return a[0]; });
      case spv::Op::OpBitcast: {
        // The bits regrouped where the widths differ (a double as two 32-bit words, low first).
        if (out.width == w) return lanewise(1, [](auto a) { return a[0]; });
        EvalValue source = operand(0), result;
        UInt128 pending = 0;
        uint32_t pendingBits = 0;
        for (uint64_t lane : source.lanes) {
          pending |= UInt128(lane) << pendingBits;
          pendingBits += w;
          while (pendingBits >= out.width) {
            result.lanes.push_back(uint64_t(pending) & mask(out.width));
            pending >>= out.width;
            pendingBits -= out.width;
          }
        }
        return result;
      }
      case spv::Op::OpSConvert: return lanewise(1, [&](auto a) { return uint64_t(sext(a[0], w)); });
      case spv::Op::OpBitCount: return lanewise(1, [](auto a) { return uint64_t(std::popcount(a[0])); });
      case spv::Op::OpFAdd: return lanewise(2, [&](auto a) { return fround(fl(a[0]) + fl(a[1])); });
      case spv::Op::OpFSub: return lanewise(2, [&](auto a) { return fround(fl(a[0]) - fl(a[1])); });
      case spv::Op::OpFMul:
      case spv::Op::OpVectorTimesScalar: return lanewise(2, [&](auto a) { return fround(fl(a[0]) * fl(a[1])); });
      case spv::Op::OpDot: {
        // Each product and each sum rounded, in component order.
        EvalValue x = operand(0), y = operand(1);
        uint64_t sum = 0;
        for (size_t lane = 0; lane < x.lanes.size(); ++lane) {
          uint64_t product = fround(fl(x.lanes[lane]) * fl(y.lanes[lane]));
          sum = lane == 0 ? product : fround(fl(sum) + fl(product));
        }
        return EvalValue{{sum}, {}};
      }
      case spv::Op::OpFDiv: return lanewise(2, [&](auto a) { return fround(fl(a[0]) / fl(a[1])); });
      case spv::Op::OpFNegate: return lanewise(1, [&](auto a) { return fround(-fl(a[0])); });
      case spv::Op::OpIsNan: return lanewise(1, [&](auto a) { return uint64_t(std::isnan(fl(a[0]))); });
      case spv::Op::OpIsInf: return lanewise(1, [&](auto a) { return uint64_t(std::isinf(fl(a[0]))); });
      case spv::Op::OpFOrdEqual: return lanewise(2, [&](auto a) { return uint64_t(fl(a[0]) == fl(a[1])); });
      case spv::Op::OpFUnordEqual:
        return lanewise(2, [&](auto a) { return uint64_t(!(fl(a[0]) < fl(a[1]) || fl(a[0]) > fl(a[1]))); });
      case spv::Op::OpFOrdNotEqual:
        return lanewise(2, [&](auto a) { return uint64_t(fl(a[0]) < fl(a[1]) || fl(a[0]) > fl(a[1])); });
      case spv::Op::OpFOrdLessThan: return lanewise(2, [&](auto a) { return uint64_t(fl(a[0]) < fl(a[1])); });
      case spv::Op::OpFOrdLessThanEqual: return lanewise(2, [&](auto a) { return uint64_t(fl(a[0]) <= fl(a[1])); });
      case spv::Op::OpFOrdGreaterThan: return lanewise(2, [&](auto a) { return uint64_t(fl(a[0]) > fl(a[1])); });
      case spv::Op::OpFOrdGreaterThanEqual: return lanewise(2, [&](auto a) { return uint64_t(fl(a[0]) >= fl(a[1])); });
      case spv::Op::OpConvertSToF: return lanewise(1, [&](auto a) { return fround(double(sext(a[0], w))); });
      case spv::Op::OpConvertUToF: return lanewise(1, [&](auto a) { return fround(double(a[0])); });
      case spv::Op::OpFConvert:
        return lanewise(1, [&](auto a) {
          if (out.width < w) ADD_FAILURE() << "narrowing OpFConvert left: its rounding is the device's choice";
          return fromDouble(fl(a[0]), out.width);
        });
      case spv::Op::OpConvertFToS:
      case spv::Op::OpConvertFToU:
        return lanewise(1, [&](auto a) -> uint64_t {
          double t = std::trunc(fl(a[0]));
          bool isSigned = op == spv::Op::OpConvertFToS;
          double low = isSigned ? -std::ldexp(1.0, int(out.width) - 1) : 0.0;
          double high = std::ldexp(1.0, int(isSigned ? out.width - 1 : out.width));
          if (!(t >= low && t < high)) {
            ADD_FAILURE() << "undefined conversion of " << fl(a[0]) << " in " << module_.describe(inst);
            return 0;
          }
          return isSigned ? uint64_t(int64_t(t)) : uint64_t(t);
        });
      case spv::Op::OpUMulExtended:
      case spv::Op::OpSMulExtended: {
        EvalValue x = operand(0), y = operand(1), result;
        result.members.resize(2);
        for (size_t lane = 0; lane < x.lanes.size(); ++lane) {
          Int128 p = op == spv::Op::OpSMulExtended ? Int128(sext(x.lanes[lane], w)) * sext(y.lanes[lane], w)
                                                   : Int128(UInt128(x.lanes[lane]) * y.lanes[lane]);
          result.members[0].lanes.push_back(uint64_t(p) & mask(w));
          result.members[1].lanes.push_back(uint64_t(p >> w) & mask(w));
        }
        return result;
      }
      case spv::Op::OpAny: {
        EvalValue x = operand(0);
        return EvalValue{
            {uint64_t(std::any_of(x.lanes.begin(), x.lanes.end(), [](uint64_t lane) { return lane != 0; }))}, {}};
      }
      case spv::Op::OpCompositeExtract: {
        EvalValue composite = operand(0);
        uint32_t index = inst.wordOperand(1);
        if (!composite.members.empty()) return composite.members.at(index);
        return EvalValue{{composite.lanes.at(index)}, {}};
      }
      case spv::Op::OpCompositeConstruct: {
        EvalValue result;
        for (size_t i = 0; i < inst.numOperands(); ++i) {
          for (uint64_t lane : operand(i).lanes) result.lanes.push_back(lane);
        }
        return result;
      }
      case spv::Op::OpExtInst: return glsl(inst, out);
      default: ADD_FAILURE() << "the evaluator cannot run " << module_.describe(inst); return {};
    }
  }

  EvalValue glsl(const ir::Instruction& inst, Kind out) {
    std::vector<EvalValue> args;
    for (size_t i = 2; i < inst.numOperands(); ++i) args.push_back(value(inst.idOperand(i)));
    Kind in = kind(module_.def(inst.idOperand(2))->typeId());
    uint32_t w = in.width;
    auto fl = [&](uint64_t bits) { return toDouble(bits, w); };
    auto fr = [&](double v) { return fromDouble(out.width == 32 ? double(float(v)) : v, out.width); };
    auto s = [&](uint64_t bits) { return sext(bits, w); };
    uint32_t number = inst.wordOperand(1);
    auto each = [&](auto&& f) {
      EvalValue result;
      for (size_t lane = 0; lane < args[0].lanes.size(); ++lane) {
        std::vector<uint64_t> a;
        for (const EvalValue& arg : args) a.push_back(arg.lanes.size() == 1 ? arg.lanes[0] : arg.lanes[lane]);
        result.lanes.push_back(uint64_t(f(a)) & mask(out.width));
      }
      return result;
    };
    auto nmin = [](double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::fmin(a, b); };
    auto nmax = [](double a, double b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::fmax(a, b); };
    switch (number) {
      case GLSLstd450SAbs: return each([&](auto a) { return uint64_t(s(a[0]) < 0 ? 0 - a[0] : a[0]); });
      case GLSLstd450SMin: return each([&](auto a) { return s(a[0]) < s(a[1]) ? a[0] : a[1]; });
      case GLSLstd450SMax: return each([&](auto a) { return s(a[0]) > s(a[1]) ? a[0] : a[1]; });
      case GLSLstd450UMin: return each([&](auto a) { return std::min(a[0], a[1]); });
      case GLSLstd450UMax: return each([&](auto a) { return std::max(a[0], a[1]); });
      case GLSLstd450SClamp:  // min(max(x, lo), hi), as GLSL.std.450 defines it
        return each([&](auto a) { return uint64_t(std::min(std::max(s(a[0]), s(a[1])), s(a[2]))); });
      case GLSLstd450UClamp: return each([&](auto a) { return std::min(std::max(a[0], a[1]), a[2]); });
      case GLSLstd450FindUMsb:
        EXPECT_EQ(w, 32u) << "FindUMsb takes 32 bits in Vulkan";
        return each([&](auto a) { return a[0] == 0 ? ~0ull : uint64_t(63 - std::countl_zero(a[0])); });
      case GLSLstd450FindILsb:
        EXPECT_EQ(w, 32u) << "FindILsb takes 32 bits in Vulkan";
        return each([&](auto a) { return a[0] == 0 ? ~0ull : uint64_t(std::countr_zero(a[0])); });
      case GLSLstd450RoundEven: return each([&](auto a) { return fr(std::nearbyint(fl(a[0]))); });
      case GLSLstd450Floor: return each([&](auto a) { return fr(std::floor(fl(a[0]))); });
      case GLSLstd450Ceil: return each([&](auto a) { return fr(std::ceil(fl(a[0]))); });
      case GLSLstd450Trunc: return each([&](auto a) { return fr(std::trunc(fl(a[0]))); });
      case GLSLstd450FAbs: return each([&](auto a) { return fr(std::fabs(fl(a[0]))); });
      case GLSLstd450FSign:
        return each([&](auto a) {
          double x = fl(a[0]);
          return fr(x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
        });
      case GLSLstd450NMin: return each([&](auto a) { return fr(nmin(fl(a[0]), fl(a[1]))); });
      case GLSLstd450NMax: return each([&](auto a) { return fr(nmax(fl(a[0]), fl(a[1]))); });
      case GLSLstd450NClamp: return each([&](auto a) { return fr(nmin(nmax(fl(a[0]), fl(a[1])), fl(a[2]))); });
      case GLSLstd450Sqrt: return each([&](auto a) { return fr(std::sqrt(fl(a[0]))); });
      case GLSLstd450InverseSqrt:
        return each([&](auto a) { return fr(double(1.0L / std::sqrt(static_cast<long double>(fl(a[0]))))); });
      default: ADD_FAILURE() << "the evaluator cannot run GLSL.std.450 instruction " << number; return {};
    }
  }

  const ir::Module& module_;
  std::unordered_map<uint32_t, EvalValue> values_;
};

}  // namespace cl2vk::test
