#include "passes/instructions/lower_conversions.h"

#include <cmath>
#include <optional>
#include <unordered_map>

#include "ir/types.h"
#include "passes/instructions/opencl_std_float_bits.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;

// What the decorations ask of one conversion.
struct Conversion {
  Instruction& inst;
  bool saturated;
  std::optional<Rounding> rounding;
};

uint64_t maxUnsigned(uint32_t width) { return width == 64 ? ~0ull : (1ull << width) - 1; }
uint64_t maxSigned(uint32_t width) { return maxUnsigned(width) >> 1; }

uint32_t convert(ir::Builder& e, spv::Op opcode, uint32_t type, uint32_t value) {
  if (e.typeOf(value) == type) return value;
  return e.op(opcode, type, {value});
}

uint32_t lowerFloatToInt(ir::Builder& e, const Conversion& c) {
  bool isSigned = c.inst.opcode() == spv::Op::OpConvertFToS;
  uint32_t type = c.inst.typeId();
  uint32_t x = c.inst.idOperand(0);
  uint32_t floatType = e.typeOf(x);
  switch (c.rounding.value_or(Rounding::kTowardZero)) {
    case Rounding::kNearestEven: x = e.glsl(GLSLstd450RoundEven, floatType, {x}); break;
    case Rounding::kTowardPositive: x = e.glsl(GLSLstd450Ceil, floatType, {x}); break;
    case Rounding::kTowardNegative: x = e.glsl(GLSLstd450Floor, floatType, {x}); break;
    case Rounding::kTowardZero: break;  // what the conversion itself does
  }
  spv::Op opcode = isSigned ? spv::Op::OpConvertFToS : spv::Op::OpConvertFToU;
  if (!c.saturated) return e.op(opcode, type, {x});

  // Saturate: compare against the range's bounds as floats (powers of two, exact), NaN gives 0.
  uint32_t width = e.width(type);
  double low = isSigned ? -std::ldexp(1.0, int(width) - 1) : 0.0;
  double highExclusive = std::ldexp(1.0, int(isSigned ? width - 1 : width));
  // A half holds no -2^31: there every finite value is in range and only -inf is below.
  bool lowIsInfinite = e.width(floatType) == 16 && isSigned && width > 16;
  uint32_t tooLow = e.compare(lowIsInfinite ? spv::Op::OpFOrdLessThanEqual : spv::Op::OpFOrdLessThan, x,
                              e.real(floatType, lowIsInfinite ? -INFINITY : low));
  uint32_t tooHigh = e.compare(spv::Op::OpFOrdGreaterThanEqual, x, e.real(floatType, highExclusive));
  uint32_t isNan = e.test(spv::Op::OpIsNan, x);
  uint32_t outside = e.compare(spv::Op::OpLogicalOr, e.compare(spv::Op::OpLogicalOr, tooLow, tooHigh), isNan);
  uint32_t converted = e.op(opcode, type, {e.select(outside, e.real(floatType, 0.0), x)});
  uint32_t result = e.select(tooLow, e.bits(type, isSigned ? ~maxSigned(width) : 0), converted);
  return e.select(tooHigh, e.bits(type, isSigned ? maxSigned(width) : maxUnsigned(width)), result);
}

uint32_t lowerIntToFloat(ir::Builder& e, const Conversion& c) {
  bool isSigned = c.inst.opcode() == spv::Op::OpConvertSToF;
  uint32_t x = c.inst.idOperand(0);
  if (!c.rounding) return e.op(c.inst.opcode(), c.inst.typeId(), {x});
  return intToFloat(e, x, isSigned, c.inst.typeId(), *c.rounding);
}

uint32_t lowerFloatConvert(ir::Builder& e, const Conversion& c) {
  uint32_t x = c.inst.idOperand(0);
  uint32_t type = c.inst.typeId();
  if (!c.rounding || e.width(type) > e.width(e.typeOf(x))) return e.op(spv::Op::OpFConvert, type, {x});
  return narrowFloat(e, x, type, *c.rounding);
}

