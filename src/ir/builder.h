// Inserts new instructions at a fixed point in a module: before an instruction, after one, or at
// the end of a block. Successive instructions keep their order, so a lowering reads top to bottom.
//
// The one builder of the passes. Besides raw instructions it has typed arithmetic that works on
// scalars and vectors alike (a constant asked for with a vector type is splatted, and the bool or
// integer type of a comparison or bit cast takes the shape of its operand), and, at the end of a
// block, structured control flow (if, if-else with a value, loops) whose new blocks it lays out
// one after the other (control_flow.cc).
#pragma once

#include <spirv/unified1/GLSL.std.450.h>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "ir/module.h"

namespace cl2vk::ir {

class Builder {
 public:
  // New instructions go before `position`.
  static Builder before(Module& module, Instruction* position);
  // New instructions go after `position` (and after each other).
  static Builder after(Module& module, Instruction* position);
  // New instructions go at the end of `block`; new blocks of the control-flow helpers follow it.
  static Builder atEnd(Module& module, Block& block);
  // Splits the block of `inst` after it: everything after `inst` continues in a block of its own,
  // returned second. The builder, returned first, appends at the end of `inst`'s block, so that
  // the code that replaces `inst` goes between; it must end with a branch to the second block.
  static std::pair<Builder, Block*> splitAfter(Module& module, Instruction* inst);

  Module& module() { return *module_; }

  // Adds an instruction; a fresh result id is allocated when the opcode has a result.
  Instruction* add(spv::Op opcode, uint32_t typeId, std::vector<Operand> operands);
  // Adds an instruction with a result and returns its id.
  uint32_t value(spv::Op opcode, uint32_t typeId, std::vector<Operand> operands);
  // The same with every operand an id (the common case of arithmetic and conversions).
  uint32_t valueOfIds(spv::Op opcode, uint32_t typeId, const std::vector<uint32_t>& ids);

  // --- Types. `type` is a scalar or a vector; the answers are about its components. ---

  // The type of `value` (ir::typeOf).
  uint32_t typeOf(uint32_t value) const;
  // A vector's component type; a scalar type itself.
  uint32_t componentType(uint32_t type) const;
  // A vector's component count; 1 for a scalar.
  uint32_t componentCount(uint32_t type) const;
  // The bit width of the components.
  uint32_t width(uint32_t type) const;
  // Whether the components are floats.
  bool isFloat(uint32_t type) const;
  bool isVector(uint32_t type) const { return componentCount(type) > 1; }
  // A type of `type`'s shape with `component` as its component type.
  uint32_t shaped(uint32_t type, uint32_t component);
  // Unsigned integers, floats or bools of `type`'s shape.
  uint32_t uintType(uint32_t type, uint32_t width);
  uint32_t floatType(uint32_t type, uint32_t width);
  uint32_t boolType(uint32_t type);
  // An undecorated OpTypeStruct of `members` (for FrexpStruct and OpUMulExtended), shared when the
  // module has one.
  uint32_t structType(const std::vector<uint32_t>& members);

  // Declares `capability` unless the module already does.
  void requireCapability(spv::Capability capability);

  // --- Constants of a scalar or vector type. ---

  // An integer or float constant of `type` given by its bit pattern.
  uint32_t bits(uint32_t type, uint64_t bits);
  // A float constant of `type`, rounded to its width.
  uint32_t real(uint32_t type, double value);
  // `value` widened to `type`'s shape: a scalar becomes a vector of copies (a constant composite
  // when `value` is a constant, an OpCompositeConstruct otherwise).
  uint32_t splat(uint32_t type, uint32_t value);

  // --- Instructions. ---

