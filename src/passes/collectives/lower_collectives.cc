#include "passes/collectives/lower_collectives.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <unordered_map>

#include "ir/builder.h"
#include "ir/collectives.h"
#include "ir/types.h"
#include "analysis/data_layout.h"
#include "passes/environment/finalize_vulkan.h"
#include "passes/interface/work_item_builtins.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Builder;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;

constexpr uint32_t kWorkgroup = static_cast<uint32_t>(spv::Scope::Workgroup);
constexpr uint32_t kSubgroup = static_cast<uint32_t>(spv::Scope::Subgroup);

bool isAsyncCopyOrWait(spv::Op opcode) { return opcode == spv::Op::OpGroupAsyncCopy || opcode == spv::Op::OpGroupWaitEvents; }

// How two values combine, for the scalar folds of partial results.
enum class Combine { kIAdd, kFAdd, kSMin, kUMin, kFMin, kSMax, kUMax, kFMax, kIMul, kFMul, kAnd, kOr, kXor,
                     kLogicalAnd, kLogicalOr, kLogicalXor };

struct Collective {
  Combine combine;
  spv::Op nonUniform;  // the OpGroupNonUniform* instruction of the same operation
  bool vote = false;   // OpGroupAll / OpGroupAny: no group operation operand
};

std::optional<Collective> collectiveOf(spv::Op op) {
  using O = spv::Op;
  switch (op) {
    case O::OpGroupIAdd: return Collective{Combine::kIAdd, O::OpGroupNonUniformIAdd};
    case O::OpGroupFAdd: return Collective{Combine::kFAdd, O::OpGroupNonUniformFAdd};
    case O::OpGroupSMin: return Collective{Combine::kSMin, O::OpGroupNonUniformSMin};
    case O::OpGroupUMin: return Collective{Combine::kUMin, O::OpGroupNonUniformUMin};
    case O::OpGroupFMin: return Collective{Combine::kFMin, O::OpGroupNonUniformFMin};
    case O::OpGroupSMax: return Collective{Combine::kSMax, O::OpGroupNonUniformSMax};
    case O::OpGroupUMax: return Collective{Combine::kUMax, O::OpGroupNonUniformUMax};
    case O::OpGroupFMax: return Collective{Combine::kFMax, O::OpGroupNonUniformFMax};
    case O::OpGroupIMulKHR: return Collective{Combine::kIMul, O::OpGroupNonUniformIMul};
    case O::OpGroupFMulKHR: return Collective{Combine::kFMul, O::OpGroupNonUniformFMul};
    case O::OpGroupBitwiseAndKHR: return Collective{Combine::kAnd, O::OpGroupNonUniformBitwiseAnd};
    case O::OpGroupBitwiseOrKHR: return Collective{Combine::kOr, O::OpGroupNonUniformBitwiseOr};
    case O::OpGroupBitwiseXorKHR: return Collective{Combine::kXor, O::OpGroupNonUniformBitwiseXor};
    case O::OpGroupLogicalAndKHR: return Collective{Combine::kLogicalAnd, O::OpGroupNonUniformLogicalAnd};
    case O::OpGroupLogicalOrKHR: return Collective{Combine::kLogicalOr, O::OpGroupNonUniformLogicalOr};
    case O::OpGroupLogicalXorKHR: return Collective{Combine::kLogicalXor, O::OpGroupNonUniformLogicalXor};
    case O::OpGroupAll: return Collective{Combine::kLogicalAnd, O::OpGroupNonUniformAll, true};
    case O::OpGroupAny: return Collective{Combine::kLogicalOr, O::OpGroupNonUniformAny, true};
    default: return std::nullopt;
  }
}

// Logical collectives (booleans) as the bitwise operation with the same truth table over 0/1
// words, the form hand-written shaders use (subgroupXor(x ? 1u : 0u)); votes stay votes.
std::optional<Collective> asBitwise(const Collective& c) {
  if (c.vote) return std::nullopt;
  switch (c.combine) {
    case Combine::kLogicalAnd: return Collective{Combine::kAnd, spv::Op::OpGroupNonUniformBitwiseAnd};
    case Combine::kLogicalOr: return Collective{Combine::kOr, spv::Op::OpGroupNonUniformBitwiseOr};
    case Combine::kLogicalXor: return Collective{Combine::kXor, spv::Op::OpGroupNonUniformBitwiseXor};
    default: return std::nullopt;
  }
}

// Emits the code of one kernel's collectives. Work-group collectives need new blocks (a store by
// one lane, a loop): the code is appended at `cursor_`, new blocks follow it, and the
// structurizer gives them their merges later.
class CollectiveLowering {
 public:
  CollectiveLowering(Module& module, const Target& target, Function& kernel)
      : module_(module), target_(target), kernel_(kernel), uint_(ir::typeInt(module, 32)) {}

  Status lower(Instruction* inst) {
    std::optional<uint64_t> scope = constantValue(module_, inst->idOperand(0));
    if (isAsyncCopyOrWait(inst->opcode())) {
      if (scope != kWorkgroup) return fail(*inst, "the scope must be the constant Workgroup");
      return inst->opcode() == spv::Op::OpGroupAsyncCopy ? lowerAsyncCopy(inst) : lowerWaitEvents(inst);
    }
    if (!scope || (*scope != kWorkgroup && *scope != kSubgroup))
      return fail(*inst, "the scope must be the constant Workgroup or Subgroup");
    CL2VK_TRY(checkOperandTypes(*inst));
    ++stats_.collectives;
    bool inMemory = !hasSubgroupArithmeticFor(inst->typeId());
    if (*scope == kSubgroup && !inMemory) return lowerSubgroup(inst);
    return lowerWithBlocks(inst, static_cast<uint32_t>(*scope), inMemory);
  }

