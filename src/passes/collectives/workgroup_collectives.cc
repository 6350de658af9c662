// lower-collectives at work-group scope through subgroups: a subgroup operation, then the subgroups'
// partials combined in the scratch array in Workgroup memory (lower_collectives.h describes the
// scheme). Also the new-blocks entry point shared with the Workgroup-memory-only path.
#include <algorithm>

#include "passes/collectives/collective_lowering.h"
#include "passes/interface/work_item_builtins.h"

namespace cl2vk::collectives {

Block* CollectiveLowering::emitBlocksAfter(Instruction* inst) {
  auto [builder, rest] = Builder::splitAfter(module_, inst);
  builder_ = builder;
  return rest;
}

Status CollectiveLowering::lowerWithBlocks(Instruction* inst, uint32_t scope, bool inMemory) {
  Block* rest = emitBlocksAfter(inst);

  uint32_t value;
  uint32_t type = inst->typeId();
  if (inst->opcode() == spv::Op::OpGroupBroadcast) {
    if (scope == kWorkgroup) {
      value =
          workgroupBroadcast(inMemory ? invocationScratch() : scratch(), type, inst->idOperand(1), inst->idOperand(2));
    } else {
      value = sliceBroadcast(subgroupSlice(), type, inst->idOperand(1), inst->idOperand(2));
    }
  } else {
    Builder b = this->at();
    Expected<Operation> expected = operationOf(b, *inst);
    if (!expected) return expected.error();
    const Operation& op = *expected;
    const Collective& c = op.collective;
    bool reduce = op.kind == spv::GroupOperation::Reduce, inclusive = op.kind == spv::GroupOperation::InclusiveScan;
    auto inMemoryPath = [&] {
      Slice slice = scope == kWorkgroup ? workgroupSlice() : subgroupSlice();
      return reduce ? treeReduce(slice, c, op.type, op.x) : hillisSteeleScan(slice, c, op.type, op.x, inclusive);
    };
    auto subgroupPath = [&] {
      return reduce ? workgroupReduce(c, op.type, op.x) : workgroupScan(c, op.type, op.x, inclusive);
    };
    // The subgroup path needs subgroups of consecutive linear local ids, which the runtime
    // knows per dispatch: a specialization constant picks the path, and the driver folds the
    // branch away.
    value = inMemory ? inMemoryPath() : at().ifElseValue(linearSubgroups(), op.type, subgroupPath, inMemoryPath);
    Builder end = this->at();
    value = op.result(end, value);
  }
  at().branchTo(rest);
  module_.replaceAllUses(inst->resultId(), value);
  return module_.remove(inst);
}

uint32_t CollectiveLowering::linearSubgroups() {
  for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpSpecConstantTrue) continue;
    const Instruction* decoration = module_.findDecoration(inst.resultId(), spv::Decoration::SpecId);
    if (decoration && decoration->wordOperand(2) == SpecIds::kLinearSubgroups) return inst.resultId();
  }
  uint32_t id = module_.takeId();
  module_.append(ir::Section::kGlobal, Instruction(spv::Op::OpSpecConstantTrue, ir::typeBool(module_), id));
  module_.append(
      ir::Section::kAnnotation,
      Instruction(spv::Op::OpDecorate, 0, 0,
                  {Operand::id(id),
                   Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(spv::Decoration::SpecId)),
                   Operand::literal(SpecIds::kLinearSubgroups)}));
  return id;
}

uint32_t CollectiveLowering::builtin(spv::BuiltIn which) {
  return at().valueOfIds(spv::Op::OpLoad, uint_, {vulkanBuiltinVariable(module_, which, false)});
}

uint32_t CollectiveLowering::localInvocations() {
  uint32_t sizes = workgroupSizeConstant(module_);
  uint32_t invocations = 0;
  for (uint32_t d = 0; d < 3; ++d) {
    uint32_t size = at().value(spv::Op::OpCompositeExtract, uint_, {Operand::id(sizes), Operand::literal(d)});
    invocations = invocations ? at().valueOfIds(spv::Op::OpIMul, uint_, {invocations, size}) : size;
  }
  return invocations;
}