  // An instruction with a result of `type` and ids as operands (valueOfIds).
  uint32_t op(spv::Op opcode, uint32_t type, const std::vector<uint32_t>& ids);
  // A GLSL.std.450 instruction; the import is added on first use.
  uint32_t glsl(GLSLstd450 instruction, uint32_t type, const std::vector<uint32_t>& ids);
  // OpExtInst of another instruction set (the ids after the instruction number).
  uint32_t extInst(uint32_t set, uint32_t instruction, uint32_t type, const std::vector<uint32_t>& ids);
  // The id of the GLSL.std.450 import, added to the module if it has none.
  uint32_t glslImport();
  // Loads and stores; a non-zero `alignment` adds the Aligned memory operand.
  void store(uint32_t pointer, uint32_t value, uint32_t alignment = 0);
  uint32_t load(uint32_t type, uint32_t pointer, uint32_t alignment = 0);
  // Member or component `index` of `composite`, of `type`.
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
  // A test of one operand with a bool result of its shape: OpIsNan, OpIsInf, OpLogicalNot.
  uint32_t test(spv::Op opcode, uint32_t a);
  uint32_t select(uint32_t condition, uint32_t ifTrue, uint32_t ifFalse);
  uint32_t bitcast(uint32_t type, uint32_t value) { return op(spv::Op::OpBitcast, type, {value}); }
  // An integer value converted (zero-extended or truncated) to `width` bits; itself if it has it.
  uint32_t resize(uint32_t value, uint32_t width);
  // The same, sign-extending.
  uint32_t resizeSigned(uint32_t value, uint32_t width);

  // --- Control flow, for a builder at the end of a block (atEnd, splitAfter) ---------------------
  // Each helper ends the current block with a branch and moves the builder on to the block where
  // the code continues. New blocks are laid out after the previous new block, in the order they
  // are made; the structurizer gives them their merges later.

  // The block the builder appends to.
  Block* block() const { return block_; }
  // A new empty block (just its label), laid out after the previous new one.
  Block* newBlock();
  // Ends the current block with a branch to `target`.
  void branchTo(Block* target);
  // if (condition) { then(); } — the code continues after it.
  void ifThen(uint32_t condition, const std::function<void()>& then);
  // condition ? whenTrue() : whenFalse(), each emitting its own code; the code continues after it.
  uint32_t ifElseValue(uint32_t condition, uint32_t type, const std::function<uint32_t()>& whenTrue,
                       const std::function<uint32_t()>& whenFalse);
  // acc = init; for (i = start; i < end; i = advance(i)) acc = body(acc, i); returns acc. `i` is a
  // 32-bit unsigned integer. With `type` 0 there is no accumulator (body's result is ignored).
  uint32_t loop(uint32_t start, uint32_t end, const std::function<uint32_t(uint32_t i)>& advance, uint32_t type,
                uint32_t init, const std::function<uint32_t(uint32_t acc, uint32_t i)>& body);
  // acc = init; for (i = start; i < end; i += step) acc = body(acc, i); returns acc.
  uint32_t foldLoop(uint32_t start, uint32_t end, uint32_t step, uint32_t type, uint32_t init,
                    const std::function<uint32_t(uint32_t acc, uint32_t i)>& body);
  // for (stride = 1; stride < end; stride *= 2) body(stride); the steps of trees and scans.
  void forEachStride(uint32_t end, const std::function<void(uint32_t stride)>& body);
  // value * 2 for a 32-bit unsigned `value` (a shift).
  uint32_t twice(uint32_t value);

 private:
  enum class Mode { kBefore, kAfter, kAtEnd };
  Builder(Module& module, Mode mode, Instruction* anchor, Block* block)
      : module_(&module), mode_(mode), anchor_(anchor), block_(block), layoutAfter_(block) {}

  uint32_t uint32();

  Module* module_;  // a pointer, so that a builder can be reassigned
  Mode mode_;
  Instruction* anchor_;  // kBefore: insert before it; kAfter: insert after it, then it moves on
  Block* block_;         // kAtEnd
  Block* layoutAfter_;   // kAtEnd: where the next new block goes
};

}  // namespace cl2vk::ir
