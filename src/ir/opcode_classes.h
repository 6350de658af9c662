// Families of opcodes that several passes ask about.
#pragma once

#include <optional>

#include "ir/module.h"

namespace cl2vk::ir {

// Instructions that end a block.
bool isBlockTerminator(spv::Op opcode);

// OpTypeVoid to OpTypeForwardPointer: the instructions that declare types.
bool isTypeDeclaration(spv::Op opcode);

// OpConstant, OpConstantComposite, OpConstantNull and OpUndef: the global values whose type a
// pass that changes types rebuilds them with.
bool isConstantLike(spv::Op opcode);

// OpName, OpMemberName and the OpDecorate* and OpMemberDecorate* instructions: their first operand
// names what they annotate.
bool isNameOrDecoration(spv::Op opcode);

// OpAtomic* read-modify-write, load, store, exchange and flag instructions: their first operand
// is the pointer, then the scope and the memory semantics.
bool isAtomic(spv::Op opcode);

// Where an instruction that orders memory names its memory scope and semantics, as operand
// indices: the atomics (isAtomic), OpControlBarrier and OpMemoryBarrier. A compare-exchange has a
// second semantics, for when it fails.
struct MemoryOrderOperands {
  size_t scope;
  size_t semantics;
  std::optional<size_t> unequalSemantics;
};
std::optional<MemoryOrderOperands> memoryOrderOperands(spv::Op opcode);

// OpGroupNonUniform*: SPIR-V 1.3's subgroup operations and the extensions' (rotate, partition).
bool isNonUniformGroupOperation(spv::Op opcode);

// Instructions that invocations execute together, whose copies or removal would change what they
// compute: OpControlBarrier, every OpGroup* but the decoration groups (collectives, async copies,
// pipe reservations, OpGroupNonUniform*, AMD's and KHR's group arithmetic) and every OpSubgroup*.
bool isCrossInvocation(spv::Op opcode);

// The instruction number of an OpExtInst of the OpenCL.std set; nullopt for any other instruction.
std::optional<uint32_t> openclStdInstruction(const Module& module, const Instruction& inst);
// The same for the GLSL.std.450 set.
std::optional<uint32_t> glslStdInstruction(const Module& module, const Instruction& inst);

}  // namespace cl2vk::ir
