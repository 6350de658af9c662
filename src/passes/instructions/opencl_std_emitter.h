// Straight-line arithmetic for the OpenCL.std and conversion lowerings, built before one
// instruction. Every helper works on scalars and vectors alike: a constant asked for with a vector
// type is splatted, and the bool or integer type of a comparison or bit cast takes the shape of
// its operand.
#pragma once

#include <spirv/unified1/GLSL.std.450.h>

#include <cstdint>
#include <vector>

#include "ir/builder.h"
#include "ir/module.h"

namespace cl2vk {

class Emitter {
 public:
  Emitter(ir::Module& module, ir::Instruction* position);

  ir::Module& module() { return module_; }

  // --- Types. `type` is a scalar or a vector; the answers are about its components. ---
  uint32_t typeOf(uint32_t value) const;
  uint32_t componentType(uint32_t type) const;
  uint32_t componentCount(uint32_t type) const;
  uint32_t width(uint32_t type) const;
  bool isFloat(uint32_t type) const;
  bool isVector(uint32_t type) const { return componentCount(type) > 1; }
  // A type of `type`'s shape with `component` as its component type.
  uint32_t shaped(uint32_t type, uint32_t component);
  uint32_t uintType(uint32_t type, uint32_t width);
  uint32_t floatType(uint32_t type, uint32_t width);
  uint32_t boolType(uint32_t type);
  // An undecorated OpTypeStruct of `members` (for FrexpStruct and OpUMulExtended), shared when the
  // module has one.
  uint32_t structType(const std::vector<uint32_t>& members);

  // Declares `capability` unless the module already does.
  void requireCapability(spv::Capability capability);

  // --- Constants of a scalar or vector type. ---
  uint32_t bits(uint32_t type, uint64_t bits);
  uint32_t real(uint32_t type, double value);
  // `value` widened to `type`'s shape: a scalar becomes a vector of copies.
  uint32_t splat(uint32_t type, uint32_t value);

  // --- Instructions. ---
  uint32_t op(spv::Op opcode, uint32_t type, const std::vector<uint32_t>& ids);
  uint32_t glsl(GLSLstd450 instruction, uint32_t type, const std::vector<uint32_t>& ids);
  // OpExtInst of another instruction set (the ids after the instruction number).
  uint32_t extInst(uint32_t set, uint32_t instruction, uint32_t type, const std::vector<uint32_t>& ids);
  uint32_t glslImport();
  // Loads and stores; a non-zero `alignment` adds the Aligned memory operand.
  void store(uint32_t pointer, uint32_t value, uint32_t alignment = 0);
  uint32_t load(uint32_t type, uint32_t pointer, uint32_t alignment = 0);
  uint32_t extract(uint32_t type, uint32_t composite, uint32_t index);

  // Binary operations whose result has the type of their first operand.
  uint32_t binary(spv::Op opcode, uint32_t a, uint32_t b) { return op(opcode, typeOf(a), {a, b}); }
  uint32_t iadd(uint32_t a, uint32_t b) { return binary(spv::Op::OpIAdd, a, b); }
  uint32_t isub(uint32_t a, uint32_t b) { return binary(spv::Op::OpISub, a, b); }
  uint32_t imul(uint32_t a, uint32_t b) { return binary(spv::Op::OpIMul, a, b); }
  uint32_t bitAnd(uint32_t a, uint32_t b) { return binary(spv::Op::OpBitwiseAnd, a, b); }
  uint32_t bitOr(uint32_t a, uint32_t b) { return binary(spv::Op::OpBitwiseOr, a, b); }
  uint32_t bitXor(uint32_t a, uint32_t b) { return binary(spv::Op::OpBitwiseXor, a, b); }
  uint32_t shl(uint32_t a, uint32_t b) { return binary(spv::Op::OpShiftLeftLogical, a, b); }
  uint32_t lshr(uint32_t a, uint32_t b) { return binary(spv::Op::OpShiftRightLogical, a, b); }
  uint32_t ashr(uint32_t a, uint32_t b) { return binary(spv::Op::OpShiftRightArithmetic, a, b); }
  uint32_t fadd(uint32_t a, uint32_t b) { return binary(spv::Op::OpFAdd, a, b); }
  uint32_t fsub(uint32_t a, uint32_t b) { return binary(spv::Op::OpFSub, a, b); }
  uint32_t fmul(uint32_t a, uint32_t b) { return binary(spv::Op::OpFMul, a, b); }
  uint32_t fdiv(uint32_t a, uint32_t b) { return binary(spv::Op::OpFDiv, a, b); }
  uint32_t bitNot(uint32_t a) { return op(spv::Op::OpNot, typeOf(a), {a}); }
  // A comparison (or logical operation) with a bool result of its operands' shape.
  uint32_t compare(spv::Op opcode, uint32_t a, uint32_t b);
  uint32_t test(spv::Op opcode, uint32_t a);  // OpIsNan, OpIsInf, OpLogicalNot
  uint32_t select(uint32_t condition, uint32_t ifTrue, uint32_t ifFalse);
  uint32_t bitcast(uint32_t type, uint32_t value) { return op(spv::Op::OpBitcast, type, {value}); }
  // An integer value converted (zero-extended or truncated) to `width` bits; itself if it has it.
  uint32_t resize(uint32_t value, uint32_t width);
  uint32_t resizeSigned(uint32_t value, uint32_t width);

 private:

  ir::Module& module_;
  ir::Builder builder_;
};

}  // namespace cl2vk
