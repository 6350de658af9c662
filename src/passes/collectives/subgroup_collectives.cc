// lower-collectives at sub-group scope with subgroup arithmetic: one OpGroupNonUniform* instruction
// (or shuffles); and the subgroup operations and combines that the work-group lowerings build on.
#include <limits>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "passes/collectives/collective_lowering.h"
#include "passes/environment/finalize_vulkan.h"
#include "passes/interface/work_item_builtins.h"

namespace cl2vk::collectives {

Status CollectiveLowering::lowerSubgroup(Instruction* inst) {
  Builder b = Builder::before(module_, inst);
  uint32_t value;
  if (inst->opcode() == spv::Op::OpGroupBroadcast) {
    value = subgroupBroadcast(b, inst->typeId(), inst->idOperand(1), inst->idOperand(2));
  } else {
    Expected<Operation> op = operationOf(b, *inst);
    if (!op) return op.error();
    value = op->result(b, subgroupOp(b, op->collective, op->type, op->x, op->kind));
  }
  module_.replaceAllUses(inst->resultId(), value);
  return module_.remove(inst);
}

Expected<CollectiveLowering::Operation> CollectiveLowering::operationOf(Builder& b, const Instruction& inst) {
  Collective c = *collectiveOf(inst.opcode());
  uint32_t operation = c.vote ? static_cast<uint32_t>(spv::GroupOperation::Reduce) : inst.wordOperand(1);
  auto kind = static_cast<spv::GroupOperation>(operation);
  if (kind != spv::GroupOperation::Reduce && kind != spv::GroupOperation::InclusiveScan &&
      kind != spv::GroupOperation::ExclusiveScan)
    return ir::refuse(module_, inst, "group operation " + std::to_string(operation) + " is not an OpenCL collective");
  Operation op{c, inst.typeId(), c.vote ? inst.idOperand(1) : inst.idOperand(2), kind};
  if (std::optional<Collective> bitwise = asBitwise(c)) {
    op.x = b.valueOfIds(spv::Op::OpSelect, uint_, {op.x, constant32(1), constant32(0)});
    op.collective = *bitwise;
    op.type = uint_;
    op.resultType = inst.typeId();
  }
  return op;
}

uint32_t CollectiveLowering::subgroupBroadcast(Builder& b, uint32_t type, uint32_t value, uint32_t lane) {
  if (ir::scalarWidth(module_, module_.def(lane)->typeId()) != 32)
    lane = b.valueOfIds(spv::Op::OpUConvert, uint_, {lane});
  // SPIR-V 1.5 lets OpGroupNonUniformBroadcast take a dynamically uniform id; before, only a
  // constant, so Vulkan 1.1 gets a shuffle.
  spv::Op op = spirvVersionFor(target_.vulkanEnv) >= 0x00010500 || constantValue(module_, lane)
                   ? spv::Op::OpGroupNonUniformBroadcast
                   : spv::Op::OpGroupNonUniformShuffle;
  return b.valueOfIds(op, type, {constant32(kSubgroup), value, lane});
}

uint32_t CollectiveLowering::identity(Combine c, uint32_t type) {
  if (ir::isBoolType(module_, type)) return ir::constantBool(module_, c == Combine::kLogicalAnd);
  uint32_t width = ir::scalarWidth(module_, type);
  uint64_t ones = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  double inf = std::numeric_limits<double>::infinity();
  switch (c) {
    case Combine::kIAdd:
    case Combine::kOr:
    case Combine::kXor:
    case Combine::kUMax: return ir::constantBits(module_, type, 0);
    case Combine::kIMul: return ir::constantBits(module_, type, 1);
    case Combine::kAnd:
    case Combine::kUMin: return ir::constantBits(module_, type, ones);
    case Combine::kSMin: return ir::constantBits(module_, type, ones >> 1);
    case Combine::kSMax: return ir::constantBits(module_, type, (ones >> 1) + 1);
    case Combine::kFAdd: return ir::constantFloat(module_, type, 0.0);
    case Combine::kFMul: return ir::constantFloat(module_, type, 1.0);
    case Combine::kFMin: return ir::constantFloat(module_, type, inf);
    case Combine::kFMax: return ir::constantFloat(module_, type, -inf);
    default: return ir::constantBool(module_, c == Combine::kLogicalAnd);
  }
}

uint32_t CollectiveLowering::combine(Combine c, uint32_t type, uint32_t a, uint32_t x) {
  Builder b = at();
  return combine(b, c, type, a, x);
}

uint32_t CollectiveLowering::combine(Builder& b, Combine c, uint32_t type, uint32_t a, uint32_t x) {
  auto pick = [&](spv::Op compare) {
    uint32_t takeX = b.valueOfIds(compare, ir::typeBool(module_), {x, a});
    return b.valueOfIds(spv::Op::OpSelect, type, {takeX, x, a});
  };
  switch (c) {
    case Combine::kIAdd: return b.valueOfIds(spv::Op::OpIAdd, type, {a, x});
    case Combine::kFAdd: return b.valueOfIds(spv::Op::OpFAdd, type, {a, x});
    case Combine::kIMul: return b.valueOfIds(spv::Op::OpIMul, type, {a, x});
    case Combine::kFMul: return b.valueOfIds(spv::Op::OpFMul, type, {a, x});
    case Combine::kAnd: return b.valueOfIds(spv::Op::OpBitwiseAnd, type, {a, x});
    case Combine::kOr: return b.valueOfIds(spv::Op::OpBitwiseOr, type, {a, x});
    case Combine::kXor: return b.valueOfIds(spv::Op::OpBitwiseXor, type, {a, x});
    case Combine::kLogicalAnd: return b.valueOfIds(spv::Op::OpLogicalAnd, type, {a, x});
    case Combine::kLogicalOr: return b.valueOfIds(spv::Op::OpLogicalOr, type, {a, x});
    case Combine::kLogicalXor: return b.valueOfIds(spv::Op::OpLogicalNotEqual, type, {a, x});
    case Combine::kSMin: return pick(spv::Op::OpSLessThan);
    case Combine::kUMin: return pick(spv::Op::OpULessThan);
    case Combine::kFMin: return pick(spv::Op::OpFOrdLessThan);
    case Combine::kSMax: return pick(spv::Op::OpSGreaterThan);
    case Combine::kUMax: return pick(spv::Op::OpUGreaterThan);
    case Combine::kFMax: return pick(spv::Op::OpFOrdGreaterThan);
  }
  return a;
}

uint32_t CollectiveLowering::subgroupOp(const Collective& c, uint32_t type, uint32_t x, spv::GroupOperation kind) {
  Builder b = at();
  return subgroupOp(b, c, type, x, kind);
}

uint32_t CollectiveLowering::subgroupOp(Builder& b, const Collective& c, uint32_t type, uint32_t x,
                                        spv::GroupOperation kind) {
  if (c.vote && kind == spv::GroupOperation::Reduce)
    return b.valueOfIds(c.nonUniform, type, {constant32(kSubgroup), x});
  if (kind != spv::GroupOperation::Reduce && target_.shuffleScans)
    return shuffleScan(b, c, type, x, kind == spv::GroupOperation::InclusiveScan);
  spv::Op op = c.nonUniform;
  if (c.vote)
    op = c.combine == Combine::kLogicalAnd ? spv::Op::OpGroupNonUniformLogicalAnd : spv::Op::OpGroupNonUniformLogicalOr;
  return b.value(op, type,
                 {Operand::id(constant32(kSubgroup)),
                  Operand::enumerant(SPV_OPERAND_TYPE_GROUP_OPERATION, static_cast<uint32_t>(kind)), Operand::id(x)});
}

uint32_t CollectiveLowering::shuffleScan(Builder& b, const Collective& c, uint32_t type, uint32_t x, bool inclusive) {
  uint32_t boolType = ir::typeBool(module_);
  uint32_t laneVariable = vulkanBuiltinVariable(module_, spv::BuiltIn::SubgroupLocalInvocationId, false);
  uint32_t lane = b.valueOfIds(spv::Op::OpLoad, uint_, {laneVariable});
  // 64-bit values move as two 32-bit words (lavapipe's LLVM 15 crashes compiling 64-bit
  // shuffles that feed a comparison; GPUs shuffle 32-bit registers anyway).
  bool wide = ir::scalarWidth(module_, type) == 64;
  uint32_t pair = wide ? ir::typeVector(module_, uint_, 2) : 0;
  auto shuffleUp = [&](uint32_t value, uint32_t delta) {
    if (!wide)
      return b.valueOfIds(spv::Op::OpGroupNonUniformShuffleUp, type, {constant32(kSubgroup), value, constant32(delta)});
    uint32_t words = b.valueOfIds(spv::Op::OpBitcast, pair, {value});
    uint32_t moved =
        b.valueOfIds(spv::Op::OpGroupNonUniformShuffleUp, pair, {constant32(kSubgroup), words, constant32(delta)});
    return b.valueOfIds(spv::Op::OpBitcast, type, {moved});
  };
  uint32_t running = x;
  for (uint64_t delta = 1; delta < target_.maxSubgroupSize; delta *= 2) {
    uint32_t earlier = shuffleUp(running, delta);
    uint32_t has = b.valueOfIds(spv::Op::OpUGreaterThanEqual, boolType, {lane, constant32(delta)});
    running = b.valueOfIds(spv::Op::OpSelect, type, {has, combine(b, c.combine, type, earlier, running), running});
  }
  if (inclusive) return running;
  uint32_t previous = shuffleUp(running, 1);
  uint32_t first = b.valueOfIds(spv::Op::OpIEqual, boolType, {lane, constant32(0)});
  return b.valueOfIds(spv::Op::OpSelect, type, {first, identity(c.combine, type), previous});
}

}  // namespace cl2vk::collectives
