// The private state of lower-collectives, shared by its files: the collectives and how their
// values combine, and CollectiveLowering, which emits one kernel's collectives. Its methods live
// by lowering: lower_collectives.cc (dispatch and operand checks), subgroup_collectives.cc
// (sub-group scope as one instruction, and the subgroup operations the others build on),
// nonuniform_collectives.cc (the cl_khr_subgroup_* functions' OpGroupNonUniform* instructions),
// workgroup_collectives.cc (work-group scope through subgroups), memory_collectives.cc (the
// Workgroup-memory-only path), collective_scratch.cc (the scratch arrays in Workgroup memory) and
// async_copies.cc (async_work_group_copy and wait_group_events).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/builder.h"
#include "ir/module.h"
#include "ir/types.h"
#include "passes/pass.h"

namespace cl2vk::collectives {

using ir::Block;
using ir::Builder;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;

constexpr uint32_t kWorkgroup = static_cast<uint32_t>(spv::Scope::Workgroup);
constexpr uint32_t kSubgroup = static_cast<uint32_t>(spv::Scope::Subgroup);

// How two values combine, for the scalar folds of partial results.
enum class Combine {
  kIAdd,
  kFAdd,
  kSMin,
  kUMin,
  kFMin,
  kSMax,
  kUMax,
  kFMax,
  kIMul,
  kFMul,
  kAnd,
  kOr,
  kXor,
  kLogicalAnd,
  kLogicalOr,
  kLogicalXor
};

struct Collective {
  Combine combine;
  spv::Op nonUniform;  // the OpGroupNonUniform* instruction of the same operation
  bool vote = false;   // OpGroupAll / OpGroupAny: no group operation operand
};

// Whether `op` is an OpGroupNonUniform* instruction of the cl_khr_subgroup_* functions.
bool isNonUniformGroupOp(spv::Op op);

// The collective an OpGroup* instruction computes; none for other opcodes.
std::optional<Collective> collectiveOf(spv::Op op);

// Logical collectives (booleans) as the bitwise operation with the same truth table over 0/1
// words, the form hand-written shaders use (subgroupXor(x ? 1u : 0u)); votes stay votes.
std::optional<Collective> asBitwise(const Collective& c);

// Emits the code of one kernel's collectives. Work-group collectives need new blocks (a store by
// one lane, a loop): the code is appended by a builder at the end of the current block (at()),
// new blocks follow it, and the structurizer gives them their merges later.
class CollectiveLowering {
 public:
  CollectiveLowering(Module& module, const Target& target, Function& kernel)
      : module_(module), target_(target), kernel_(kernel), uint_(ir::typeInt(module, 32)) {}

  Status lower(Instruction* inst);

  // An OpGroupNonUniform* instruction of the input (isNonUniformGroupOp): checked against the
  // target's subgroup operations; clustered reductions without Vulkan's clustered operations
  // become shuffle steps, rotations shuffles, 8/16/64-bit values move as 32-bit words, and a
  // ballot's count and highest bit see only the sub-group's own lanes.
  Status lowerNonUniform(Instruction* inst);

  const CollectiveStats& stats() const { return stats_; }

 private:
  // --- Checks (lower_collectives.cc) --------------------------------------------------------------

  // SPIRV-Tools does not check these operands of the OpGroup* instructions, and a value of
  // another type than the result would be lowered into invalid code.
  Status checkOperandTypes(const Instruction& inst) const;

  // Subgroup operations on 8/16-bit types and 64-bit integers need shaderSubgroupExtendedTypes
  // (double needs only shaderFloat64); without it, or without subgroup arithmetic at all, the
  // collective runs in Workgroup memory.
  bool hasSubgroupArithmeticFor(uint32_t type) const;

  uint32_t constant32(uint64_t value) { return ir::constantUint(module_, 32, value); }

  // --- Subgroup scope: one instruction (subgroup_collectives.cc) ----------------------------------

