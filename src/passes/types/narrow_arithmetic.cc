// Arithmetic and conversions on 8/16-bit integers held as zero-extended 32-bit values
// (narrow_lowering.h): masked after what can carry past the width, sign-extended before what
// reads the sign.
#include <spirv/unified1/GLSL.std.450.h>

#include "ir/types.h"
#include "passes/types/narrow_lowering.h"

namespace cl2vk::narrow {

uint32_t NarrowLowering::mask(Builder& b, uint32_t value, uint32_t width) {
  return b.bitAnd(value, b.bits(b.typeOf(value), (uint64_t{1} << width) - 1));
}

uint32_t NarrowLowering::signExtend(Builder& b, uint32_t value, uint32_t width) {
  uint32_t shift = b.bits(b.typeOf(value), 32 - width);
  return b.ashr(b.shl(value, shift), shift);
}

namespace {

// The bits of a value as 32-bit words, low bits first, for bit casts between shapes.
struct BitStream {
  std::vector<uint32_t> words;  // ids of 32-bit unsigned values
  uint32_t bits = 0;            // how many bits are filled
};

}  // namespace

Expected<bool> NarrowLowering::lowerArithmetic(Instruction& inst) {
  Builder b = Builder::before(module_, &inst);
  spv::Op opcode = inst.opcode();
  uint32_t type = inst.typeId();
  uint32_t width = narrowWidth(type);
  auto operand = [&](size_t i) { return widened(inst.idOperand(i)); };
  auto operandWidth = [&](size_t i) { return narrowWidth(originalType(inst.idOperand(i))); };
  switch (opcode) {
    case spv::Op::OpIAdd:
    case spv::Op::OpISub:
    case spv::Op::OpIMul:
    case spv::Op::OpShiftLeftLogical: {
      if (!width) return false;
      // clang has already reduced a shift amount modulo the width (OpenCL's rule), so the amount
      // is below it and the shift needs no more than the mask.
      uint32_t value = b.op(opcode, mapType(type), {operand(0), operand(1)});
      CL2VK_TRY(finish(inst, mask(b, value, width), type));
      return true;
    }
    case spv::Op::OpNot:
    case spv::Op::OpSNegate: {
      if (!width) return false;
      CL2VK_TRY(finish(inst, mask(b, b.op(opcode, mapType(type), {operand(0)}), width), type));
      return true;
    }
    case spv::Op::OpShiftRightArithmetic:
    case spv::Op::OpSDiv:
    case spv::Op::OpSRem:
    case spv::Op::OpSMod: {
      if (!width) return false;
      uint32_t second = opcode == spv::Op::OpShiftRightArithmetic ? operand(1) : signExtend(b, operand(1), width);
      uint32_t value = b.op(opcode, mapType(type), {signExtend(b, operand(0), width), second});
      CL2VK_TRY(finish(inst, mask(b, value, width), type));
      return true;
    }
    case spv::Op::OpSLessThan:
    case spv::Op::OpSLessThanEqual:
    case spv::Op::OpSGreaterThan:
    case spv::Op::OpSGreaterThanEqual: {
      uint32_t w = operandWidth(0);
      if (!w) return false;
      uint32_t value = b.op(opcode, type, {signExtend(b, operand(0), w), signExtend(b, operand(1), w)});
      CL2VK_TRY(finish(inst, value, type));
      return true;
    }
    case spv::Op::OpUMulExtended:
    case spv::Op::OpSMulExtended: {
      // The whole product fits in 32 bits; its low and high halves are masked out of it.
      uint32_t w = operandWidth(0);
      if (!w) return false;
      uint32_t x = operand(0), y = operand(1);
      if (opcode == spv::Op::OpSMulExtended) x = signExtend(b, x, w), y = signExtend(b, y, w);
      uint32_t product = b.imul(x, y);
      uint32_t low = mask(b, product, w);
      uint32_t high = mask(b, b.lshr(product, b.bits(b.typeOf(product), w)), w);
      CL2VK_TRY(finish(inst, b.op(spv::Op::OpCompositeConstruct, mapType(type), {low, high}), type));
      return true;
    }
    case spv::Op::OpGroupNonUniformIAdd:
    case spv::Op::OpGroupNonUniformIMul:
    case spv::Op::OpGroupNonUniformSMin:
    case spv::Op::OpGroupNonUniformSMax:
    case spv::Op::OpGroupNonUniformUMin:
    case spv::Op::OpGroupNonUniformUMax:
    case spv::Op::OpGroupNonUniformBitwiseAnd:
    case spv::Op::OpGroupNonUniformBitwiseOr:
    case spv::Op::OpGroupNonUniformBitwiseXor: {
      // Sub-group collectives on char and short: on the widened values, narrowed again after.
      // Where no lane contributes (an exclusive scan's first active lane), the result is the
      // 32-bit operation's identity: masking makes UINT_MAX and ~0 the narrow ones, and a clamp
      // to the narrow range makes INT_MAX and INT_MIN the narrow SMin and SMax identities
      // (every other result of theirs is already in that range).
      if (!width) return false;
      std::vector<ir::Operand> operands = inst.operands();
      uint32_t value = operand(2);
      bool isSigned = opcode == spv::Op::OpGroupNonUniformSMin || opcode == spv::Op::OpGroupNonUniformSMax;
      operands[2] = ir::Operand::id(isSigned ? signExtend(b, value, width) : value);
      uint32_t result = b.value(opcode, mapType(type), std::move(operands));
      if (isSigned) {
        uint32_t wideType = mapType(type);
        uint64_t highest = (uint64_t{1} << (width - 1)) - 1;
        result = b.glsl(GLSLstd450SClamp, wideType,
                        {result, b.bits(wideType, ~highest & 0xffffffffu), b.bits(wideType, highest)});
      }
      CL2VK_TRY(finish(inst, mask(b, result, width), type));
      return true;
    }
    case spv::Op::OpGroupNonUniformAllEqual: {
      // sub_group_non_uniform_all_equal of a char or short: the zero-extended values are equal
      // where the narrow ones are. (A half held as its bits is not: -0 equals +0.)
      uint32_t w = operandWidth(1);
      if (!w || !ir::intWidth(module_, originalType(inst.idOperand(1)))) return false;
      uint32_t result = b.op(opcode, type, {inst.idOperand(0), operand(1)});
      CL2VK_TRY(finish(inst, result, type));
      return true;
    }
    case spv::Op::OpExtInst: {
      const Instruction* set = module_.def(inst.idOperand(0));
      if (set->stringOperand(0) != "GLSL.std.450") return false;
      auto instruction = static_cast<GLSLstd450>(inst.wordOperand(1));
      uint32_t w = width ? width : inst.numOperands() > 2 ? operandWidth(2) : 0;
      if (!w) return false;
      bool isSigned = false;
      switch (instruction) {
        case GLSLstd450SAbs:
        case GLSLstd450SSign:
        case GLSLstd450SMin:
        case GLSLstd450SMax:
        case GLSLstd450SClamp:
        case GLSLstd450FindSMsb: isSigned = true; break;
        case GLSLstd450UMin:
        case GLSLstd450UMax:
        case GLSLstd450UClamp:
        case GLSLstd450FindILsb:
        case GLSLstd450FindUMsb: break;
        default: return false;
      }
      std::vector<uint32_t> arguments;
      for (size_t i = 2; i < inst.numOperands(); ++i)
        arguments.push_back(isSigned ? signExtend(b, operand(i), w) : operand(i));
      uint32_t result = b.glsl(instruction, mapType(type), arguments);
      if (width) result = mask(b, result, width);
      CL2VK_TRY(finish(inst, result, type));
      return true;
    }
    default: break;
  }
  return lowerConversion(inst);
}

Expected<bool> NarrowLowering::lowerConversion(Instruction& inst) {
  spv::Op opcode = inst.opcode();
  switch (opcode) {
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert:
    case spv::Op::OpConvertUToF:
    case spv::Op::OpConvertSToF:
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertFToS:
    case spv::Op::OpBitcast: break;
    default: return false;  // not a conversion: its operands need not be a value to convert
  }
  Builder b = Builder::before(module_, &inst);
  uint32_t type = inst.typeId();
  uint32_t width = narrowWidth(type);
  uint32_t source = originalType(inst.idOperand(0));
  uint32_t sourceWidth = narrowWidth(source);
  uint32_t value = widened(inst.idOperand(0));
  // A half held as its bits is only moved and bit-cast here; converting it is refused.
  auto isFloat = [&](uint32_t t) { return ir::floatWidth(module_, t) != 0; };
  if (opcode != spv::Op::OpBitcast && ((width && isFloat(type)) || (sourceWidth && isFloat(source)))) return false;
  auto done = [&](uint32_t result) -> Expected<bool> {
    CL2VK_TRY(finish(inst, result, type));
    return true;
  };
  switch (opcode) {
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert: {
      bool isSigned = opcode == spv::Op::OpSConvert;
      if (sourceWidth) {
        // From a widened value: extend it to 32 bits, then to what the result needs.
        uint32_t extended = isSigned ? signExtend(b, value, sourceWidth) : value;
        if (width) return done(width >= sourceWidth && !isSigned ? value : mask(b, extended, width));
        if (b.width(type) == 32) return done(extended);
        return done(b.op(opcode, type, {extended}));
      }
      if (!width) return false;
      // To a narrow width: truncation, whatever the opcode.
      if (b.width(source) != 32) value = b.op(spv::Op::OpUConvert, b.uintType(source, 32), {value});
      return done(mask(b, value, width));
    }
    case spv::Op::OpConvertUToF:
      if (!sourceWidth) return false;
      return done(b.op(opcode, type, {value}));
    case spv::Op::OpConvertSToF:
      if (!sourceWidth) return false;
      return done(b.op(opcode, type, {signExtend(b, value, sourceWidth)}));
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertFToS:
      if (!width) return false;
      return done(mask(b, b.op(opcode, mapType(type), {value}), width));
    case spv::Op::OpBitcast: {
      if (!width && !sourceWidth) return false;
      if (ir::isPointerType(module_, type) || ir::isPointerType(module_, source)) return false;
      // A half's bits and a native ushort (a device with 16-bit integers but no shaderFloat16).
      bool halfAndUshort = ir::scalarWidth(module_, ir::componentType(module_, type)) == 16 &&
                           ir::scalarWidth(module_, ir::componentType(module_, source)) == 16 &&
                           (!width || !sourceWidth);
      if (halfAndUshort) return done(b.op(spv::Op::OpUConvert, width ? mapType(type) : type, {value}));
      // Every component under 32 bits must be a lowered integer (a half has no 32-bit form here).
      for (uint32_t side : {type, source}) {
        uint32_t bits = ir::scalarWidth(module_, ir::componentType(module_, side));
        if (bits < 32 && !narrowWidth(side)) return false;
      }
      return done(bitcast(b, value, source, type));
    }
    default: return false;
  }
}

uint32_t NarrowLowering::bitcast(Builder& b, uint32_t value, uint32_t source, uint32_t type) {
  // Lay the source's components out as 32-bit words, then cut the result's out of them.
  uint32_t uint32 = ir::typeInt(module_, 32);
  BitStream stream;
  uint32_t sourceComponent = ir::componentType(module_, source);
  uint32_t sourceWidth = ir::scalarWidth(module_, sourceComponent);
  uint32_t count = ir::componentCount(module_, source);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t part = count > 1 ? b.extract(mapType(sourceComponent), value, i) : value;
    if (sourceWidth == 64) {
      uint32_t pair = b.bitcast(ir::typeVector(module_, uint32, 2), part);
      stream.words.push_back(b.extract(uint32, pair, 0));
      stream.words.push_back(b.extract(uint32, pair, 1));
    } else if (sourceWidth == 32) {
      stream.words.push_back(b.typeOf(part) == uint32 ? part : b.bitcast(uint32, part));
    } else if (stream.bits % 32 == 0) {
      stream.words.push_back(part);  // a widened value: zero above its width
    } else {
      uint32_t placed = b.shl(part, ir::constantUint(module_, 32, stream.bits % 32));
      stream.words.back() = b.bitOr(stream.words.back(), placed);
    }
    stream.bits += sourceWidth;
  }
  uint32_t component = ir::componentType(module_, type);
  uint32_t width = ir::scalarWidth(module_, component);
  std::vector<uint32_t> parts;
  for (uint32_t i = 0, at = 0; i < ir::componentCount(module_, type); ++i, at += width) {
    uint32_t word = stream.words[at / 32];
    if (width == 64) {
      uint32_t pair =
          b.op(spv::Op::OpCompositeConstruct, ir::typeVector(module_, uint32, 2), {word, stream.words[at / 32 + 1]});
      parts.push_back(b.bitcast(component, pair));
    } else if (width == 32) {
      parts.push_back(component == uint32 ? word : b.bitcast(component, word));
    } else {
      uint32_t bits = at % 32 ? b.lshr(word, ir::constantUint(module_, 32, at % 32)) : word;
      parts.push_back(at % 32 + width < 32 ? mask(b, bits, width) : bits);
    }
  }
  return parts.size() == 1 ? parts[0] : b.op(spv::Op::OpCompositeConstruct, mapType(type), parts);
}

}  // namespace cl2vk::narrow
