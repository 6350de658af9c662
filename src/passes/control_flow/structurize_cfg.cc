// structurize-cfg.
//
// The algorithm. (1) Merge instructions already present are dropped (loop controls are kept for
// their headers), unreachable blocks are deleted, and an irreducible graph is refused. (2) Every
// natural loop, outermost first, is given the canonical SPIR-V shape: a header holding only its
// phis and OpLoopMerge (the rest of the header moves to a new block when needed); one continue
// target that every back edge goes to (the single unconditional latch when there is one, else a new
// block); one merge block that every exit goes to (the exit block itself when it is the only one
// and is entered only from the loop, else a new block that dispatches on an exit selector set where
// the loop was left). An exit of several loops at once thus becomes a break to each merge in turn.
// (3) What remains inside each loop body, and in the function outside all loops, is an acyclic
// region in which the loops nested directly inside are single nodes and branches to the loop's own
// continue target and merge are free. Each region is structured on its dominator tree, after
// Ramsey's "Beyond Relooper" (ICFP 2022), with the flag variables of goto elimination (Erosa and
// Hendren, "Taming Control Flow", ICCL 1994) where SPIR-V has no multi-level break: a block that has several
// predecessors (a "join") is placed after the subtree of its immediate dominator, joins in reverse post-order; a branch
// to a join leaves every construct between it and that join through the constructs' merges. The first join after a
// selection is its merge block when nothing else passes that point; otherwise a new guard block
// tests a per-region "next" value (set where the branch was taken) and either enters the join or
// passes on, and each guard's merge is the next join or guard. Every selection gets a merge of its
// own (a new block when no join fits). (4) The values the new routing needs (exit selectors, "next",
// and every value whose definition no longer dominates a use, original phis included) are rebuilt
// as SSA with Braun et al.'s "Simple and Efficient Construction of Static Single Assignment Form"
// (CC 2013): a phi where paths meet, OpUndef where a path carries no definition (such paths never
// read the value); for SIMD drivers (Target::loopExitPhis) every value of a loop read after it
// then goes through a phi in the loop's merge (loop_closing.cc). (5) Blocks are laid out in a
// reverse post-order that puts each merge after its construct.
//
// Guarantees: no instruction of the input is duplicated or re-evaluated; every original block runs
// in exactly the same dynamic order as before, only new blocks (branches on constants, flags and
// phis) are inserted between them, so side effects, barriers and collectives keep their order and
// their convergence (the original join of a branch is still where all its paths meet). The result
// depends only on the input (no pointer-keyed iteration reaches the output).
//
// This file runs the steps, with (1) and (5); (2) is in loop_shapes.cc, (3) in acyclic_regions.cc,
// (4) in ssa_rebuild.cc and loop_closing.cc, and structurizer.h holds the state they share.
#include "passes/control_flow/structurize_cfg.h"

#include <algorithm>
#include <list>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "passes/control_flow/structurizer.h"

