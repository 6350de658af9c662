// structurize-cfg, the end of step (4) for SIMD drivers (Target::loopExitPhis): loop-closed SSA
// whose phis survive the driver's own optimization.
//
// SwiftShader and llvmpipe run a loop for all the invocations of a SIMD batch while any of them is
// still in it, and compute the body for every invocation, the ones that already left included
// (their loads give 0, their stores are masked off). An SSA value of the loop read after it
// therefore holds the last pass's value for every invocation; only a phi in the loop's merge,
// stored under the mask of the invocations that take each edge to it, keeps each invocation's own
// value from the pass in which it left. So every value of a loop read after it is read through a
// phi in the merge (innermost loops first, so that the phi of an inner merge, itself in the outer
// loop, is closed again at the outer merge).
//
// Such a phi has one incoming value, and SwiftShader's SPIRV-Tools passes (simplify-instructions'
// redundant-phi rule) fold it before its SIMD emitter sees it. A second incoming edge that no
// invocation takes keeps it: the continue target, which branches back to the header, branches on a
// condition true there instead, to the header or to the merge, and the merge's phis take OpUndef on
// that edge. The condition comes from the loop's own tests (KnownTrue): the nearest one that
// dominates the continue target with one side that cannot come back to it within the pass (a
// rotated loop's latch test, a top-tested loop's exit test, the `if` around a `break`), else what
// each edge into the continue target knows (an endless loop left from inside nested `if`s). The
// loop's Unroll hint goes too: SPIRV-Tools' full unroll (2023.1) leaves the merge's phis naming
// the removed blocks, and the passes after it crash on that.
#include <iterator>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/types.h"
#include "passes/control_flow/structurizer.h"

namespace cl2vk::structurize {
namespace {

// Logical pointers stay as they are: Vulkan has no phi of them without VariablePointers.
bool isPhiValue(const Module& module, uint32_t type) {
  return !ir::isPointerType(module, type) || ir::isBufferPointer(module, type);
}

Instruction* loopMergeOf(Block& header) {
  for (Instruction& inst : header.instructions()) {
    if (inst.opcode() == spv::Op::OpLoopMerge) return &inst;
  }
  return nullptr;
}

// The block's merge instruction, or null.
Instruction* mergeOf(Block& block) {
  auto& insts = block.instructions();
  if (insts.size() < 2) return nullptr;
  Instruction& inst = *std::prev(insts.end(), 2);
  return inst.opcode() == spv::Op::OpSelectionMerge || inst.opcode() == spv::Op::OpLoopMerge ? &inst : nullptr;
}

// A boolean that is true in every invocation reaching a block of one pass of a loop, from the
// loop's own tests (a condition inside a nested loop is one of that loop's values, read after
// it): the nearest test dominating the block from which only one side comes to it, as that side
// reads it; else, from each predecessor, the test's value on its edge or what is known at the
// predecessor's entry, met in a phi. No invocation that reaches the block sees it false, so a
// branch on it that leaves the loop is never taken. 0 when the pass reaches the block past no test.
class KnownTrue {
 public:
  KnownTrue(Module& module, const Cfg& cfg, Block* header, Block* merge)
      : module_(module), cfg_(cfg), header_(header), merge_(merge), loop_(cfg.innermostLoop(header)) {}

  // A condition and whether it is true (else false) in every invocation reaching `block`: the
  // dominating test's condition as it is, where one fits, so that no negation is needed.
  std::pair<uint32_t, bool> condition(Block* block) {
    if (Block* test = dominatingTest(block)) {
      return {test->terminator()->idOperand(0), reaches(target(test, 1), block)};
    }
    return {at(block), true};
  }

  uint32_t at(Block* block) {
    if (block == header_) return 0;
    if (auto it = known_.find(block); it != known_.end()) return it->second;
    if (Block* test = dominatingTest(block)) return known_[block] = side(test, reaches(target(test, 1), block));
    std::vector<Operand> incoming;
    for (Block* pred : cfg_.predecessors(block)) {
      uint32_t value = 0;
      if (isTest(pred)) {
        value = side(pred, target(pred, 1) == block);
      } else if (cfg_.innermostLoop(pred) == loop_ && pred->terminator()->opcode() == spv::Op::OpBranch) {
        value = at(pred);
      }
      if (!value) return known_[block] = 0;
      incoming.push_back(Operand::id(value));
      incoming.push_back(Operand::id(pred->id()));
    }
    if (incoming.size() == 2) return known_[block] = incoming[0].words[0];
    uint32_t phi = module_.takeId();
    module_.insertAfter(&block->instructions().front(),
                        Instruction(spv::Op::OpPhi, ir::typeBool(module_), phi, std::move(incoming)));
    return known_[block] = phi;
  }