  const CollectiveStats& stats() const { return stats_; }

 private:
  Error fail(const Instruction& inst, const std::string& why) const {
    return Error("kernel '" + module_.functionName(kernel_) + "': " + module_.describe(inst) + ": " + why);
  }

  // SPIRV-Tools does not check these operands of the OpGroup* instructions, and a value of
  // another type than the result would be lowered into invalid code.
  Status checkOperandTypes(const Instruction& inst) const {
    bool broadcast = inst.opcode() == spv::Op::OpGroupBroadcast;
    bool vote = !broadcast && collectiveOf(inst.opcode())->vote;
    uint32_t value = inst.idOperand(broadcast || vote ? 1 : 2);
    if (ir::typeOf(module_, value) != inst.typeId())
      return fail(inst, (broadcast ? "the value" : vote ? "the predicate" : "the operand X") +
                            std::string(" must have the result's type (SPIR-V requires it)"));
    if (broadcast) {
      const Instruction* localId = module_.def(ir::typeOf(module_, inst.idOperand(2)));
      bool integer = localId && localId->opcode() == spv::Op::OpTypeInt;
      bool vector = localId && localId->opcode() == spv::Op::OpTypeVector &&
                    (localId->wordOperand(1) == 2 || localId->wordOperand(1) == 3) &&
                    module_.def(localId->idOperand(0))->opcode() == spv::Op::OpTypeInt;
      if (!integer && !vector) return fail(inst, "the local id must be an integer or a vector of two or three integers");
    }
    return okStatus();
  }

  // Subgroup operations on 8/16-bit types and 64-bit integers need shaderSubgroupExtendedTypes
  // (double needs only shaderFloat64); without it, or without subgroup arithmetic at all, the
  // collective runs in Workgroup memory.
  bool hasSubgroupArithmeticFor(uint32_t type) const {
    if (!target_.subgroupArithmetic) return false;
    uint32_t width = ir::scalarWidth(module_, type);
    bool extended = (width != 0 && width < 32) || (width == 64 && module_.def(type)->opcode() == spv::Op::OpTypeInt);
    return !extended || target_.subgroupExtendedTypes;
  }

  uint32_t constant32(uint64_t value) { return ir::constantUint(module_, 32, value); }

  // --- Subgroup scope: one instruction ----------------------------------------------------------