  Status lowerSubgroup(Instruction* inst);

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
      return resultType ? b.valueOfIds(spv::Op::OpINotEqual, resultType, {value, ir::constantUint(b.module(), 32, 0)})
                        : value;
    }
  };

  Expected<Operation> operationOf(Builder& b, const Instruction& inst);

  uint32_t subgroupBroadcast(Builder& b, uint32_t type, uint32_t value, uint32_t lane);

  // --- The operations (subgroup_collectives.cc) ---------------------------------------------------

  uint32_t identity(Combine c, uint32_t type);

  uint32_t combine(Combine c, uint32_t type, uint32_t a, uint32_t x);

  uint32_t combine(Builder& b, Combine c, uint32_t type, uint32_t a, uint32_t x);

  // The subgroup-wide operation `kind` of `x`.
  uint32_t subgroupOp(const Collective& c, uint32_t type, uint32_t x, spv::GroupOperation kind);

  uint32_t subgroupOp(Builder& b, const Collective& c, uint32_t type, uint32_t x, spv::GroupOperation kind);

  // A subgroup scan in shuffle-up steps (Target::shuffleScans): at step d = 1, 2, 4, ... each lane
  // at or past d combines the running value of the lane d before it with its own. The steps are
  // unrolled up to the target's largest subgroup size; one at or past the device's size changes
  // no lane. An exclusive scan is the inclusive value of the lane before (the identity in lane 0).
  // A lane reads only lanes below it, which a partial subgroup has.
  uint32_t shuffleScan(Builder& b, const Collective& c, uint32_t type, uint32_t x, bool inclusive);

  // --- The cl_khr_subgroup_* instructions (nonuniform_collectives.cc) ----------------------------

  // `op` (a shuffle, broadcast ...) of `value` with the operands `rest` after it; bool, 8, 16 and
  // 64-bit values as 32-bit words.
  uint32_t moveValue(Builder& b, spv::Op op, uint32_t type, uint32_t value, const std::vector<uint32_t>& rest);

  uint32_t laneId(Builder& b);

  // log2(cluster) shuffle steps joining blocks of 1, 2, 4 ... lanes; inactive lanes (a ballot
  // says which) add nothing.
  uint32_t clusteredReduce(Builder& b, Combine c, uint32_t type, uint32_t x, uint32_t cluster);

  // sub_group_rotate: the value of lane (lane + delta) mod get_max_sub_group_size(), or within the
  // aligned cluster when `cluster` is non-zero.
  uint32_t rotate(Builder& b, uint32_t type, uint32_t value, uint32_t delta, uint32_t cluster);

  uint32_t minimum(Builder& b, uint32_t a, uint32_t c);

  // get_max_sub_group_size() as the work-item builtins compute it.
  uint32_t openclMaxSubgroupSize(Builder& b);

  // A uint4 mask of the lanes below get_max_sub_group_size(): the bits a ballot's count and
  // highest bit consider.
  uint32_t maxSubgroupMask(Builder& b);

  // --- Work-group scope, and sub-group scope in memory (workgroup_collectives.cc) -----------------

  // Everything after `inst` continues in a block of its own, returned; the code emitted for `inst`
  // goes between, from the end of its block.
  Block* emitBlocksAfter(Instruction* inst);

  Status lowerWithBlocks(Instruction* inst, uint32_t scope, bool inMemory);

  // The builder at the end of the current block, whose control-flow helpers emit the new blocks.
  Builder& at() { return *builder_; }

  // The specialization constant that says whether subgroups hold consecutive linear local ids.
  uint32_t linearSubgroups();

  uint32_t builtin(spv::BuiltIn which);

  // The number of subgroups, from the work-group size rather than the NumSubgroups builtin, which
  // Mesa 22's lavapipe rounds down when the last subgroup is partial.
  uint32_t localInvocations();

  uint32_t subgroupCount();

  // A barrier of the work-group, or of the subgroup (whose invocations share its slice of memory).
  void barrier(uint32_t scope = kWorkgroup) { controlBarrier(at(), scope, spv::MemorySemanticsMask::WorkgroupMemory); }

  // An acquire-release barrier of `scope` over `memory`, where `b` is.
  void controlBarrier(Builder b, uint32_t scope, spv::MemorySemanticsMask memory);

  // One lane of each subgroup writes `partial` at the subgroup's index of the half at `base`.
  void publishPartial(uint32_t base, uint32_t type, uint32_t partial, uint32_t subgroup);

  // The combination of the partials of subgroups 0 .. limit-1, in every invocation: each of the
  // subgroup's k lanes folds partials lane, lane + k, ..., then a subgroup reduce joins the lanes.
  // k is the subgroup's own lane count, since the last subgroup may be partial. The fold loop
  // runs the same number of times in every lane of a subgroup, so that the lanes are converged
  // again at the subgroup reduce: Vulkan does not promise reconvergence after a divergent loop.
  uint32_t combinePartials(uint32_t half, const Collective& c, uint32_t type, uint32_t limit);

  // How many lanes this subgroup has: SubgroupSize, or fewer in a partial last subgroup.
  uint32_t activeLanes();

  // One barrier each: the partials are double-buffered (scratch()).
  uint32_t workgroupReduce(const Collective& c, uint32_t type, uint32_t x);

  uint32_t workgroupScan(const Collective& c, uint32_t type, uint32_t x, bool inclusive);

  uint32_t workgroupBroadcast(uint32_t array, uint32_t type, uint32_t value, uint32_t localId);

  // --- The shared-memory-only path: values by invocation in Workgroup memory (memory_collectives.cc)

  // The invocations of one collective and their elements of the invocation scratch: the whole
  // work-group by linear local id, or one subgroup by lane from SubgroupId * SubgroupSize.
  struct Slice {
    uint32_t scope;     // of the barriers between the steps
    uint32_t first;     // the element of position 0
    uint32_t position;  // this invocation's
    uint32_t size;      // the invocations: the same in all of them, so that all reach every barrier
  };

  Slice workgroupSlice();

  Slice subgroupSlice();

  uint32_t element(const Slice& slice, uint32_t position);

  // A tree: at step `stride`, the positions that are multiples of 2 * stride absorb the value
  // stride further on, the lower position first; position 0 ends with the total.
  uint32_t treeReduce(const Slice& slice, const Collective& c, uint32_t type, uint32_t x);

  // Hillis-Steele: at step `stride`, each position adds the running value stride before it.
  // Exclusive scans then take the inclusive value one position before (the identity at 0).
  uint32_t hillisSteeleScan(const Slice& slice, const Collective& c, uint32_t type, uint32_t x, bool inclusive);

  // The value of lane `lane` of the subgroup, through its slice.
  uint32_t sliceBroadcast(const Slice& slice, uint32_t type, uint32_t value, uint32_t lane);

  // --- Async copies (async_copies.cc) -------------------------------------------------------------

  // async_work_group_copy and async_work_group_strided_copy: the work-group copies at once and
  // together, work-item k the elements k, k + the work-group size, ...; Stride applies to the side
  // in global memory (SPIR-V's OpGroupAsyncCopy). The copy is complete when the instruction is, so
  // the event returned is the one given; what makes the elements of every work-item visible to the
  // others is the barrier wait_group_events becomes.
  Status lowerAsyncCopy(Instruction* inst);

  // wait_group_events: every work-item of the group reaches it (OpenCL requires it), so it is a
  // barrier over local and global memory; the events themselves are already complete.
  Status lowerWaitEvents(Instruction* inst);

  // --- Values in the scratch array of 32-bit words (collective_scratch.cc) ------------------------

  // Words per scratch element: 2 when any type is 64-bit (the widest type used).
  static constexpr uint32_t kWordsPerElement = 2;

  // The number of subgroups a work-group can have at most on the target.
  uint32_t maxSubgroups() const;

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
  uint32_t scratch();

  // The work-group's invocations, x * y * z of the work-group size specialization constants.
  uint32_t invocationsConstant();

  uint32_t specOp(spv::Op op, uint32_t a, uint32_t b);

  // Flips the parity; returns the first element of the half this collective uses.
  uint32_t beginPartials();
  uint32_t offset(uint32_t base, uint32_t element) { return at().valueOfIds(spv::Op::OpIAdd, uint_, {base, element}); }

  // The shared-memory-only path's values: one element per invocation, and a subgroup's worth more
  // (a subgroup slice starts at SubgroupId * SubgroupSize).
  uint32_t invocationScratch();

  // A Workgroup array of `elementsConstant` elements (a specialization-constant expression), at
  // most `maxElements` (what --stats counts).
  uint32_t workgroupArray(uint32_t elementsConstant, uint32_t maxElements);

  uint32_t word(uint32_t array, uint32_t index);

  // `value` of `type` as its words (1 or 2).
  std::vector<uint32_t> toWords(uint32_t type, uint32_t value);

  uint32_t fromWords(uint32_t type, const std::vector<uint32_t>& words);

  uint32_t words(uint32_t type) const { return ir::scalarWidth(module_, type) == 64 ? 2 : 1; }

  void store(uint32_t array, uint32_t type, uint32_t element, uint32_t value);

  uint32_t load(uint32_t array, uint32_t type, uint32_t element);

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

}  // namespace cl2vk::collectives