namespace cl2vk::structurize {
namespace {

bool isMergeInstruction(spv::Op opcode) {
  return opcode == spv::Op::OpSelectionMerge || opcode == spv::Op::OpLoopMerge;
}

// The instruction before the terminator when it is a merge instruction, else null.
Instruction* mergeInstruction(Block& block) {
  auto& insts = block.instructions();
  if (insts.size() < 2) return nullptr;
  auto it = std::prev(insts.end(), 2);
  return isMergeInstruction(it->opcode()) ? &*it : nullptr;
}

// "%name" when the block has an OpName, else "%id", as the disassembler shows it.
std::string blockName(const Module& module, const Block& block) {
  std::string name = module.name(block.id());
  return "%" + (name.empty() ? std::to_string(block.id()) : name);
}

}  // namespace

bool isLineInstruction(spv::Op opcode) { return opcode == spv::Op::OpLine || opcode == spv::Op::OpNoLine; }

Block* blockOf(const Module& module, uint32_t label) { return module.def(label)->block(); }

void retarget(Module& module, Instruction* branch, const Block* from, const Block* to) {
  if (from == to) return;
  std::vector<Operand> operands = branch->operands();
  size_t first = branch->opcode() == spv::Op::OpBranch ? 0 : 1;
  size_t last = branch->opcode() == spv::Op::OpBranchConditional ? 3 : operands.size();
  bool changed = false;
  for (size_t i = first; i < last && i < operands.size(); ++i) {
    if (operands[i].isId() && operands[i].words[0] == from->id()) {
      operands[i].words[0] = to->id();
      changed = true;
    }
  }
  if (changed) module.update(branch, Instruction(branch->opcode(), 0, 0, std::move(operands)));
}

std::vector<Block*> distinctTargets(const Module& module, Block& block) {
  std::vector<Block*> targets;
  for (uint32_t label : successorLabels(*block.terminator())) {
    Block* target = blockOf(module, label);
    if (std::find(targets.begin(), targets.end(), target) == targets.end()) targets.push_back(target);
  }
  return targets;
}

Error internalError(const Module& module, const ir::Function& function, const std::string& what) {
  return Error("structurize-cfg internal error in function '" + module.functionName(function) + "': " + what);
}

Block* FunctionStructurizer::newBlock(int owner) {
  Block* block = module_.addBlock(function_);
  module_.append(block->instructions(), Instruction(spv::Op::OpLabel, 0, module_.takeId()));
  owner_[block] = owner;
  return block;
}

void FunctionStructurizer::branch(Block* block, Block* target) {
  module_.append(block->instructions(), Instruction(spv::Op::OpBranch, 0, 0, {Operand::id(target->id())}));
}

void FunctionStructurizer::unreachable(Block* block) {
  module_.append(block->instructions(), Instruction(spv::Op::OpUnreachable, 0, 0));
}

void FunctionStructurizer::insertSelectionMerge(Block* block, Block* merge) {
  module_.insertBefore(block->terminator(), Instruction(spv::Op::OpSelectionMerge, 0, 0,
                                                        {Operand::id(merge->id()),
                                                         Operand::enumerant(SPV_OPERAND_TYPE_SELECTION_CONTROL, 0)}));
}

bool FunctionStructurizer::isFree(int region, const Block* block) const {
  if (region == kFunctionRegion) return false;
  return block == loops_[region].continueTarget || block == loops_[region].merge;
}

// Predecessors from the terminators as they are now, indexed by position in the block list.
std::vector<std::vector<Block*>> FunctionStructurizer::currentPredecessors() {
  std::unordered_map<const Block*, size_t> position;
  size_t i = 0;
  for (Block& block : function_.blocks()) position[&block] = i++;
  std::vector<std::vector<Block*>> preds(position.size());
  for (Block& block : function_.blocks()) {
    for (Block* target : distinctTargets(module_, block)) preds[position.at(target)].push_back(&block);
  }
  return preds;
}

Status FunctionStructurizer::run() {
  // Merge instructions are recomputed from scratch; llvm-spirv's loop controls stay with their loop.
  for (Block& block : function_.blocks()) {
    if (Instruction* merge = mergeInstruction(block)) {
      if (merge->opcode() == spv::Op::OpLoopMerge) {
        loopControls_[&block] = std::vector<Operand>(merge->operands().begin() + 2, merge->operands().end());
      }
      CL2VK_TRY(module_.remove(merge));
    }
  }
  CL2VK_TRY(removeUnreachableBlocks());
  cfg_ = std::make_unique<Cfg>(module_, function_);
  if (auto cycle = cfg_->irreducibleCycle()) {
    return Error("irreducible control flow in function '" + module_.functionName(function_) + "': block " +
                 blockName(module_, *cycle->sideEntry) +
                 " is entered from outside its loop other than through the header " +
                 blockName(module_, *cycle->header));
  }
  if (function_.blocks().size() < 2) return okStatus();

  recordPhis();
  CL2VK_TRY(shapeLoops());
  CL2VK_TRY(structureRegion(kFunctionRegion));
  for (size_t loop = 0; loop < loops_.size(); ++loop) CL2VK_TRY(structureRegion(static_cast<int>(loop)));
  CL2VK_TRY(rebuildSsa());
  removeTrivialPhis();
  if (loopExitPhis_) closeLoops();
  layOutBlocks();
  return okStatus();
}

Status FunctionStructurizer::removeUnreachableBlocks() {
  Cfg cfg(module_, function_);
  std::vector<Block*> dead;
  for (Block& block : function_.blocks()) {
    if (!cfg.isReachable(&block)) dead.push_back(&block);
  }
  if (dead.empty()) return okStatus();
  std::unordered_set<uint32_t> deadLabels;
  for (Block* block : dead) deadLabels.insert(block->id());
  // Phis forget the edges from dead blocks.
  for (Block* block : cfg.reversePostOrder()) {
    for (Instruction& inst : block->instructions()) {
      if (inst.opcode() != spv::Op::OpPhi) continue;
      std::vector<Operand> kept;
      for (size_t i = 0; i + 1 < inst.numOperands(); i += 2) {
        if (deadLabels.contains(inst.idOperand(i + 1))) continue;
        kept.push_back(inst.operand(i));
        kept.push_back(inst.operand(i + 1));
      }
      if (kept.size() != inst.numOperands())
        module_.update(&inst, Instruction(spv::Op::OpPhi, inst.typeId(), inst.resultId(), kept));
    }
  }
  // Values of dead blocks can only be used by dead blocks; they become undefined, then go.
  for (Block* block : dead) {
    for (Instruction& inst : block->instructions()) {
      if (inst.resultId() && inst.typeId()) module_.replaceAllUses(inst.resultId(), undef(inst.typeId()));
    }
  }
  for (Block* block : dead) {
    while (block->instructions().size() > 1) CL2VK_TRY(module_.remove(&block->instructions().back()));
  }
  for (Block* block : dead) CL2VK_TRY(module_.removeBlock(block));
  return okStatus();
}

void FunctionStructurizer::recordPhis() {
  for (Block& block : function_.blocks()) {
    for (Instruction& inst : block.instructions()) {
      if (inst.opcode() != spv::Op::OpPhi) continue;
      PhiRecord record{&inst, &block, {}};
      for (size_t i = 0; i + 1 < inst.numOperands(); i += 2)
        record.incoming.emplace_back(inst.idOperand(i), blockOf(module_, inst.idOperand(i + 1)));
      phis_.push_back(std::move(record));
    }
  }
}

void FunctionStructurizer::layOutBlocks() {
  // Reverse post-order in which a construct's merge comes after the construct and a branch's
  // first target comes first.
  std::vector<Block*> post;
  std::unordered_set<const Block*> seen;
  auto successorsOf = [this](Block* block) {
    std::vector<Block*> result;
    if (Instruction* merge = mergeInstruction(*block)) {
      result.push_back(blockOf(module_, merge->idOperand(0)));
      if (merge->opcode() == spv::Op::OpLoopMerge) result.push_back(blockOf(module_, merge->idOperand(1)));
    }
    auto targets = distinctTargets(module_, *block);
    result.insert(result.end(), targets.rbegin(), targets.rend());
    return result;
  };
  Block* entry = &function_.blocks().front();
  std::vector<std::pair<Block*, std::vector<Block*>>> stack;
  stack.emplace_back(entry, successorsOf(entry));
  seen.insert(entry);
  std::vector<size_t> next = {0};
  while (!stack.empty()) {
    auto& [block, succs] = stack.back();
    size_t& i = next.back();
    if (i == succs.size()) {
      post.push_back(block);
      stack.pop_back();
      next.pop_back();
      continue;
    }
    Block* succ = succs[i++];
    if (!seen.insert(succ).second) continue;
    auto found = successorsOf(succ);
    stack.emplace_back(succ, std::move(found));
    next.push_back(0);
  }
  auto& blocks = function_.blocks();
  std::unordered_map<const Block*, std::list<Block>::iterator> where;
  for (auto it = blocks.begin(); it != blocks.end(); ++it) where[&*it] = it;
  std::vector<std::list<Block>::iterator> rest;
  for (auto it = blocks.begin(); it != blocks.end(); ++it) {
    if (!seen.contains(&*it)) rest.push_back(it);
  }
  for (auto it = post.rbegin(); it != post.rend(); ++it) blocks.splice(blocks.end(), blocks, where.at(*it));
  for (auto it : rest) blocks.splice(blocks.end(), blocks, it);
}

}  // namespace cl2vk::structurize

namespace cl2vk {
namespace {

using ir::Block;
using ir::Instruction;

std::vector<uint32_t> encodeBody(const ir::Function& function) {
  std::vector<uint32_t> words;
  for (const Block& block : function.blocks()) {
    for (const Instruction& inst : block.instructions()) inst.encode(words);
  }
  return words;
}

}  // namespace

Expected<PassResult> structurizeControlFlow(ir::Module& module, const Target& target) {
  bool changed = false;
  for (ir::Function& function : module.functions()) {
    if (function.isDeclaration()) continue;
    std::vector<uint32_t> before = encodeBody(function);
    structurize::FunctionStructurizer structurizer(module, function, target.loopExitPhis);
    CL2VK_TRY(structurizer.run());
    changed = changed || encodeBody(function) != before;
  }
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