  Status lowerSubgroup(Instruction* inst) {
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

  // A reduce, scan or vote as the subgroup operations see it: a logical collective's booleans as
  // 0/1 words for its bitwise form (asBitwise).
  struct Operation {
    Collective collective;
    uint32_t type;  // of x
    uint32_t x;
    spv::GroupOperation kind;
    uint32_t resultType = 0;  // the instruction's, where x is the words of a boolean

    // The instruction's value from the operation's `value`.
    uint32_t result(Builder& b, uint32_t value) const {
      return resultType ? b.valueOfIds(spv::Op::OpINotEqual, resultType, {value, ir::constantUint(b.module(), 32, 0)}) : value;
    }
  };

  Expected<Operation> operationOf(Builder& b, const Instruction& inst) {
    Collective c = *collectiveOf(inst.opcode());
    uint32_t operation = c.vote ? static_cast<uint32_t>(spv::GroupOperation::Reduce) : inst.wordOperand(1);
    auto kind = static_cast<spv::GroupOperation>(operation);
    if (kind != spv::GroupOperation::Reduce && kind != spv::GroupOperation::InclusiveScan &&
        kind != spv::GroupOperation::ExclusiveScan)
      return fail(inst, "group operation " + std::to_string(operation) + " is not an OpenCL collective");
    Operation op{c, inst.typeId(), c.vote ? inst.idOperand(1) : inst.idOperand(2), kind};
    if (std::optional<Collective> bitwise = asBitwise(c)) {
      op.x = b.valueOfIds(spv::Op::OpSelect, uint_, {op.x, constant32(1), constant32(0)});
      op.collective = *bitwise;
      op.type = uint_;
      op.resultType = inst.typeId();
    }
    return op;
  }

  uint32_t subgroupBroadcast(Builder& b, uint32_t type, uint32_t value, uint32_t lane) {
    if (ir::scalarWidth(module_, module_.def(lane)->typeId()) != 32) lane = b.valueOfIds(spv::Op::OpUConvert, uint_, {lane});
    // SPIR-V 1.5 lets OpGroupNonUniformBroadcast take a dynamically uniform id; before, only a
    // constant, so Vulkan 1.1 gets a shuffle.
    spv::Op op = spirvVersionFor(target_.vulkanEnv) >= 0x00010500 || constantValue(module_, lane)
                     ? spv::Op::OpGroupNonUniformBroadcast
                     : spv::Op::OpGroupNonUniformShuffle;
    return b.valueOfIds(op, type, {constant32(kSubgroup), value, lane});
  }

  // --- Work-group scope, and sub-group scope in memory -------------------------------------------

  // Everything after `inst` continues in a block of its own, returned; the code emitted for `inst`
  // goes between, from the end of its block.
  Block* emitBlocksAfter(Instruction* inst) {
    auto [builder, rest] = Builder::splitAfter(module_, inst);
    builder_ = builder;
    return rest;
  }

  Status lowerWithBlocks(Instruction* inst, uint32_t scope, bool inMemory) {
    Block* rest = emitBlocksAfter(inst);

    uint32_t value;
    uint32_t type = inst->typeId();
    if (inst->opcode() == spv::Op::OpGroupBroadcast) {
      if (scope == kWorkgroup) {
        value = workgroupBroadcast(inMemory ? invocationScratch() : scratch(), type, inst->idOperand(1), inst->idOperand(2));
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

  // --- Async copies --------------------------------------------------------------------------------

  // async_work_group_copy and async_work_group_strided_copy: the work-group copies at once and
  // together, work-item k the elements k, k + the work-group size, ...; Stride applies to the side
  // in global memory (SPIR-V's OpGroupAsyncCopy). The copy is complete when the instruction is, so
  // the event returned is the one given; what makes the elements of every work-item visible to the
  // others is the barrier wait_group_events becomes.
  Status lowerAsyncCopy(Instruction* inst) {
    uint32_t destination = inst->idOperand(1), source = inst->idOperand(2);
    const Instruction* destinationType = module_.def(ir::typeOf(module_, destination));
    const Instruction* sourceType = module_.def(ir::typeOf(module_, source));
    // SPIRV-Tools 2023.1 checks none of these operands.
    auto isPointer = [](const Instruction* type) { return type && type->opcode() == spv::Op::OpTypePointer; };
    if (!isPointer(destinationType) || !isPointer(sourceType))
      return fail(*inst, "the destination and the source of an async copy must be pointers");
    uint32_t sizeType = ir::typeOf(module_, inst->idOperand(3));
    const Instruction* size = module_.def(sizeType);
    if (!size || size->opcode() != spv::Op::OpTypeInt || ir::typeOf(module_, inst->idOperand(4)) != sizeType ||
        ir::typeOf(module_, inst->idOperand(5)) != inst->typeId() || module_.def(inst->typeId())->opcode() != spv::Op::OpTypeEvent)
      return fail(*inst, "an async copy needs integers of one type for the count and the stride, and an event");
    auto storage = [](const Instruction* type) { return static_cast<spv::StorageClass>(type->wordOperand(0)); };
    bool toLocal = storage(destinationType) == spv::StorageClass::Workgroup &&
                   storage(sourceType) == spv::StorageClass::CrossWorkgroup;
    bool toGlobal = storage(destinationType) == spv::StorageClass::CrossWorkgroup &&
                    storage(sourceType) == spv::StorageClass::Workgroup;
    if (!toLocal && !toGlobal)
      return fail(*inst, "an async copy must be between a __global and a __local pointer");
    if (destinationType->idOperand(1) != sourceType->idOperand(1))
      return fail(*inst, "the destination and the source of an async copy must have the same element type");

    Block* rest = emitBlocksAfter(inst);
    // Local memory holds far fewer than 2^32 elements, so the count and the loop are 32-bit.
    bool narrow = ir::scalarWidth(module_, sizeType) == 32;
    auto asSize = [&](uint32_t value32) {
      return narrow ? value32 : at().valueOfIds(spv::Op::OpUConvert, sizeType, {value32});
    };
    uint32_t count = narrow ? inst->idOperand(3) : at().valueOfIds(spv::Op::OpUConvert, uint_, {inst->idOperand(3)});
    uint32_t stride = inst->idOperand(4);
    uint32_t element = destinationType->idOperand(1);
    uint32_t first = builtin(spv::BuiltIn::LocalInvocationIndex);
    uint32_t step = localInvocations();
    at().loop(first, count, [&](uint32_t i) { return at().valueOfIds(spv::Op::OpIAdd, uint_, {i, step}); }, 0, 0,
         [&](uint32_t, uint32_t i) {
           uint32_t local = asSize(i);
           uint32_t global = at().valueOfIds(spv::Op::OpIMul, sizeType, {local, stride});
           uint32_t from = at().valueOfIds(spv::Op::OpInBoundsPtrAccessChain, sourceType->resultId(),
                                           {source, toLocal ? global : local});
           uint32_t to = at().valueOfIds(spv::Op::OpInBoundsPtrAccessChain, destinationType->resultId(),
                                         {destination, toLocal ? local : global});
           at().add(spv::Op::OpStore, 0, {Operand::id(to), Operand::id(at().valueOfIds(spv::Op::OpLoad, element, {from}))});
           return 0u;
         });
    at().branchTo(rest);
    module_.replaceAllUses(inst->resultId(), inst->idOperand(5));
    return module_.remove(inst);
  }

  // wait_group_events: every work-item of the group reaches it (OpenCL requires it), so it is a
  // barrier over local and global memory; the events themselves are already complete.
  Status lowerWaitEvents(Instruction* inst) {
    controlBarrier(Builder::before(module_, inst), kWorkgroup,
                   spv::MemorySemanticsMask::WorkgroupMemory | spv::MemorySemanticsMask::CrossWorkgroupMemory);
    return module_.remove(inst);
  }

  // The builder at the end of the current block, whose control-flow helpers emit the new blocks.
  Builder& at() { return *builder_; }

  // The specialization constant that says whether subgroups hold consecutive linear local ids.
  uint32_t linearSubgroups() {
    for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
      if (inst.opcode() != spv::Op::OpSpecConstantTrue) continue;
      const Instruction* decoration = module_.findDecoration(inst.resultId(), spv::Decoration::SpecId);
      if (decoration && decoration->wordOperand(2) == SpecIds::kLinearSubgroups) return inst.resultId();
    }
    uint32_t id = module_.takeId();
    module_.append(ir::Section::kGlobal, Instruction(spv::Op::OpSpecConstantTrue, ir::typeBool(module_), id));
    module_.append(ir::Section::kAnnotation,
                   Instruction(spv::Op::OpDecorate, 0, 0,
                               {Operand::id(id), Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(spv::Decoration::SpecId)),
                                Operand::literal(SpecIds::kLinearSubgroups)}));
    return id;
  }

  uint32_t builtin(spv::BuiltIn which) {
    return at().valueOfIds(spv::Op::OpLoad, uint_, {vulkanBuiltinVariable(module_, which, false)});
  }

  // The number of subgroups, from the work-group size rather than the NumSubgroups builtin, which
  // Mesa 22's lavapipe rounds down when the last subgroup is partial.
  uint32_t localInvocations() {
    uint32_t sizes = workgroupSizeConstant(module_);
    uint32_t invocations = 0;
    for (uint32_t d = 0; d < 3; ++d) {
      uint32_t size = at().value(spv::Op::OpCompositeExtract, uint_, {Operand::id(sizes), Operand::literal(d)});
      invocations = invocations ? at().valueOfIds(spv::Op::OpIMul, uint_, {invocations, size}) : size;
    }
    return invocations;
  }

  uint32_t subgroupCount() {
    uint32_t invocations = localInvocations();
    uint32_t lanes = builtin(spv::BuiltIn::SubgroupSize);
    uint32_t rounded = at().valueOfIds(spv::Op::OpIAdd, uint_, {invocations, at().valueOfIds(spv::Op::OpISub, uint_, {lanes, constant32(1)})});
    return at().valueOfIds(spv::Op::OpUDiv, uint_, {rounded, lanes});
  }

  // A barrier of the work-group, or of the subgroup (whose invocations share its slice of memory).
  void barrier(uint32_t scope = kWorkgroup) { controlBarrier(at(), scope, spv::MemorySemanticsMask::WorkgroupMemory); }

  // An acquire-release barrier of `scope` over `memory`, where `b` is.
  void controlBarrier(Builder b, uint32_t scope, spv::MemorySemanticsMask memory) {
    uint32_t semantics = static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease | memory);
    b.add(spv::Op::OpControlBarrier, 0,
          {Operand::id(constant32(scope)), Operand::id(constant32(scope)), Operand::id(constant32(semantics))});
    if (scope == kWorkgroup) ++stats_.barriers;
  }

  // --- Values in the scratch array of 32-bit words ----------------------------------------------

  // Words per scratch element: 2 when any type is 64-bit (the widest type used).
  static constexpr uint32_t kWordsPerElement = 2;

  // The number of subgroups a work-group can have at most on the target.
  uint32_t maxSubgroups() const {
    uint32_t smallest = std::max<uint32_t>(target_.minSubgroupSize, 1);
    return (target_.maxWorkGroupInvocations + smallest - 1) / smallest;
  }

  // The subgroup partials: one element per subgroup (folds read up to one subgroup past the last),
  // twice. Consecutive collectives use alternate halves, chosen by a parity that every invocation
  // flips at every collective of the subgroup path (the whole work-group reaches the same
  // collectives in the same order, so the parity is uniform). A collective can then end right
  // after reading its partials, with no barrier to protect them: the next collective writes the
  // other half, and the one after it writes this half again only after everyone has passed the
  // next one's barrier, which each invocation reaches after its reads here.
  // Both scratch arrays are sized for the dispatch's work-group through the work-group size
  // specialization constants, so that a small work-group does not hold (and lose occupancy to)
  // scratch for the largest one.
  uint32_t scratchHalf() const { return maxSubgroups() + std::max<uint32_t>(target_.maxSubgroupSize, 1) + 1; }
  uint32_t scratch() {
    if (!scratch_) {
      uint32_t smallest = std::max<uint32_t>(target_.minSubgroupSize, 1);
      uint32_t subgroups = specOp(spv::Op::OpUDiv, specOp(spv::Op::OpIAdd, invocationsConstant(), constant32(smallest - 1)),
                                  constant32(smallest));
      // ... plus one subgroup's worth for the folds, plus the total slot (workgroupReduce).
      scratchHalfConstant_ =
          specOp(spv::Op::OpIAdd, subgroups, constant32(std::max<uint32_t>(target_.maxSubgroupSize, 1) + 1));
      totalSlotConstant_ = specOp(spv::Op::OpISub, scratchHalfConstant_, constant32(1));
      scratch_ = workgroupArray(specOp(spv::Op::OpIMul, scratchHalfConstant_, constant32(2)), 2 * scratchHalf());
    }
    return scratch_;
  }

  // The work-group's invocations, x * y * z of the work-group size specialization constants.
  uint32_t invocationsConstant() {
    if (!invocationsConstant_) {
      uint32_t x = specConstant(module_, SpecIds::kWorkGroupSize), y = specConstant(module_, SpecIds::kWorkGroupSize + 1);
      uint32_t z = specConstant(module_, SpecIds::kWorkGroupSize + 2);
      invocationsConstant_ = specOp(spv::Op::OpIMul, specOp(spv::Op::OpIMul, x, y), z);
    }
    return invocationsConstant_;
  }

  uint32_t specOp(spv::Op op, uint32_t a, uint32_t b) {
    uint32_t id = module_.takeId();
    module_.append(ir::Section::kGlobal, Instruction(spv::Op::OpSpecConstantOp, uint_, id,
                                                     {Operand::literal(static_cast<uint32_t>(op)), Operand::id(a), Operand::id(b)}));
    return id;
  }

  // Flips the parity; returns the first element of the half this collective uses.
  uint32_t beginPartials() {
    scratch();  // sizes the halves
    if (!parity_) {
      parity_ = module_.takeId();
      module_.append(ir::Section::kGlobal,
                     Instruction(spv::Op::OpVariable, ir::typePointer(module_, spv::StorageClass::Private, uint_), parity_,
                                 {Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(spv::StorageClass::Private)),
                                  Operand::id(constant32(0))}));
    }
    uint32_t current = at().valueOfIds(spv::Op::OpLoad, uint_, {parity_});
    at().add(spv::Op::OpStore, 0, {Operand::id(parity_), Operand::id(at().valueOfIds(spv::Op::OpBitwiseXor, uint_, {current, constant32(1)}))});
    return at().valueOfIds(spv::Op::OpIMul, uint_, {current, scratchHalfConstant_});
  }
  uint32_t offset(uint32_t base, uint32_t element) { return at().valueOfIds(spv::Op::OpIAdd, uint_, {base, element}); }