uint32_t CollectiveLowering::subgroupCount() {
  uint32_t invocations = localInvocations();
  uint32_t lanes = builtin(spv::BuiltIn::SubgroupSize);
  uint32_t rounded = at().valueOfIds(spv::Op::OpIAdd, uint_,
                                     {invocations, at().valueOfIds(spv::Op::OpISub, uint_, {lanes, constant32(1)})});
  return at().valueOfIds(spv::Op::OpUDiv, uint_, {rounded, lanes});
}

void CollectiveLowering::controlBarrier(Builder b, uint32_t scope, spv::MemorySemanticsMask memory) {
  uint32_t semantics = static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease | memory);
  b.add(spv::Op::OpControlBarrier, 0,
        {Operand::id(constant32(scope)), Operand::id(constant32(scope)), Operand::id(constant32(semantics))});
  if (scope == kWorkgroup) ++stats_.barriers;
}

void CollectiveLowering::publishPartial(uint32_t base, uint32_t type, uint32_t partial, uint32_t subgroup) {
  uint32_t elected = at().valueOfIds(spv::Op::OpGroupNonUniformElect, ir::typeBool(module_), {constant32(kSubgroup)});
  at().ifThen(elected, [&] { store(scratch(), type, offset(base, subgroup), partial); });
}

uint32_t CollectiveLowering::combinePartials(uint32_t half, const Collective& c, uint32_t type, uint32_t limit) {
  uint32_t lane = builtin(spv::BuiltIn::SubgroupLocalInvocationId);
  uint32_t lanes = activeLanes();
  uint32_t folded =
      at().foldLoop(constant32(0), limit, lanes, type, identity(c.combine, type), [&](uint32_t acc, uint32_t first) {
        uint32_t index = at().valueOfIds(spv::Op::OpIAdd, uint_, {first, lane});
        uint32_t partial = load(scratch(), type, offset(half, index));
        uint32_t present = at().valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {index, limit});
        return at().valueOfIds(spv::Op::OpSelect, type, {present, combine(c.combine, type, acc, partial), acc});
      });
  return subgroupOp(c, type, folded, spv::GroupOperation::Reduce);
}

uint32_t CollectiveLowering::activeLanes() {
  uint32_t lanes = builtin(spv::BuiltIn::SubgroupSize);
  uint32_t first = at().valueOfIds(spv::Op::OpIMul, uint_, {builtin(spv::BuiltIn::SubgroupId), lanes});
  uint32_t left = at().valueOfIds(spv::Op::OpISub, uint_, {localInvocations(), first});
  uint32_t fewer = at().valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {left, lanes});
  return at().valueOfIds(spv::Op::OpSelect, uint_, {fewer, left, lanes});
}

uint32_t CollectiveLowering::workgroupReduce(const Collective& c, uint32_t type, uint32_t x) {
  uint32_t base = beginPartials();
  uint32_t subgroup = builtin(spv::BuiltIn::SubgroupId);
  uint32_t count = subgroupCount();
  publishPartial(base, type, subgroupOp(c, type, x, spv::GroupOperation::Reduce), subgroup);
  barrier();
  // Where a work-group can have more subgroups than a subgroup has lanes (lavapipe: 128 of 8
  // lanes), every subgroup folding every partial costs more than a second barrier: then the first
  // subgroup folds them and shares the total through the half's last slot.
  if (maxSubgroups() <= std::max<uint32_t>(target_.minSubgroupSize, 1)) return combinePartials(base, c, type, count);
  uint32_t many =
      at().valueOfIds(spv::Op::OpUGreaterThan, ir::typeBool(module_), {count, builtin(spv::BuiltIn::SubgroupSize)});
  return at().ifElseValue(
      many, type,
      [&] {
        uint32_t first = at().valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_), {subgroup, constant32(0)});
        at().ifThen(first, [&] {
          uint32_t total = combinePartials(base, c, type, count);
          uint32_t elected =
              at().valueOfIds(spv::Op::OpGroupNonUniformElect, ir::typeBool(module_), {constant32(kSubgroup)});
          at().ifThen(elected, [&] { store(scratch(), type, offset(base, totalSlotConstant_), total); });
        });
        barrier();
        return load(scratch(), type, offset(base, totalSlotConstant_));
      },
      [&] { return combinePartials(base, c, type, count); });
}