 private:
  Block* dominatingTest(Block* block) const {
    for (Block* test = cfg_.immediateDominator(block); test; test = cfg_.immediateDominator(test)) {
      if (isTest(test) && reaches(target(test, 1), block) != reaches(target(test, 2), block)) return test;
      if (test == header_) break;
    }
    return nullptr;
  }
  bool isTest(Block* block) const {
    Instruction* branch = block->terminator();
    return cfg_.innermostLoop(block) == loop_ && branch->opcode() == spv::Op::OpBranchConditional &&
           branch->idOperand(1) != branch->idOperand(2);
  }
  Block* target(Block* test, size_t operand) const { return blockOf(module_, test->terminator()->idOperand(operand)); }
  // Whether `from` comes to `to` within one pass (not through the header or the merge).
  bool reaches(Block* from, Block* to) const {
    std::unordered_set<const Block*> seen = {header_, merge_};
    std::vector<Block*> stack = {from};
    while (!stack.empty()) {
      Block* block = stack.back();
      stack.pop_back();
      if (block == to) return true;
      if (!seen.insert(block).second) continue;
      for (Block* next : cfg_.successors(block)) stack.push_back(next);
    }
    return false;
  }
  // The test's condition as its true side (`onTrue`) or its false side reads it.
  uint32_t side(Block* test, bool onTrue) {
    uint32_t condition = test->terminator()->idOperand(0);
    if (onTrue) return condition;
    uint32_t& negated = negated_[test];
    if (!negated) {
      Instruction* at = test->terminator();
      if (Instruction* merge = mergeOf(*test)) at = merge;
      negated = module_.takeId();
      module_.insertBefore(
          at, Instruction(spv::Op::OpLogicalNot, ir::typeBool(module_), negated, {Operand::id(condition)}));
    }
    return negated;
  }

