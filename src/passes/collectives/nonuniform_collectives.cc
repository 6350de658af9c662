// lower-collectives for the cl_khr_subgroup_* functions, which llvm-spirv-15 writes as Kernel
// OpGroupNonUniform* instructions at Subgroup scope: most stay as they are; what Vulkan lacks or
// does otherwise is rewritten here (docs/collectives.md, "The cl_khr_subgroup_* extensions").
#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "cl2vk/reflection.h"
#include "passes/collectives/collective_lowering.h"
#include "passes/environment/finalize_vulkan.h"
#include "passes/interface/work_item_builtins.h"

namespace cl2vk::collectives {
namespace {

using O = spv::Op;

bool movesValues(spv::Op op) {
  return op == O::OpGroupNonUniformShuffle || op == O::OpGroupNonUniformShuffleXor ||
         op == O::OpGroupNonUniformShuffleUp || op == O::OpGroupNonUniformShuffleDown ||
         op == O::OpGroupNonUniformBroadcast || op == O::OpGroupNonUniformBroadcastFirst ||
         op == O::OpGroupNonUniformRotateKHR;
}

// The fold of a clustered reduction's instruction.
std::optional<Combine> combineOf(spv::Op op) {
  switch (op) {
    case O::OpGroupNonUniformIAdd: return Combine::kIAdd;
    case O::OpGroupNonUniformFAdd: return Combine::kFAdd;
    case O::OpGroupNonUniformIMul: return Combine::kIMul;
    case O::OpGroupNonUniformFMul: return Combine::kFMul;
    case O::OpGroupNonUniformSMin: return Combine::kSMin;
    case O::OpGroupNonUniformUMin: return Combine::kUMin;
    case O::OpGroupNonUniformFMin: return Combine::kFMin;
    case O::OpGroupNonUniformSMax: return Combine::kSMax;
    case O::OpGroupNonUniformUMax: return Combine::kUMax;
    case O::OpGroupNonUniformFMax: return Combine::kFMax;
    case O::OpGroupNonUniformBitwiseAnd: return Combine::kAnd;
    case O::OpGroupNonUniformBitwiseOr: return Combine::kOr;
    case O::OpGroupNonUniformBitwiseXor: return Combine::kXor;
    case O::OpGroupNonUniformLogicalAnd: return Combine::kLogicalAnd;
    case O::OpGroupNonUniformLogicalOr: return Combine::kLogicalOr;
    case O::OpGroupNonUniformLogicalXor: return Combine::kLogicalXor;
    default: return std::nullopt;
  }
}

}  // namespace

bool isNonUniformGroupOp(spv::Op op) {
  switch (op) {
    case O::OpGroupNonUniformElect:
    case O::OpGroupNonUniformAll:
    case O::OpGroupNonUniformAny:
    case O::OpGroupNonUniformAllEqual:
    case O::OpGroupNonUniformBallot:
    case O::OpGroupNonUniformInverseBallot:
    case O::OpGroupNonUniformBallotBitExtract:
    case O::OpGroupNonUniformBallotBitCount:
    case O::OpGroupNonUniformBallotFindLSB:
    case O::OpGroupNonUniformBallotFindMSB: return true;
    default: return movesValues(op) || combineOf(op).has_value();
  }
}

Status CollectiveLowering::lowerNonUniform(Instruction* inst) {
  if (constantValue(module_, inst->idOperand(0)) != kSubgroup)
    return ir::refuse(module_, *inst, "a cl_khr_subgroup_* instruction must have the constant Subgroup scope");
  spv::Op op = inst->opcode();
  // What the OpenCL environment's validation lets through and Vulkan's does not.
  if (movesValues(op) || combineOf(op)) {
    size_t valueAt = movesValues(op) ? 1 : 2;
    if (inst->operands().size() <= valueAt || ir::typeOf(module_, inst->idOperand(valueAt)) != inst->typeId())
      return ir::refuse(module_, *inst, "the value must have the result's type (SPIR-V requires it)");
  }
  if (op == O::OpGroupNonUniformBallotBitCount) {
    auto kind = static_cast<spv::GroupOperation>(inst->wordOperand(1));
    if (kind != spv::GroupOperation::Reduce && kind != spv::GroupOperation::InclusiveScan &&
        kind != spv::GroupOperation::ExclusiveScan)
      return ir::refuse(module_, *inst, "a ballot's bit count is a Reduce, InclusiveScan or ExclusiveScan");
  }
  Builder b = Builder::before(module_, inst);
  uint32_t value = 0;
  if (op == O::OpGroupNonUniformElect) return okStatus();
  if (op == O::OpGroupNonUniformAll || op == O::OpGroupNonUniformAny || op == O::OpGroupNonUniformAllEqual) {
    if (!target_.subgroupVote) return ir::refuse(module_, *inst, "the device lacks Vulkan's subgroup vote operations");
    // Without shaderSubgroupExtendedTypes, 8/16-bit integers compare widened, half as float and
    // 64-bit integers as their two words.
    uint32_t x = inst->idOperand(1), type = ir::typeOf(module_, x);
    uint32_t width = ir::scalarWidth(module_, type);
    bool isFloat = module_.def(type)->opcode() == O::OpTypeFloat;
    bool extended = (width != 0 && width < 32) || (width == 64 && !isFloat);
    if (op != O::OpGroupNonUniformAllEqual || !extended || target_.subgroupExtendedTypes) return okStatus();
    if (isFloat)
      x = b.valueOfIds(O::OpFConvert, ir::typeFloat(module_, 32), {x});
    else if (width == 64)
      x = b.valueOfIds(O::OpBitcast, ir::typeVector(module_, uint_, 2), {x});
    else
      x = b.valueOfIds(O::OpUConvert, uint_, {x});
    value = b.valueOfIds(op, inst->typeId(), {constant32(kSubgroup), x});
    module_.replaceAllUses(inst->resultId(), value);
    return module_.remove(inst);
  }
  if (std::optional<Combine> c = combineOf(op)) {
    if (!target_.subgroupArithmetic) return ir::refuse(module_, *inst, "the device lacks Vulkan's subgroup arithmetic");
    bool arithmetic = hasSubgroupArithmeticFor(inst->typeId());
    if (inst->wordOperand(1) != static_cast<uint32_t>(spv::GroupOperation::ClusteredReduce)) {
      if (arithmetic) return okStatus();
      return ir::refuse(module_, *inst,
                        "subgroup arithmetic on 8/16-bit types and 64-bit integers needs Vulkan's "
                        "shaderSubgroupExtendedTypes, which the device lacks");
    }
    // SPIRV-Tools 2023.1 does not check it, and NVIDIA's driver crashed on a cluster size that
    // was not a constant (clang had merged a switch over cluster sizes into one call).
    std::optional<uint64_t> cluster =
        inst->operands().size() > 3 ? constantValue(module_, inst->idOperand(3)) : std::nullopt;
    if (!cluster || *cluster == 0 || (*cluster & (*cluster - 1)) != 0)
      return ir::refuse(module_, *inst, "the cluster size must be a constant power of two");
    if (arithmetic && target_.subgroupClustered) return okStatus();
    // Shuffle steps move the values as 32-bit words, so they need no shaderSubgroupExtendedTypes.
    if (!target_.subgroupShuffle || !target_.subgroupBallot)
      return ir::refuse(module_, *inst,
                        arithmetic ? "clustered reductions need Vulkan's clustered, or shuffle and ballot, subgroup "
                                     "operations"
                                   : "clustered reductions of 8/16-bit types and 64-bit integers need Vulkan's "
                                     "shaderSubgroupExtendedTypes, or shuffle and ballot subgroup operations");
    value = clusteredReduce(b, *c, inst->typeId(), inst->idOperand(2), static_cast<uint32_t>(*cluster));
  } else if (movesValues(op)) {
    bool relative = op == O::OpGroupNonUniformShuffleUp || op == O::OpGroupNonUniformShuffleDown;
    bool broadcast = op == O::OpGroupNonUniformBroadcast || op == O::OpGroupNonUniformBroadcastFirst;
    if (broadcast ? !target_.subgroupBallot : relative ? !target_.subgroupShuffleRelative : !target_.subgroupShuffle)
      return ir::refuse(module_, *inst,
                        std::string("the device lacks Vulkan's subgroup ") +
                            (broadcast  ? "ballot"
                             : relative ? "relative shuffle"
                                        : "shuffle") +
                            " operations");
    if (op == O::OpGroupNonUniformRotateKHR) {
      value = rotate(b, inst->typeId(), inst->idOperand(1), inst->idOperand(2),
                     inst->operands().size() > 3 ? inst->idOperand(3) : 0);
    } else {
      std::vector<uint32_t> rest;
      for (size_t i = 2; i < inst->operands().size(); ++i) rest.push_back(inst->idOperand(i));
      // SPIR-V before 1.5 wants a constant lane for OpGroupNonUniformBroadcast.
      if (op == O::OpGroupNonUniformBroadcast && spirvVersionFor(target_.vulkanEnv) < 0x00010500 &&
          !constantValue(module_, rest[0]))
        op = O::OpGroupNonUniformShuffle;
      if (!rest.empty() && ir::scalarWidth(module_, ir::typeOf(module_, rest[0])) != 32)
        rest[0] = b.valueOfIds(O::OpUConvert, uint_, {rest[0]});
      value = moveValue(b, op, inst->typeId(), inst->idOperand(1), rest);
    }
  } else {
    if (!target_.subgroupBallot)
      return ir::refuse(module_, *inst, "the device lacks Vulkan's subgroup ballot operations");
    bool counts = op == O::OpGroupNonUniformBallotBitCount &&
                  inst->wordOperand(1) == static_cast<uint32_t>(spv::GroupOperation::Reduce);
    if (!counts && op != O::OpGroupNonUniformBallotFindMSB) return okStatus();
    // OpenCL counts (and finds the highest of) the bits of get_max_sub_group_size() lanes, as the
    // CTS checks, a partial sub-group's included; Vulkan those of SubgroupSize lanes, more where
    // the work-group is smaller than a subgroup.
    uint32_t operand = counts ? 2 : 1;
    uint32_t masked = b.valueOfIds(O::OpBitwiseAnd, ir::typeOf(module_, inst->idOperand(operand)),
                                   {inst->idOperand(operand), maxSubgroupMask(b)});
    std::vector<Operand> operands = inst->operands();
    operands[operand] = Operand::id(masked);
    value = b.value(op, inst->typeId(), operands);
  }
  module_.replaceAllUses(inst->resultId(), value);
  return module_.remove(inst);
}

uint32_t CollectiveLowering::moveValue(Builder& b, spv::Op op, uint32_t type, uint32_t value,
                                       const std::vector<uint32_t>& rest) {
  auto move = [&](uint32_t moveType, uint32_t moved) {
    std::vector<uint32_t> ids = {constant32(kSubgroup), moved};
    ids.insert(ids.end(), rest.begin(), rest.end());
    return b.valueOfIds(op, moveType, ids);
  };
  const Instruction* def = module_.def(type);
  if (def->opcode() == O::OpTypeBool) {
    uint32_t word = b.valueOfIds(O::OpSelect, uint_, {value, constant32(1), constant32(0)});
    return b.valueOfIds(O::OpINotEqual, type, {move(uint_, word), constant32(0)});
  }
  uint32_t width = ir::scalarWidth(module_, type);
  if (width == 32) return move(type, value);
  if (def->opcode() == O::OpTypeVector) {
    if (target_.subgroupExtendedTypes) return move(type, value);
    // Without shaderSubgroupExtendedTypes a vector of 8, 16 or 64-bit components moves one
    // component at a time, each as words.
    uint32_t component = def->idOperand(0);
    std::vector<uint32_t> components;
    for (uint32_t i = 0; i < def->wordOperand(1); ++i) {
      uint32_t part = b.value(O::OpCompositeExtract, component, {Operand::id(value), Operand::literal(i)});
      components.push_back(moveValue(b, op, component, part, rest));
    }
    return b.valueOfIds(O::OpCompositeConstruct, type, components);
  }
  // 64-bit values move as two words (lavapipe's LLVM 15 crashes on some 64-bit shuffles), 8 and
  // 16-bit ones as one, so that moving them needs no shaderSubgroupExtendedTypes.
  if (width == 64) {
    uint32_t pair = ir::typeVector(module_, uint_, 2);
    return b.valueOfIds(O::OpBitcast, type, {move(pair, b.valueOfIds(O::OpBitcast, pair, {value}))});
  }
  uint32_t narrow = ir::typeInt(module_, width);
  bool isFloat = def->opcode() == O::OpTypeFloat;
  uint32_t bits = isFloat ? b.valueOfIds(O::OpBitcast, narrow, {value}) : value;
  uint32_t moved = move(uint_, b.valueOfIds(O::OpUConvert, uint_, {bits}));
  uint32_t back = b.valueOfIds(O::OpUConvert, narrow, {moved});
  return isFloat ? b.valueOfIds(O::OpBitcast, type, {back}) : back;
}

uint32_t CollectiveLowering::laneId(Builder& b) {
  return b.valueOfIds(O::OpLoad, uint_,
                      {vulkanBuiltinVariable(module_, spv::BuiltIn::SubgroupLocalInvocationId, false)});
}

uint32_t CollectiveLowering::clusteredReduce(Builder& b, Combine c, uint32_t type, uint32_t x, uint32_t cluster) {
  uint32_t boolType = ir::typeBool(module_);
  uint32_t lane = laneId(b);
  uint32_t active = b.valueOfIds(O::OpGroupNonUniformBallot, ir::typeVector(module_, uint_, 4),
                                 {constant32(kSubgroup), ir::constantBool(module_, true)});
  uint32_t running = x;
  // Step d joins each block of d lanes (aligned) with the block beside it. Every active lane of a
  // block holds the block's fold, so the value comes from the partner block's lowest active lane
  // (a ballot says which); a partner block with none (past a partial sub-group, or inactive in
  // non-uniform control flow) adds nothing. The lower block comes first, so that every lane of a
  // cluster ends with the same bits, float included.
  for (uint32_t d = 1; d < cluster; d *= 2) {
    uint32_t partner = b.valueOfIds(
        O::OpBitwiseAnd, uint_, {b.valueOfIds(O::OpBitwiseXor, uint_, {lane, constant32(d)}), constant32(~(d - 1))});
    uint32_t word = b.valueOfIds(O::OpVectorExtractDynamic, uint_,
                                 {active, b.valueOfIds(O::OpShiftRightLogical, uint_, {partner, constant32(5)})});
    uint32_t shifted = b.valueOfIds(O::OpShiftRightLogical, uint_,
                                    {word, b.valueOfIds(O::OpBitwiseAnd, uint_, {partner, constant32(31)})});
    uint32_t bits = b.valueOfIds(O::OpBitwiseAnd, uint_, {shifted, constant32(d >= 32 ? 0xffffffffu : (1u << d) - 1)});
    uint32_t present = b.valueOfIds(O::OpINotEqual, boolType, {bits, constant32(0)});
    uint32_t first = b.valueOfIds(O::OpIAdd, uint_, {partner, b.glsl(GLSLstd450FindILsb, uint_, {bits})});
    uint32_t source = b.valueOfIds(O::OpSelect, uint_, {present, first, lane});
    uint32_t other = moveValue(b, O::OpGroupNonUniformShuffle, type, running, {source});
    uint32_t upper = b.valueOfIds(O::OpINotEqual, boolType,
                                  {b.valueOfIds(O::OpBitwiseAnd, uint_, {lane, constant32(d)}), constant32(0)});
    uint32_t folded = b.valueOfIds(O::OpSelect, type,
                                   {upper, combine(b, c, type, other, running), combine(b, c, type, running, other)});
    running = b.valueOfIds(O::OpSelect, type, {present, folded, running});
  }
  return running;
}

uint32_t CollectiveLowering::rotate(Builder& b, uint32_t type, uint32_t value, uint32_t delta, uint32_t cluster) {
  uint32_t lane = laneId(b);
  if (ir::scalarWidth(module_, ir::typeOf(module_, delta)) != 32) delta = b.valueOfIds(O::OpUConvert, uint_, {delta});
  uint32_t moved = b.valueOfIds(O::OpIAdd, uint_, {lane, delta});
  uint32_t source;
  if (cluster) {
    // Within the aligned cluster of `cluster` lanes (a power of two).
    if (ir::scalarWidth(module_, ir::typeOf(module_, cluster)) != 32)
      cluster = b.valueOfIds(O::OpUConvert, uint_, {cluster});
    uint32_t low = b.valueOfIds(O::OpISub, uint_, {cluster, constant32(1)});
    uint32_t base = b.valueOfIds(O::OpBitwiseAnd, uint_, {lane, b.valueOfIds(O::OpNot, uint_, {low})});
    source = b.valueOfIds(O::OpBitwiseOr, uint_, {base, b.valueOfIds(O::OpBitwiseAnd, uint_, {moved, low})});
  } else {
    source = b.valueOfIds(O::OpUMod, uint_, {moved, openclMaxSubgroupSize(b)});
  }
  return moveValue(b, O::OpGroupNonUniformShuffle, type, value, {source});
}

uint32_t CollectiveLowering::minimum(Builder& b, uint32_t a, uint32_t c) {
  uint32_t fewer = b.valueOfIds(O::OpULessThan, ir::typeBool(module_), {a, c});
  return b.valueOfIds(O::OpSelect, uint_, {fewer, a, c});
}

uint32_t CollectiveLowering::openclMaxSubgroupSize(Builder& b) {
  uint32_t lanes = b.valueOfIds(O::OpLoad, uint_, {vulkanBuiltinVariable(module_, spv::BuiltIn::SubgroupSize, false)});
  uint32_t enqueued = specConstant(module_, SpecIds::kEnqueuedWorkGroupSize);
  if (!target_.subgroupsByRow) {
    for (uint32_t d = 1; d < 3; ++d)
      enqueued = b.valueOfIds(O::OpIMul, uint_, {enqueued, specConstant(module_, SpecIds::kEnqueuedWorkGroupSize + d)});
  }
  return minimum(b, enqueued, lanes);
}

uint32_t CollectiveLowering::maxSubgroupMask(Builder& b) {
  uint32_t lanes = openclMaxSubgroupSize(b);
  std::vector<uint32_t> words;
  uint32_t boolType = ir::typeBool(module_);
  for (uint32_t i = 0; i < 4; ++i) {
    // min(lanes - 32 i, 32) bits, none when lanes <= 32 i; a shift by 32 is undefined.
    uint32_t below = b.valueOfIds(O::OpULessThanEqual, boolType, {lanes, constant32(32 * i)});
    uint32_t bits = b.valueOfIds(O::OpISub, uint_, {lanes, constant32(32 * i)});
    uint32_t full = b.valueOfIds(O::OpUGreaterThanEqual, boolType, {bits, constant32(32)});
    uint32_t some = b.valueOfIds(O::OpISub, uint_,
                                 {b.valueOfIds(O::OpShiftLeftLogical, uint_, {constant32(1), bits}), constant32(1)});
    uint32_t word = b.valueOfIds(O::OpSelect, uint_, {full, constant32(0xffffffffu), some});
    words.push_back(b.valueOfIds(O::OpSelect, uint_, {below, constant32(0), word}));
  }
  return b.valueOfIds(O::OpCompositeConstruct, ir::typeVector(module_, uint_, 4), words);
}

}  // namespace cl2vk::collectives