  // The shared-memory-only path's values: one element per invocation, and a subgroup's worth more
  // (a subgroup slice starts at SubgroupId * SubgroupSize).
  uint32_t invocationScratch() {
    if (!invocationScratch_) {
      uint32_t padding = std::max<uint32_t>(target_.maxSubgroupSize, 1);
      invocationScratch_ = workgroupArray(specOp(spv::Op::OpIAdd, invocationsConstant(), constant32(padding)),
                                          std::max<uint32_t>(target_.maxWorkGroupInvocations, 1) + padding);
    }
    return invocationScratch_;
  }

  // A Workgroup array of `elementsConstant` elements (a specialization-constant expression), at
  // most `maxElements` (what --stats counts).
  uint32_t workgroupArray(uint32_t elementsConstant, uint32_t maxElements) {
    uint32_t length = specOp(spv::Op::OpIMul, elementsConstant, constant32(kWordsPerElement));
    uint32_t array = module_.takeId();
    module_.append(ir::Section::kGlobal, Instruction(spv::Op::OpTypeArray, 0, array, {Operand::id(uint_), Operand::id(length)}));
    uint32_t variable = module_.takeId();
    module_.append(ir::Section::kGlobal,
                   Instruction(spv::Op::OpVariable, ir::typePointer(module_, spv::StorageClass::Workgroup, array), variable,
                               {Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(spv::StorageClass::Workgroup))}));
    stats_.scratchBytes += maxElements * kWordsPerElement * 4;
    return variable;
  }

  uint32_t word(uint32_t array, uint32_t index) {
    uint32_t pointer = ir::typePointer(module_, spv::StorageClass::Workgroup, uint_);
    return at().valueOfIds(spv::Op::OpAccessChain, pointer, {array, index});
  }

  // `value` of `type` as its words (1 or 2).
  std::vector<uint32_t> toWords(uint32_t type, uint32_t value) {
    const Instruction* def = module_.def(type);
    if (def->opcode() == spv::Op::OpTypeBool)
      return {at().valueOfIds(spv::Op::OpSelect, uint_, {value, constant32(1), constant32(0)})};
    uint32_t width = def->wordOperand(0);
    if (width == 64) {
      uint32_t pair = at().valueOfIds(spv::Op::OpBitcast, ir::typeVector(module_, uint_, 2), {value});
      return {at().value(spv::Op::OpCompositeExtract, uint_, {Operand::id(pair), Operand::literal(0)}),
              at().value(spv::Op::OpCompositeExtract, uint_, {Operand::id(pair), Operand::literal(1)})};
    }
    if (width == 16) {
      uint32_t bits = def->opcode() == spv::Op::OpTypeFloat
                          ? at().valueOfIds(spv::Op::OpBitcast, ir::typeInt(module_, 16), {value})
                          : value;
      return {at().valueOfIds(spv::Op::OpUConvert, uint_, {bits})};
    }
    return {type == uint_ ? value : at().valueOfIds(spv::Op::OpBitcast, uint_, {value})};
  }

  uint32_t fromWords(uint32_t type, const std::vector<uint32_t>& words) {
    const Instruction* def = module_.def(type);
    if (def->opcode() == spv::Op::OpTypeBool)
      return at().valueOfIds(spv::Op::OpINotEqual, type, {words[0], constant32(0)});
    uint32_t width = def->wordOperand(0);
    if (width == 64) {
      uint32_t pair = at().valueOfIds(spv::Op::OpCompositeConstruct, ir::typeVector(module_, uint_, 2), {words[0], words[1]});
      return at().valueOfIds(spv::Op::OpBitcast, type, {pair});
    }
    if (width == 16) {
      uint32_t bits = at().valueOfIds(spv::Op::OpUConvert, ir::typeInt(module_, 16), {words[0]});
      return def->opcode() == spv::Op::OpTypeFloat ? at().valueOfIds(spv::Op::OpBitcast, type, {bits}) : bits;
    }
    return type == uint_ ? words[0] : at().valueOfIds(spv::Op::OpBitcast, type, {words[0]});
  }

  uint32_t words(uint32_t type) const { return ir::scalarWidth(module_, type) == 64 ? 2 : 1; }

  void store(uint32_t array, uint32_t type, uint32_t element, uint32_t value) {
    std::vector<uint32_t> parts = toWords(type, value);
    uint32_t base = at().valueOfIds(spv::Op::OpIMul, uint_, {element, constant32(kWordsPerElement)});
    for (uint32_t k = 0; k < parts.size(); ++k) {
      uint32_t index = k ? at().valueOfIds(spv::Op::OpIAdd, uint_, {base, constant32(k)}) : base;
      at().add(spv::Op::OpStore, 0, {Operand::id(word(array, index)), Operand::id(parts[k])});
    }
  }

  uint32_t load(uint32_t array, uint32_t type, uint32_t element) {
    uint32_t base = at().valueOfIds(spv::Op::OpIMul, uint_, {element, constant32(kWordsPerElement)});
    std::vector<uint32_t> parts;
    for (uint32_t k = 0; k < words(type); ++k) {
      uint32_t index = k ? at().valueOfIds(spv::Op::OpIAdd, uint_, {base, constant32(k)}) : base;
      parts.push_back(at().valueOfIds(spv::Op::OpLoad, uint_, {word(array, index)}));
    }
    return fromWords(type, parts);
  }

  // --- The operations -------------------------------------------------------------------------

  uint32_t identity(Combine c, uint32_t type) {
    const Instruction* def = module_.def(type);
    if (def->opcode() == spv::Op::OpTypeBool) return ir::constantBool(module_, c == Combine::kLogicalAnd);
    uint32_t width = def->wordOperand(0);
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

  uint32_t combine(Combine c, uint32_t type, uint32_t a, uint32_t x) {
    Builder b = at();
    return combine(b, c, type, a, x);
  }

  uint32_t combine(Builder& b, Combine c, uint32_t type, uint32_t a, uint32_t x) {
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

  // The subgroup-wide operation `kind` of `x`.
  uint32_t subgroupOp(const Collective& c, uint32_t type, uint32_t x, spv::GroupOperation kind) {
    Builder b = at();
    return subgroupOp(b, c, type, x, kind);
  }

  uint32_t subgroupOp(Builder& b, const Collective& c, uint32_t type, uint32_t x, spv::GroupOperation kind) {
    if (c.vote && kind == spv::GroupOperation::Reduce) return b.valueOfIds(c.nonUniform, type, {constant32(kSubgroup), x});
    if (kind != spv::GroupOperation::Reduce && target_.shuffleScans)
      return shuffleScan(b, c, type, x, kind == spv::GroupOperation::InclusiveScan);
    spv::Op op = c.nonUniform;
    if (c.vote) op = c.combine == Combine::kLogicalAnd ? spv::Op::OpGroupNonUniformLogicalAnd : spv::Op::OpGroupNonUniformLogicalOr;
    return b.value(op, type,
                   {Operand::id(constant32(kSubgroup)),
                    Operand::enumerant(SPV_OPERAND_TYPE_GROUP_OPERATION, static_cast<uint32_t>(kind)), Operand::id(x)});
  }

  // A subgroup scan in shuffle-up steps (Target::shuffleScans): at step d = 1, 2, 4, ... each lane
  // at or past d combines the running value of the lane d before it with its own. The steps are
  // unrolled up to the target's largest subgroup size; one at or past the device's size changes
  // no lane. An exclusive scan is the inclusive value of the lane before (the identity in lane 0).
  // A lane reads only lanes below it, which a partial subgroup has.
  uint32_t shuffleScan(Builder& b, const Collective& c, uint32_t type, uint32_t x, bool inclusive) {
    uint32_t boolType = ir::typeBool(module_);
    uint32_t laneVariable = vulkanBuiltinVariable(module_, spv::BuiltIn::SubgroupLocalInvocationId, false);
    uint32_t lane = b.valueOfIds(spv::Op::OpLoad, uint_, {laneVariable});
    // 64-bit values move as two 32-bit words (lavapipe's LLVM 15 crashes compiling 64-bit
    // shuffles that feed a comparison; GPUs shuffle 32-bit registers anyway).
    bool wide = ir::scalarWidth(module_, type) == 64;
    uint32_t pair = wide ? ir::typeVector(module_, uint_, 2) : 0;
    auto shuffleUp = [&](uint32_t value, uint32_t delta) {
      if (!wide) return b.valueOfIds(spv::Op::OpGroupNonUniformShuffleUp, type, {constant32(kSubgroup), value, constant32(delta)});
      uint32_t words = b.valueOfIds(spv::Op::OpBitcast, pair, {value});
      uint32_t moved = b.valueOfIds(spv::Op::OpGroupNonUniformShuffleUp, pair, {constant32(kSubgroup), words, constant32(delta)});
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

  // One lane of each subgroup writes `partial` at the subgroup's index of the half at `base`.
  void publishPartial(uint32_t base, uint32_t type, uint32_t partial, uint32_t subgroup) {
    uint32_t elected = at().valueOfIds(spv::Op::OpGroupNonUniformElect, ir::typeBool(module_), {constant32(kSubgroup)});
    at().ifThen(elected, [&] { store(scratch(), type, offset(base, subgroup), partial); });
  }

  // The combination of the partials of subgroups 0 .. limit-1, in every invocation: each of the
  // subgroup's k lanes folds partials lane, lane + k, ..., then a subgroup reduce joins the lanes.
  // k is the subgroup's own lane count, since the last subgroup may be partial. The fold loop
  // runs the same number of times in every lane of a subgroup, so that the lanes are converged
  // again at the subgroup reduce: Vulkan does not promise reconvergence after a divergent loop.
  uint32_t combinePartials(uint32_t half, const Collective& c, uint32_t type, uint32_t limit) {
    uint32_t lane = builtin(spv::BuiltIn::SubgroupLocalInvocationId);
    uint32_t lanes = activeLanes();
    uint32_t folded = at().foldLoop(constant32(0), limit, lanes, type, identity(c.combine, type), [&](uint32_t acc, uint32_t first) {
      uint32_t index = at().valueOfIds(spv::Op::OpIAdd, uint_, {first, lane});
      uint32_t partial = load(scratch(), type, offset(half, index));
      uint32_t present = at().valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {index, limit});
      return at().valueOfIds(spv::Op::OpSelect, type, {present, combine(c.combine, type, acc, partial), acc});
    });
    return subgroupOp(c, type, folded, spv::GroupOperation::Reduce);
  }

  // How many lanes this subgroup has: SubgroupSize, or fewer in a partial last subgroup.
  uint32_t activeLanes() {
    uint32_t lanes = builtin(spv::BuiltIn::SubgroupSize);
    uint32_t first = at().valueOfIds(spv::Op::OpIMul, uint_, {builtin(spv::BuiltIn::SubgroupId), lanes});
    uint32_t left = at().valueOfIds(spv::Op::OpISub, uint_, {localInvocations(), first});
    uint32_t fewer = at().valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {left, lanes});
    return at().valueOfIds(spv::Op::OpSelect, uint_, {fewer, left, lanes});
  }

  // One barrier each: the partials are double-buffered (scratch()).
  uint32_t workgroupReduce(const Collective& c, uint32_t type, uint32_t x) {
    uint32_t base = beginPartials();
    uint32_t subgroup = builtin(spv::BuiltIn::SubgroupId);
    uint32_t count = subgroupCount();
    publishPartial(base, type, subgroupOp(c, type, x, spv::GroupOperation::Reduce), subgroup);
    barrier();
    // Where a work-group can have more subgroups than a subgroup has lanes (lavapipe: 128 of 8
    // lanes), every subgroup folding every partial costs more than a second barrier: then the first
    // subgroup folds them and shares the total through the half's last slot.
    if (maxSubgroups() <= std::max<uint32_t>(target_.minSubgroupSize, 1)) return combinePartials(base, c, type, count);
    uint32_t many = at().valueOfIds(spv::Op::OpUGreaterThan, ir::typeBool(module_), {count, builtin(spv::BuiltIn::SubgroupSize)});
    return at().ifElseValue(
        many, type,
        [&] {
          uint32_t first = at().valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_), {subgroup, constant32(0)});
          at().ifThen(first, [&] {
            uint32_t total = combinePartials(base, c, type, count);
            uint32_t elected = at().valueOfIds(spv::Op::OpGroupNonUniformElect, ir::typeBool(module_), {constant32(kSubgroup)});
            at().ifThen(elected, [&] { store(scratch(), type, offset(base, totalSlotConstant_), total); });
          });
          barrier();
          return load(scratch(), type, offset(base, totalSlotConstant_));
        },
        [&] { return combinePartials(base, c, type, count); });
  }

  uint32_t workgroupScan(const Collective& c, uint32_t type, uint32_t x, bool inclusive) {
    uint32_t base = beginPartials();
    uint32_t subgroup = builtin(spv::BuiltIn::SubgroupId);
    uint32_t scanned = subgroupOp(c, type, x, inclusive ? spv::GroupOperation::InclusiveScan : spv::GroupOperation::ExclusiveScan);
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

  uint32_t workgroupBroadcast(uint32_t array, uint32_t type, uint32_t value, uint32_t localId) {
    uint32_t ulong = ir::typeInt(module_, 64);
    auto wide = [&](uint32_t v) {
      return ir::scalarWidth(module_, module_.def(v)->typeId()) == 64 ? v : at().valueOfIds(spv::Op::OpUConvert, ulong, {v});
    };
    // The owner's linear local id: x + y * lx + z * lx * ly.
    const Instruction* idType = module_.def(module_.def(localId)->typeId());
    uint32_t dims = idType->opcode() == spv::Op::OpTypeVector ? idType->wordOperand(1) : 1;
    uint32_t sizes = workgroupSizeConstant(module_);
    uint32_t linear = 0, stride = 0;
    for (uint32_t d = 0; d < dims; ++d) {
      uint32_t id = dims == 1 ? localId
                              : at().value(spv::Op::OpCompositeExtract, idType->idOperand(0), {Operand::id(localId), Operand::literal(d)});
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

  // --- The shared-memory-only path: values by invocation in Workgroup memory -----------------------

  // The invocations of one collective and their elements of the invocation scratch: the whole
  // work-group by linear local id, or one subgroup by lane from SubgroupId * SubgroupSize.
  struct Slice {
    uint32_t scope;     // of the barriers between the steps
    uint32_t first;     // the element of position 0
    uint32_t position;  // this invocation's
    uint32_t size;      // the invocations: the same in all of them, so that all reach every barrier
  };

  Slice workgroupSlice() {
    return Slice{kWorkgroup, constant32(0), builtin(spv::BuiltIn::LocalInvocationIndex), localInvocations()};
  }

  Slice subgroupSlice() {
    uint32_t first = at().valueOfIds(spv::Op::OpIMul, uint_, {builtin(spv::BuiltIn::SubgroupId), builtin(spv::BuiltIn::SubgroupSize)});
    return Slice{kSubgroup, first, builtin(spv::BuiltIn::SubgroupLocalInvocationId), activeLanes()};
  }

  uint32_t element(const Slice& slice, uint32_t position) {
    return at().valueOfIds(spv::Op::OpIAdd, uint_, {slice.first, position});
  }

  // A tree: at step `stride`, the positions that are multiples of 2 * stride absorb the value
  // stride further on, the lower position first; position 0 ends with the total.
  uint32_t treeReduce(const Slice& slice, const Collective& c, uint32_t type, uint32_t x) {
    uint32_t values = invocationScratch();
    uint32_t mine = element(slice, slice.position);
    store(values, type, mine, x);
    barrier(slice.scope);
    at().forEachStride(slice.size, [&](uint32_t stride) {
      uint32_t span = at().twice(stride);
      uint32_t aligned = at().valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_),
                                         {at().valueOfIds(spv::Op::OpUMod, uint_, {slice.position, span}), constant32(0)});
      uint32_t partner = at().valueOfIds(spv::Op::OpIAdd, uint_, {slice.position, stride});
      uint32_t inside = at().valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {partner, slice.size});
      at().ifThen(at().valueOfIds(spv::Op::OpLogicalAnd, ir::typeBool(module_), {aligned, inside}), [&] {
        uint32_t joined = combine(c.combine, type, load(values, type, mine), load(values, type, element(slice, partner)));
        store(values, type, mine, joined);
      });
      barrier(slice.scope);
    });
    uint32_t total = load(values, type, slice.first);
    barrier(slice.scope);
    return total;
  }

  // Hillis-Steele: at step `stride`, each position adds the running value stride before it.
  // Exclusive scans then take the inclusive value one position before (the identity at 0).
  uint32_t hillisSteeleScan(const Slice& slice, const Collective& c, uint32_t type, uint32_t x, bool inclusive) {
    uint32_t values = invocationScratch();
    uint32_t mine = element(slice, slice.position);
    store(values, type, mine, x);
    barrier(slice.scope);
    // Whether there is a position `distance` before this one, and its value (this one's if none).
    auto before = [&](uint32_t distance) {
      uint32_t has = at().valueOfIds(spv::Op::OpUGreaterThanEqual, ir::typeBool(module_), {slice.position, distance});
      uint32_t from = at().valueOfIds(spv::Op::OpSelect, uint_, {has, at().valueOfIds(spv::Op::OpISub, uint_, {mine, distance}), mine});
      return std::pair{has, load(values, type, from)};
    };
    // for (stride = 1; stride < size; stride *= 2), carrying this position's running value.
    uint32_t scanned = at().loop(constant32(1), slice.size, [&](uint32_t i) { return at().twice(i); }, type, x,
                            [&](uint32_t running, uint32_t stride) {
                              auto [has, earlier] = before(stride);
                              uint32_t joined = combine(c.combine, type, earlier, running);
                              uint32_t next = at().valueOfIds(spv::Op::OpSelect, type, {has, joined, running});
                              barrier(slice.scope);
                              store(values, type, mine, next);
                              barrier(slice.scope);
                              return next;
                            });
    if (inclusive) return scanned;
    auto [has, previous] = before(constant32(1));
    uint32_t exclusive = at().valueOfIds(spv::Op::OpSelect, type, {has, previous, identity(c.combine, type)});
    barrier(slice.scope);
    return exclusive;
  }

  // The value of lane `lane` of the subgroup, through its slice.
  uint32_t sliceBroadcast(const Slice& slice, uint32_t type, uint32_t value, uint32_t lane) {
    if (ir::scalarWidth(module_, module_.def(lane)->typeId()) != 32) lane = at().valueOfIds(spv::Op::OpUConvert, uint_, {lane});
    uint32_t values = invocationScratch();
    store(values, type, element(slice, slice.position), value);
    barrier(slice.scope);
    // A lane past the last one is undefined in OpenCL; it reads lane 0 rather than past the array.
    uint32_t present = at().valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {lane, slice.size});
    lane = at().valueOfIds(spv::Op::OpSelect, uint_, {present, lane, constant32(0)});
    uint32_t result = load(values, type, element(slice, lane));
    barrier(slice.scope);
    return result;
  }

  Module& module_;
  const Target& target_;
  Function& kernel_;
  uint32_t uint_;
  uint32_t scratch_ = 0;
  uint32_t invocationScratch_ = 0;
  uint32_t parity_ = 0;  // the Private variable of beginPartials()
  uint32_t invocationsConstant_ = 0;
  uint32_t scratchHalfConstant_ = 0;
  uint32_t totalSlotConstant_ = 0;  // the last element of each half
  CollectiveStats stats_;
  std::optional<Builder> builder_;  // at the end of the current block, from emitBlocksAfter()
};

}  // namespace

// Events only order async copies, which are complete when they return: an event becomes a 32-bit
// integer (Vulkan has no event type), null where OpenCL's is.
void eventsBecomeIntegers(Module& module) {
  std::vector<Instruction*> events;
  for (Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpTypeEvent) events.push_back(&inst);
  }
  for (Instruction* event : events) {
    module.replaceAllUses(event->resultId(), ir::typeInt(module, 32));
    (void)module.remove(event);  // no longer used
  }
}

Expected<PassResult> lowerCollectives(Module& module, PassContext& context) {
  bool changed = false;
  for (Function& function : module.functions()) {
    std::vector<Instruction*> collectives;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (ir::isGroupCollective(inst.opcode()) || isAsyncCopyOrWait(inst.opcode())) collectives.push_back(&inst);
      }
    }
    if (collectives.empty()) continue;
    CollectiveLowering lowering(module, context.target, function);
    for (Instruction* inst : collectives) CL2VK_TRY(lowering.lower(inst));
    // Recorded where lower-kernel-interface has made the kernel's reflection (not when run alone).
    if (KernelReflection* kernel = context.reflection.kernel(module.functionName(function))) kernel->collectives = lowering.stats();
    changed = true;
  }
  eventsBecomeIntegers(module);
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