uint32_t CollectiveLowering::workgroupScan(const Collective& c, uint32_t type, uint32_t x, bool inclusive) {
  uint32_t base = beginPartials();
  uint32_t subgroup = builtin(spv::BuiltIn::SubgroupId);
  uint32_t scanned =
      subgroupOp(c, type, x, inclusive ? spv::GroupOperation::InclusiveScan : spv::GroupOperation::ExclusiveScan);
  // The subgroup's total is the inclusive value of its last lane: that lane publishes it, with
  // no subgroup reduce besides the scan.
  uint32_t through = inclusive ? scanned : combine(c.combine, type, scanned, x);
  uint32_t lastLane = at().valueOfIds(spv::Op::OpISub, uint_, {activeLanes(), constant32(1)});
  uint32_t isLast = at().valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_),
                                    {builtin(spv::BuiltIn::SubgroupLocalInvocationId), lastLane});
  at().ifThen(isLast, [&] { store(scratch(), type, offset(base, subgroup), through); });
  barrier();
  uint32_t prefix = combinePartials(base, c, type, subgroup);
  return combine(c.combine, type, prefix, scanned);
}

uint32_t CollectiveLowering::workgroupBroadcast(uint32_t array, uint32_t type, uint32_t value, uint32_t localId) {
  uint32_t ulong = ir::typeInt(module_, 64);
  auto wide = [&](uint32_t v) {
    return ir::scalarWidth(module_, module_.def(v)->typeId()) == 64 ? v
                                                                    : at().valueOfIds(spv::Op::OpUConvert, ulong, {v});
  };
  // The owner's linear local id: x + y * lx + z * lx * ly.
  uint32_t idType = ir::typeOf(module_, localId);
  uint32_t dims = ir::componentCount(module_, idType);
  uint32_t sizes = workgroupSizeConstant(module_);
  uint32_t linear = 0, stride = 0;
  for (uint32_t d = 0; d < dims; ++d) {
    uint32_t id = dims == 1 ? localId
                            : at().value(spv::Op::OpCompositeExtract, ir::componentType(module_, idType),
                                         {Operand::id(localId), Operand::literal(d)});
    uint32_t term = stride ? at().valueOfIds(spv::Op::OpIMul, ulong, {wide(id), stride}) : wide(id);
    linear = linear ? at().valueOfIds(spv::Op::OpIAdd, ulong, {linear, term}) : term;
    uint32_t size = wide(at().value(spv::Op::OpCompositeExtract, uint_, {Operand::id(sizes), Operand::literal(d)}));
    stride = stride ? at().valueOfIds(spv::Op::OpIMul, ulong, {stride, size}) : size;
  }
  uint32_t mine = wide(builtin(spv::BuiltIn::LocalInvocationIndex));
  uint32_t owner = at().valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_), {mine, linear});
  // The subgroup path's scratch is double-buffered (one barrier); the Workgroup-memory path's
  // is not, and keeps its second barrier before the next collective may write it.
  bool doubleBuffered = array == scratch_;
  uint32_t slot = doubleBuffered ? beginPartials() : constant32(0);
  at().ifThen(owner, [&] { store(array, type, slot, value); });
  barrier();
  uint32_t result = load(array, type, slot);
  if (!doubleBuffered) barrier();
  return result;
}

}  // namespace cl2vk::collectives
