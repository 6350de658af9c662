// Arithmetic, conversions, bit casts and OpenCL.std functions on integers of odd widths held
// zero-extended in the next standard width (odd_integer_lowering.h): masked after what can carry
// past the width, sign-extended before what reads the sign.
#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>

#include "analysis/call_graph.h"
#include "ir/types.h"
#include "passes/types/odd_integer_lowering.h"

namespace cl2vk::odd {

uint32_t OddIntegerWidening::mask(Builder& b, uint32_t value, uint32_t width) {
  return b.bitAnd(value, b.bits(b.typeOf(value), (uint64_t{1} << width) - 1));
}

uint32_t OddIntegerWidening::signExtend(Builder& b, uint32_t value, uint32_t width) {
  uint32_t shift = b.bits(b.typeOf(value), b.width(b.typeOf(value)) - width);
  return b.ashr(b.shl(value, shift), shift);
}

Expected<bool> OddIntegerWidening::lowerArithmetic(Instruction& inst) {
  Builder b = Builder::before(module_, &inst);
  spv::Op opcode = inst.opcode();
  uint32_t type = inst.typeId();
  uint32_t width = oddWidth(type);
  auto operand = [&](size_t i) { return widened(inst.idOperand(i)); };
  auto operandWidth = [&](size_t i) { return oddWidth(originalType(inst.idOperand(i))); };
  auto done = [&](uint32_t result) -> Expected<bool> {
    CL2VK_TRY(finish(inst, result, type));
    return true;
  };
  switch (opcode) {
    case spv::Op::OpIAdd:
    case spv::Op::OpISub:
    case spv::Op::OpIMul:
    case spv::Op::OpShiftLeftLogical:
      // A shift amount of N or more is poison in LLVM, so the amount needs nothing.
      if (!width) return false;
      return done(mask(b, b.op(opcode, mapType(type), {operand(0), operand(1)}), width));
    case spv::Op::OpNot:
    case spv::Op::OpSNegate:
      if (!width) return false;
      return done(mask(b, b.op(opcode, mapType(type), {operand(0)}), width));
    case spv::Op::OpShiftRightArithmetic:
    case spv::Op::OpSDiv:
    case spv::Op::OpSRem:
    case spv::Op::OpSMod: {
      if (!width) return false;
      uint32_t second = opcode == spv::Op::OpShiftRightArithmetic ? operand(1) : signExtend(b, operand(1), width);
      return done(mask(b, b.op(opcode, mapType(type), {signExtend(b, operand(0), width), second}), width));
    }
    case spv::Op::OpSLessThan:
    case spv::Op::OpSLessThanEqual:
    case spv::Op::OpSGreaterThan:
    case spv::Op::OpSGreaterThanEqual: {
      uint32_t w = operandWidth(0);
      if (!w) return false;
      return done(b.op(opcode, type, {signExtend(b, operand(0), w), signExtend(b, operand(1), w)}));
    }
    case spv::Op::OpBitReverse: {
      // Reversed in the wider type, the N bits end up at its top.
      if (!width) return false;
      uint32_t wide = mapType(type);
      return done(b.lshr(b.op(opcode, wide, {operand(0)}), b.bits(wide, b.width(wide) - width)));
    }
    case spv::Op::OpIAddCarry:
    case spv::Op::OpISubBorrow: {
      // The sum of two N-bit values fits the wider type: its carry is bit N; a difference
      // borrows when the first is the smaller.
      uint32_t w = operandWidth(0);
      if (!w) return false;
      uint32_t x = operand(0), y = operand(1);
      uint32_t wide = b.typeOf(x);
      uint32_t value = b.op(opcode == spv::Op::OpIAddCarry ? spv::Op::OpIAdd : spv::Op::OpISub, wide, {x, y});
      uint32_t carry = opcode == spv::Op::OpIAddCarry
                           ? b.lshr(value, b.bits(wide, w))
                           : b.select(b.compare(spv::Op::OpULessThan, x, y), b.bits(wide, 1), b.bits(wide, 0));
      return done(b.op(spv::Op::OpCompositeConstruct, mapType(type), {mask(b, value, w), carry}));
    }
    default: return false;
  }
}

Expected<bool> OddIntegerWidening::lowerConversion(Instruction& inst) {
  spv::Op opcode = inst.opcode();
  switch (opcode) {
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert:
    case spv::Op::OpConvertSToF:
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertFToS:
    case spv::Op::OpConvertPtrToU:
    case spv::Op::OpBitcast: break;
    default: return false;  // not a conversion: its operands need not be a value to convert
  }
  Builder b = Builder::before(module_, &inst);
  uint32_t type = inst.typeId();
  uint32_t width = oddWidth(type);
  uint32_t source = originalType(inst.idOperand(0));
  uint32_t sourceWidth = oddWidth(source);
  uint32_t value = widened(inst.idOperand(0));
  auto done = [&](uint32_t result) -> Expected<bool> {
    CL2VK_TRY(finish(inst, result, type));
    return true;
  };
  switch (opcode) {
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert: {
      // Extend within the wider type first (signed: from bit N), then resize to the result's
      // wider type with the same opcode, then keep the result's N bits.
      if (opcode == spv::Op::OpSConvert && sourceWidth) value = signExtend(b, value, sourceWidth);
      uint32_t wide = mapType(type);
      if (b.width(b.typeOf(value)) != b.width(wide)) value = b.op(opcode, wide, {value});
      return done(width ? mask(b, value, width) : value);
    }
    case spv::Op::OpConvertSToF:
      if (!sourceWidth) return false;
      return done(b.op(opcode, type, {signExtend(b, value, sourceWidth)}));
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertFToS:
    case spv::Op::OpConvertPtrToU:
      if (!width) return false;
      return done(mask(b, b.op(opcode, mapType(type), {value}), width));
    case spv::Op::OpBitcast: {
      if (ir::isPointerType(module_, type) || ir::isPointerType(module_, source)) {
        retype(inst);  // a pointer to such integers: its pointee type changes
        return true;
      }
      if (!width && !sourceWidth) return false;
      return done(bitcast(b, value, source, type));
    }
    default: return false;
  }
}

uint32_t OddIntegerWidening::bitcast(Builder& b, uint32_t value, uint32_t source, uint32_t type) {
  // Each result component gathers the source components that overlap its bits, in a type wide
  // enough for both; floats (standard widths only) go through integers of their width.
  uint32_t sourceComponent = ir::componentType(module_, source);
  uint32_t sourceBits = ir::scalarWidth(module_, sourceComponent);
  uint32_t sourceWide = widenedWidth(sourceBits);
  std::vector<uint32_t> parts;
  for (uint32_t i = 0, count = ir::componentCount(module_, source); i < count; ++i) {
    uint32_t part = count > 1 ? b.extract(mapType(sourceComponent), value, i) : value;
    if (b.isFloat(b.typeOf(part))) part = b.bitcast(ir::typeInt(module_, sourceWide), part);
    parts.push_back(part);
  }
  uint32_t component = ir::componentType(module_, type);
  uint32_t bits = ir::scalarWidth(module_, component);
  uint32_t wide = widenedWidth(bits);
  uint32_t computeWidth = std::max(sourceWide, wide);
  std::vector<uint32_t> results;
  for (uint32_t j = 0, count = ir::componentCount(module_, type); j < count; ++j) {
    uint32_t low = j * bits;
    uint32_t gathered = 0;
    for (uint32_t i = low / sourceBits; i < parts.size() && i * sourceBits < low + bits; ++i) {
      uint32_t part = b.resize(parts[i], computeWidth);
      uint32_t computeType = b.typeOf(part);
      if (i * sourceBits < low) part = b.lshr(part, b.bits(computeType, low - i * sourceBits));
      if (i * sourceBits > low) part = b.shl(part, b.bits(computeType, i * sourceBits - low));
      gathered = gathered ? b.bitOr(gathered, part) : part;
    }
    uint32_t result = b.resize(gathered, wide);
    if (bits != wide) result = mask(b, result, bits);
    if (b.isFloat(component)) result = b.bitcast(component, result);
    results.push_back(result);
  }
  return results.size() == 1 ? results[0] : b.op(spv::Op::OpCompositeConstruct, mapType(type), results);
}

Expected<bool> OddIntegerWidening::lowerOpenclStd(Instruction& inst) {
  if (inst.opcode() != spv::Op::OpExtInst) return false;
  if (module_.def(inst.idOperand(0))->stringOperand(0) != "OpenCL.std") return false;
  uint32_t set = inst.idOperand(0);
  auto instruction = static_cast<OpenCLLIB::Entrypoints>(inst.wordOperand(1));
  uint32_t type = inst.typeId();
  uint32_t width = oddWidth(type);
  if (!width) return false;  // every function below returns its arguments' type
  Builder b = Builder::before(module_, &inst);
  uint32_t wide = mapType(type);
  std::vector<uint32_t> arguments;
  for (size_t i = 2; i < inst.numOperands(); ++i) arguments.push_back(widened(inst.idOperand(i)));
  auto signedArguments = [&] {
    for (uint32_t& argument : arguments) argument = signExtend(b, argument, width);
  };
  auto call = [&](OpenCLLIB::Entrypoints function) { return b.extInst(set, function, wide, arguments); };
  auto done = [&](uint32_t result) -> Expected<bool> {
    CL2VK_TRY(finish(inst, result, type));
    return true;
  };
  uint64_t extraBits = b.width(wide) - width;
  switch (instruction) {
    case OpenCLLIB::UMax:
    case OpenCLLIB::UMin:
    case OpenCLLIB::UClamp:
    case OpenCLLIB::Popcount:
    case OpenCLLIB::USub_sat: return done(call(instruction));
    case OpenCLLIB::SAbs:
    case OpenCLLIB::SMax:
    case OpenCLLIB::SMin:
    case OpenCLLIB::SClamp: signedArguments(); return done(mask(b, call(instruction), width));
    case OpenCLLIB::Clz:
      // The zero-extended value has the extra high bits as leading zeros.
      return done(b.isub(call(instruction), b.bits(wide, extraBits)));
    case OpenCLLIB::Ctz:
      // All zeros count N, not the wider width.
      return done(b.extInst(set, OpenCLLIB::UMin, wide, {call(OpenCLLIB::Ctz), b.bits(wide, width)}));
    case OpenCLLIB::UAdd_sat:
      // The sum of two N-bit values fits the wider type; it saturates at N bits.
      return done(b.extInst(set, OpenCLLIB::UMin, wide,
                            {b.iadd(arguments[0], arguments[1]), b.bits(wide, (uint64_t{1} << width) - 1)}));
    case OpenCLLIB::SAdd_sat:
    case OpenCLLIB::SSub_sat: {
      signedArguments();
      uint32_t exact =
          instruction == OpenCLLIB::SAdd_sat ? b.iadd(arguments[0], arguments[1]) : b.isub(arguments[0], arguments[1]);
      uint32_t lowest = b.bits(wide, ~uint64_t{0} << (width - 1));  // -2^(N-1), in the wider type
      uint32_t highest = b.bits(wide, (uint64_t{1} << (width - 1)) - 1);
      return done(mask(b, b.extInst(set, OpenCLLIB::SClamp, wide, {exact, lowest, highest}), width));
    }
    default:
      return ir::refuse(module_, inst,
                        "this OpenCL.std function on integers of a width other than 8, 16, 32 or 64 bits is not "
                        "supported");
  }
}

}  // namespace cl2vk::odd
