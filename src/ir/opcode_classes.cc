#include "ir/opcode_classes.h"

#include <string_view>

#include "ir/collectives.h"

namespace cl2vk::ir {

bool isBlockTerminator(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpBranch:
    case spv::Op::OpBranchConditional:
    case spv::Op::OpSwitch:
    case spv::Op::OpReturn:
    case spv::Op::OpReturnValue:
    case spv::Op::OpKill:
    case spv::Op::OpUnreachable:
    case spv::Op::OpTerminateInvocation:
    case spv::Op::OpIgnoreIntersectionKHR:
    case spv::Op::OpTerminateRayKHR:
    case spv::Op::OpEmitMeshTasksEXT: return true;
    default: return false;
  }
}

bool isTypeDeclaration(spv::Op opcode) {
  return opcode >= spv::Op::OpTypeVoid && opcode <= spv::Op::OpTypeForwardPointer;
}

bool isConstantLike(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpConstant:
    case spv::Op::OpConstantComposite:
    case spv::Op::OpConstantNull:
    case spv::Op::OpUndef: return true;
    default: return false;
  }
}

bool isNameOrDecoration(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpName:
    case spv::Op::OpMemberName:
    case spv::Op::OpDecorate:
    case spv::Op::OpDecorateId:
    case spv::Op::OpDecorateString:
    case spv::Op::OpMemberDecorate:
    case spv::Op::OpMemberDecorateString: return true;
    default: return false;
  }
}

bool isNonUniformGroupOperation(spv::Op opcode) {
  const auto op = static_cast<uint32_t>(opcode);
  return (op >= static_cast<uint32_t>(spv::Op::OpGroupNonUniformElect) &&
          op <= static_cast<uint32_t>(spv::Op::OpGroupNonUniformQuadSwap)) ||
         opcode == spv::Op::OpGroupNonUniformRotateKHR || opcode == spv::Op::OpGroupNonUniformPartitionNV;
}

bool isCrossInvocation(spv::Op opcode) {
  if (isGroupCollective(opcode) || isNonUniformGroupOperation(opcode)) return true;
  const auto op = static_cast<uint32_t>(opcode);
  auto within = [op](spv::Op first, spv::Op last) {
    return op >= static_cast<uint32_t>(first) && op <= static_cast<uint32_t>(last);
  };
  return opcode == spv::Op::OpControlBarrier || opcode == spv::Op::OpGroupAsyncCopy ||
         opcode == spv::Op::OpGroupWaitEvents ||
         within(spv::Op::OpGroupReserveReadPipePackets, spv::Op::OpGroupCommitWritePipe) ||
         within(spv::Op::OpGroupIAddNonUniformAMD, spv::Op::OpGroupSMaxNonUniformAMD) ||
         within(spv::Op::OpSubgroupBallotKHR, spv::Op::OpSubgroupFirstInvocationKHR) ||
         within(spv::Op::OpSubgroupAllKHR, spv::Op::OpSubgroupReadInvocationKHR) ||
         within(spv::Op::OpSubgroupShuffleINTEL, spv::Op::OpSubgroupImageBlockWriteINTEL) ||
         within(spv::Op::OpSubgroupImageMediaBlockReadINTEL, spv::Op::OpSubgroupImageMediaBlockWriteINTEL) ||
         within(spv::Op::OpSubgroupAvcMceGetDefaultInterBaseMultiReferencePenaltyINTEL,
                spv::Op::OpSubgroupAvcSicGetInterRawSadsINTEL);
}

bool isAtomic(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpAtomicLoad:
    case spv::Op::OpAtomicStore:
    case spv::Op::OpAtomicExchange:
    case spv::Op::OpAtomicCompareExchange:
    case spv::Op::OpAtomicCompareExchangeWeak:
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicIAdd:
    case spv::Op::OpAtomicISub:
    case spv::Op::OpAtomicSMin:
    case spv::Op::OpAtomicUMin:
    case spv::Op::OpAtomicSMax:
    case spv::Op::OpAtomicUMax:
    case spv::Op::OpAtomicAnd:
    case spv::Op::OpAtomicOr:
    case spv::Op::OpAtomicXor:
    case spv::Op::OpAtomicFlagTestAndSet:
    case spv::Op::OpAtomicFlagClear: return true;
    default: return false;
  }
}

std::optional<MemoryOrderOperands> memoryOrderOperands(spv::Op opcode) {
  if (opcode == spv::Op::OpControlBarrier) return MemoryOrderOperands{1, 2, std::nullopt};
  if (opcode == spv::Op::OpMemoryBarrier) return MemoryOrderOperands{0, 1, std::nullopt};
  if (opcode == spv::Op::OpAtomicCompareExchange || opcode == spv::Op::OpAtomicCompareExchangeWeak)
    return MemoryOrderOperands{1, 2, 3};
  if (isAtomic(opcode)) return MemoryOrderOperands{1, 2, std::nullopt};
  return std::nullopt;
}

namespace {

std::optional<uint32_t> extInstructionOf(const Module& module, const Instruction& inst, std::string_view setName) {
  if (inst.opcode() != spv::Op::OpExtInst || inst.numOperands() < 2) return std::nullopt;
  const Instruction* set = module.def(inst.idOperand(0));
  if (!set || set->opcode() != spv::Op::OpExtInstImport || set->stringOperand(0) != setName) return std::nullopt;
  return inst.wordOperand(1);
}

}  // namespace

std::optional<uint32_t> openclStdInstruction(const Module& module, const Instruction& inst) {
  return extInstructionOf(module, inst, "OpenCL.std");
}

std::optional<uint32_t> glslStdInstruction(const Module& module, const Instruction& inst) {
  return extInstructionOf(module, inst, "GLSL.std.450");
}

}  // namespace cl2vk::ir