  Module& module_;
  const Cfg& cfg_;
  Block* header_;
  Block* merge_;
  int loop_;
  std::unordered_map<const Block*, uint32_t> known_;
  std::unordered_map<const Block*, uint32_t> negated_;
};
}  // namespace

void FunctionStructurizer::closeLoops() {
  for (size_t index = loops_.size(); index-- > 0;) {
    Block* header = loops_[index].header;
    Block* merge = loops_[index].merge;
    if (!cfg_->isReachable(header) || !cfg_->isReachable(merge)) continue;
    // The loop's blocks as the structured loop now stands: what the header reaches before its merge.
    std::unordered_set<const Block*> inside = {header};
    std::vector<Block*> stack = {header};
    while (!stack.empty()) {
      Block* block = stack.back();
      stack.pop_back();
      for (Block* target : distinctTargets(module_, *block)) {
        if (target != merge && inside.insert(target).second) stack.push_back(target);
      }
    }
    if (!closeLoop(static_cast<int>(index), inside)) continue;
    Instruction* loopMerge = loopMergeOf(*header);
    uint32_t control = loopMerge->wordOperand(2);
    if (control & static_cast<uint32_t>(spv::LoopControlMask::Unroll)) {
      std::vector<Operand> operands = loopMerge->operands();
      operands[2] = Operand::enumerant(SPV_OPERAND_TYPE_LOOP_CONTROL,
                                       control & ~static_cast<uint32_t>(spv::LoopControlMask::Unroll));
      module_.update(loopMerge, Instruction(spv::Op::OpLoopMerge, 0, 0, std::move(operands)));
    }
    // The outer loops' dominators and predecessors see the new edge.
    if (keepMergePhis(static_cast<int>(index), inside)) cfg_ = std::make_unique<Cfg>(module_, function_);
  }
}

// Whether phis were made.
bool FunctionStructurizer::closeLoop(int index, const std::unordered_set<const Block*>& inside) {
  Block* merge = loops_[index].merge;
  auto definedInside = [&](uint32_t id) {
    const Instruction* def = module_.def(id);
    return def && def->opcode() != spv::Op::OpLabel && def->block() && inside.contains(def->block()) && def->typeId() &&
           isPhiValue(module_, def->typeId());
  };
  struct Use {
    Instruction* user;
    size_t operand;
  };
  std::vector<Use> uses;
  for (Block* block : cfg_->reversePostOrder()) {
    if (inside.contains(block)) continue;
    for (Instruction& inst : block->instructions()) {
      for (size_t i = 0; i < inst.numOperands(); ++i) {
        if (!inst.operand(i).isId() || !definedInside(inst.idOperand(i))) continue;
        // A phi reads its value at the end of the predecessor, which may still be in the loop.
        Block* at = inst.opcode() == spv::Op::OpPhi ? blockOf(module_, inst.idOperand(i + 1)) : block;
        if (!inside.contains(at) && cfg_->dominates(merge, at)) uses.push_back({&inst, i});
      }
    }
  }
  std::unordered_map<uint32_t, uint32_t> closed;
  for (const Use& use : uses) {
    uint32_t value = use.user->idOperand(use.operand);
    uint32_t& phi = closed[value];
    if (!phi) {
      const Instruction* def = module_.def(value);
      std::vector<Operand> operands;
      for (Block* pred : cfg_->predecessors(merge)) {
        bool available = cfg_->dominates(def->block(), pred);
        operands.push_back(Operand::id(available ? value : undef(def->typeId())));
        operands.push_back(Operand::id(pred->id()));
      }
      phi = module_.takeId();
      module_.insertAfter(&merge->instructions().front(),
                          Instruction(spv::Op::OpPhi, def->typeId(), phi, std::move(operands)));
    }
    std::vector<Operand> operands = use.user->operands();
    operands[use.operand] = Operand::id(phi);
    module_.update(use.user,
                   Instruction(use.user->opcode(), use.user->typeId(), use.user->resultId(), std::move(operands)));
  }
  return !closed.empty();
}

// Whether the continue target now branches to the merge as well (see the top of the file).
bool FunctionStructurizer::keepMergePhis(int index, const std::unordered_set<const Block*>& inside) {
  Block* header = loops_[index].header;
  Block* merge = loops_[index].merge;
  Block* latch = loops_[index].continueTarget;
  Instruction* back = latch->terminator();
  if (latch == header || back->opcode() != spv::Op::OpBranch || back->idOperand(0) != header->id()) return false;
  // The merge's dominator becomes the nearest common dominator of its own and the continue
  // target; a logical pointer of the loop read after it (it has no phi) must still dominate it.
  Block* mergeDominator = cfg_->immediateDominator(merge);
  Block* common = latch;
  while (!cfg_->dominates(common, mergeDominator)) common = cfg_->immediateDominator(common);
  for (Block* block : cfg_->reversePostOrder()) {
    if (inside.contains(block)) continue;
    for (const Instruction& inst : block->instructions()) {
      for (size_t i = 0; i < inst.numOperands(); ++i) {
        if (!inst.operand(i).isId()) continue;
        // A merge phi reads at the end of a block of the loop, whose dominators stay.
        bool phi = inst.opcode() == spv::Op::OpPhi;
        if (phi && (i % 2 == 1 || inside.contains(blockOf(module_, inst.idOperand(i + 1))))) continue;
        const Instruction* def = module_.def(inst.idOperand(i));
        if (def && def->opcode() != spv::Op::OpLabel && def->block() && inside.contains(def->block()) &&
            !cfg_->dominates(def->block(), common))
          return false;
      }
    }
  }
  auto [condition, stayOnTrue] = KnownTrue(module_, *cfg_, header, merge).condition(latch);
  if (!condition) return false;
  Block* onTrue = stayOnTrue ? header : merge;
  Block* onFalse = stayOnTrue ? merge : header;
  module_.update(back, Instruction(spv::Op::OpBranchConditional, 0, 0,
                                   {Operand::id(condition), Operand::id(onTrue->id()), Operand::id(onFalse->id())}));
  for (Instruction& phi : merge->instructions()) {
    if (phi.opcode() == spv::Op::OpLabel || isLineInstruction(phi.opcode())) continue;
    if (phi.opcode() != spv::Op::OpPhi) break;
    std::vector<Operand> operands = phi.operands();
    operands.push_back(Operand::id(undef(phi.typeId())));
    operands.push_back(Operand::id(latch->id()));
    module_.update(&phi, Instruction(spv::Op::OpPhi, phi.typeId(), phi.resultId(), std::move(operands)));
  }
  return true;
}

}  // namespace cl2vk::structurize
