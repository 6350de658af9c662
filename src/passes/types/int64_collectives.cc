// Sub-group operations on 64-bit integers (what lower-collectives leaves at sub-group scope, work-
// group collectives included) on the halves. Moving a value (broadcast, shuffle) and the bitwise
// operations work word by word; add, multiply, min and max need the carry or the compare across
// the words, so they become a scan in shuffle-up steps with the emulated combine (the shape of
// lower-collectives' Target::shuffleScans), and a reduce is the last lane's inclusive value.
#include "ir/types.h"
#include "passes/interface/work_item_builtins.h"
#include "passes/types/int64_lowering.h"

namespace cl2vk::int64 {

using ir::Instruction;
using ir::Operand;
using spv::Op;

namespace {

bool movesWords(Op op) {
  switch (op) {
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
    case Op::OpGroupNonUniformQuadBroadcast:
    case Op::OpGroupNonUniformQuadSwap:
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformBitwiseXor: return true;
    default: return false;
  }
}

Pair combine(ir::Builder& b, Op op, Pair a, Pair x) {
  switch (op) {
    case Op::OpGroupNonUniformIAdd: return add(b, a, x);
    case Op::OpGroupNonUniformIMul: return mul(b, a, x);
    case Op::OpGroupNonUniformSMin: return select(b, compare(b, Op::OpSLessThan, a, x), a, x);
    case Op::OpGroupNonUniformUMin: return select(b, compare(b, Op::OpULessThan, a, x), a, x);
    case Op::OpGroupNonUniformSMax: return select(b, compare(b, Op::OpSGreaterThan, a, x), a, x);
    default: return select(b, compare(b, Op::OpUGreaterThan, a, x), a, x);
  }
}

uint64_t identity(Op op) {
  switch (op) {
    case Op::OpGroupNonUniformIMul: return 1;
    case Op::OpGroupNonUniformSMin: return ~0ull >> 1;
    case Op::OpGroupNonUniformUMin: return ~0ull;
    case Op::OpGroupNonUniformSMax: return 1ull << 63;
    default: return 0;
  }
}

}  // namespace

Status lowerCollective(Lowering& l, Instruction& inst) {
  ir::Module& module = l.module();
  Op op = inst.opcode();
  ir::Builder b = ir::Builder::before(module, &inst);
  uint32_t half = l.halfType(inst.typeId());
  uint32_t uint = ir::typeInt(module, 32);
  std::vector<Operand> operands = inst.operands();
  // The value is the operand after the scope, and after the group operation where there is one.
  bool grouped = operands.size() > 1 && operands[1].kind == SPV_OPERAND_TYPE_GROUP_OPERATION;
  size_t valueAt = grouped ? 2 : 1;
  Pair x = l.pair(inst.idOperand(valueAt));
  if (movesWords(op)) {
    auto word = [&](uint32_t value) {
      std::vector<Operand> parts = operands;
      parts[valueAt] = Operand::id(value);
      return b.value(op, half, parts);
    };
    l.replace(inst, Pair{word(x.lo), word(x.hi)});
    return okStatus();
  }
  bool arithmetic = op == Op::OpGroupNonUniformIAdd || op == Op::OpGroupNonUniformIMul ||
                    op == Op::OpGroupNonUniformSMin || op == Op::OpGroupNonUniformUMin ||
                    op == Op::OpGroupNonUniformSMax || op == Op::OpGroupNonUniformUMax;
  auto kind = grouped ? static_cast<spv::GroupOperation>(operands[1].words[0]) : spv::GroupOperation::Max;
  if (!arithmetic || (kind != spv::GroupOperation::Reduce && kind != spv::GroupOperation::InclusiveScan &&
                      kind != spv::GroupOperation::ExclusiveScan))
    return l.refuse(inst, "a 64-bit sub-group operation cl2vk cannot emulate without Vulkan's shaderInt64");
  uint32_t scope = inst.idOperand(0);
  uint32_t lane = b.load(uint, vulkanBuiltinVariable(module, spv::BuiltIn::SubgroupLocalInvocationId, false));
  auto shuffleUp = [&](Pair value, uint32_t delta) {
    uint32_t by = ir::constantUint(module, 32, delta);
    return Pair{b.op(Op::OpGroupNonUniformShuffleUp, half, {scope, value.lo, by}),
                b.op(Op::OpGroupNonUniformShuffleUp, half, {scope, value.hi, by})};
  };
  // At step d = 1, 2, 4 ... each lane at or past d combines the running value of the lane d below
  // with its own; steps at or past the device's subgroup size change nothing. A lane reads only
  // lanes below it, which a partial subgroup has.
  Pair running = x;
  for (uint32_t delta = 1; delta < l.maxSubgroupSize(); delta *= 2) {
    Pair earlier = shuffleUp(running, delta);
    uint32_t has = b.compare(Op::OpUGreaterThanEqual, lane, ir::constantUint(module, 32, delta));
    running = select(b, has, combine(b, op, earlier, running), running);
  }
  if (kind == spv::GroupOperation::InclusiveScan) {
    l.replace(inst, running);
  } else if (kind == spv::GroupOperation::ExclusiveScan) {
    Pair previous = shuffleUp(running, 1);
    uint32_t first = b.compare(Op::OpIEqual, lane, ir::constantUint(module, 32, 0));
    l.replace(inst, select(b, first, constant(b, half, identity(op)), previous));
  } else {
    uint32_t last = b.value(
        Op::OpGroupNonUniformUMax, uint,
        {Operand::id(scope),
         Operand::enumerant(SPV_OPERAND_TYPE_GROUP_OPERATION, static_cast<uint32_t>(spv::GroupOperation::Reduce)),
         Operand::id(lane)});
    l.replace(inst, Pair{b.op(Op::OpGroupNonUniformShuffle, half, {scope, running.lo, last}),
                         b.op(Op::OpGroupNonUniformShuffle, half, {scope, running.hi, last})});
  }
  return okStatus();
}

}  // namespace cl2vk::int64