// OpSConvert / OpUConvert, clamped to the destination's range first when saturated.
uint32_t lowerIntConvert(ir::Builder& e, const Conversion& c) {
  bool isSigned = c.inst.opcode() == spv::Op::OpSConvert;
  uint32_t x = c.inst.idOperand(0);
  uint32_t type = c.inst.typeId();
  uint32_t width = e.width(type);
  uint32_t sourceType = e.typeOf(x);
  if (c.saturated && width < e.width(sourceType)) {
    x = isSigned ? e.glsl(GLSLstd450SClamp, sourceType,
                          {x, e.bits(sourceType, ~maxSigned(width)), e.bits(sourceType, maxSigned(width))})
                 : e.glsl(GLSLstd450UMin, sourceType, {x, e.bits(sourceType, maxUnsigned(width))});
  }
  return e.op(c.inst.opcode(), type, {x});
}

uint32_t lowerSatSignedToUnsigned(ir::Builder& e, const Conversion& c) {
  uint32_t x = c.inst.idOperand(0);
  uint32_t type = c.inst.typeId();
  uint32_t sourceType = e.typeOf(x);
  uint32_t clamped = e.glsl(GLSLstd450SMax, sourceType, {x, e.bits(sourceType, 0)});
  if (e.width(type) < e.width(sourceType))
    clamped = e.glsl(GLSLstd450UMin, sourceType, {clamped, e.bits(sourceType, maxUnsigned(e.width(type)))});
  return convert(e, spv::Op::OpUConvert, type, clamped);
}

uint32_t lowerSatUnsignedToSigned(ir::Builder& e, const Conversion& c) {
  uint32_t x = c.inst.idOperand(0);
  uint32_t type = c.inst.typeId();
  uint32_t sourceType = e.typeOf(x);
  if (e.width(type) <= e.width(sourceType))
    x = e.glsl(GLSLstd450UMin, sourceType, {x, e.bits(sourceType, maxSigned(e.width(type)))});
  return convert(e, spv::Op::OpUConvert, type, x);
}

using ConversionLowering = uint32_t (*)(ir::Builder&, const Conversion&);

const std::unordered_map<spv::Op, ConversionLowering>& conversionLowerings() {
  static const std::unordered_map<spv::Op, ConversionLowering> table = {
      {spv::Op::OpConvertFToS, lowerFloatToInt},
      {spv::Op::OpConvertFToU, lowerFloatToInt},
      {spv::Op::OpConvertSToF, lowerIntToFloat},
      {spv::Op::OpConvertUToF, lowerIntToFloat},
      {spv::Op::OpFConvert, lowerFloatConvert},
      {spv::Op::OpSConvert, lowerIntConvert},
      {spv::Op::OpUConvert, lowerIntConvert},
      {spv::Op::OpSatConvertSToU, lowerSatSignedToUnsigned},
      {spv::Op::OpSatConvertUToS, lowerSatUnsignedToSigned},
  };
  return table;
}

// Rewrites one conversion when a decoration (or its opcode) asks for more than Vulkan's plain
// conversion does; the old instruction goes, and its decorations with it.
// Where the driver's OpConvertUToF is not correctly rounded (Target::exactUnsignedToFloat off), a
// plain one gets OpenCL's default rounding, to nearest even, computed on the bits.
Expected<bool> lowerConversion(Module& module, Instruction& inst, const Target& target) {
  const Instruction* rounding = module.findDecoration(inst.resultId(), spv::Decoration::FPRoundingMode);
  Conversion c{inst, module.findDecoration(inst.resultId(), spv::Decoration::SaturatedConversion) != nullptr,
               rounding ? std::optional(roundingFromSpirv(rounding->wordOperand(2))) : std::nullopt};
  if (!c.rounding && inst.opcode() == spv::Op::OpConvertUToF && !target.exactUnsignedToFloat)
    c.rounding = Rounding::kNearestEven;
  bool isSatOpcode = inst.opcode() == spv::Op::OpSatConvertSToU || inst.opcode() == spv::Op::OpSatConvertUToS;
  if (!c.saturated && !c.rounding && !isSatOpcode) return false;
  ir::Builder builder = ir::Builder::before(module, &inst);
  uint32_t replacement = conversionLowerings().at(inst.opcode())(builder, c);
  module.replaceAllUses(inst.resultId(), replacement);
  CL2VK_TRY(module.remove(&inst));
  return true;
}

}  // namespace

Expected<PassResult> lowerConversions(Module& module, const Target& target) {
  std::unordered_map<spv::Op, LowerFn> table;
  for (const auto& [opcode, lowering] : conversionLowerings())
    table[opcode] = [&target](Module& m, Instruction& inst) { return lowerConversion(m, inst, target); };
  return lowerByOpcode(module, table);
}

}  // namespace cl2vk
