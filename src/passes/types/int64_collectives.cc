// Sub-group operations on 64-bit integers (what lower-collectives leaves at sub-group scope, work-
// group collectives included) on the halves. Moving a value (broadcast, shuffle) and the bitwise
// operations work word by word; add, multiply, min and max need the carry or the compare across
// the words: an add becomes 32-bit sums the device does natively, the others a combine of the
// active lanes' values one lane at a time (both correct whichever lanes are active).
#include "analysis/call_graph.h"
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
  if (op == Op::OpGroupNonUniformAllEqual) {
    // Equal across the active lanes when both words are.
    auto allEqual = [&](uint32_t word) {
      return b.op(Op::OpGroupNonUniformAllEqual, inst.typeId(), {inst.idOperand(0), word});
    };
    uint32_t both = b.op(Op::OpLogicalAnd, inst.typeId(), {allEqual(x.lo), allEqual(x.hi)});
    l.replace(inst, both);
    return okStatus();
  }
  bool arithmetic = op == Op::OpGroupNonUniformIAdd || op == Op::OpGroupNonUniformIMul ||
                    op == Op::OpGroupNonUniformSMin || op == Op::OpGroupNonUniformUMin ||
                    op == Op::OpGroupNonUniformSMax || op == Op::OpGroupNonUniformUMax;
  auto kind = grouped ? static_cast<spv::GroupOperation>(operands[1].words[0]) : spv::GroupOperation::Max;
  if (!arithmetic || (kind != spv::GroupOperation::Reduce && kind != spv::GroupOperation::InclusiveScan &&
                      kind != spv::GroupOperation::ExclusiveScan && kind != spv::GroupOperation::ClusteredReduce))
    return ir::refuse(l.module(), inst,
                      "a 64-bit sub-group operation cl2vk cannot emulate without Vulkan's shaderInt64");
  uint32_t scope = inst.idOperand(0);
  uint32_t lane = b.load(uint, vulkanBuiltinVariable(module, spv::BuiltIn::SubgroupLocalInvocationId, false));
  // Any set of the subgroup's lanes may be active (cl_khr_subgroup_non_uniform_arithmetic, or a
  // partial subgroup), and a shuffle or broadcast from an inactive lane is undefined, so neither
  // form reads a lane it does not know to be active.
  if (op == Op::OpGroupNonUniformIAdd) {
    // A sum of 64-bit values from 32-bit sums, which the device computes natively over exactly
    // the active lanes: the low words' sum needs more than 32 bits, so their two 16-bit halves are
    // summed apart (each sum fits while a subgroup has at most 2^16 lanes); the high words' sum
    // is wanted modulo 2^32 only.
    auto sum = [&](uint32_t value) {
      std::vector<Operand> parts = operands;  // the cluster size stays, for a clustered reduce
      parts[valueAt] = Operand::id(value);
      return b.value(op, half, parts);
    };
    uint32_t lowMask = constant(b, half, 0xffff).lo, sixteen = constant(b, half, 16).lo;
    uint32_t lowSum = sum(b.op(Op::OpBitwiseAnd, half, {x.lo, lowMask}));
    uint32_t highSum = sum(b.op(Op::OpShiftRightLogical, half, {x.lo, sixteen}));
    uint32_t zero = constant(b, half, 0).lo;
    Pair total = add(b, Pair{lowSum, zero}, shiftLeftBy(b, Pair{highSum, zero}, 16));
    l.replace(inst, add(b, total, Pair{zero, sum(x.hi)}));
    return okStatus();
  }
  // The rest lane by lane: each lane of the ballot of active lanes, in order, combined into the
  // running value where it is active and in range (every lane for a reduce, those up to this one
  // for an inclusive scan, those below it for an exclusive one, those of its cluster for a
  // clustered reduce). A broadcast's lane must be a constant, so the lanes are unrolled up to the
  // device's largest subgroup.
  uint32_t clusterMask = 0;  // ~(cluster size - 1): the cluster size is a constant power of two
  if (kind == spv::GroupOperation::ClusteredReduce) {
    uint32_t size = b.op(Op::OpISub, uint, {inst.idOperand(valueAt + 1), ir::constantUint(module, 32, 1)});
    clusterMask = b.op(Op::OpNot, uint, {size});
  }
  auto cluster = [&](uint32_t index) { return b.op(Op::OpBitwiseAnd, uint, {index, clusterMask}); };
  uint32_t laneCluster = clusterMask ? cluster(lane) : 0;
  uint32_t uvec4 = ir::typeVector(module, uint, 4);
  uint32_t active = b.op(Op::OpGroupNonUniformBallot, uvec4, {scope, ir::constantBool(module, true)});
  Pair running = constant(b, half, identity(op));
  for (uint32_t from = 0; from < l.maxSubgroupSize(); ++from) {
    uint32_t index = ir::constantUint(module, 32, from);
    uint32_t word = b.extract(uint, active, from / 32);
    uint32_t bit = b.op(Op::OpBitwiseAnd, uint, {word, ir::constantUint(module, 32, 1u << (from % 32))});
    uint32_t wanted = b.compare(Op::OpINotEqual, bit, ir::constantUint(module, 32, 0));
    if (kind == spv::GroupOperation::InclusiveScan)
      wanted = b.op(Op::OpLogicalAnd, ir::typeBool(module), {wanted, b.compare(Op::OpULessThanEqual, index, lane)});
    if (kind == spv::GroupOperation::ExclusiveScan)
      wanted = b.op(Op::OpLogicalAnd, ir::typeBool(module), {wanted, b.compare(Op::OpULessThan, index, lane)});
    if (clusterMask)
      wanted =
          b.op(Op::OpLogicalAnd, ir::typeBool(module), {wanted, b.compare(Op::OpIEqual, cluster(index), laneCluster)});
    Pair value{b.op(Op::OpGroupNonUniformBroadcast, half, {scope, x.lo, index}),
               b.op(Op::OpGroupNonUniformBroadcast, half, {scope, x.hi, index})};
    running = select(b, wanted, combine(b, op, running, value), running);
  }
  l.replace(inst, running);
  return okStatus();
}

}  // namespace cl2vk::int64
