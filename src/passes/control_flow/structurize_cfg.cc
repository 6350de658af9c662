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
// Hendren, "Taming Control Flow", ICCL 1994) where SPIR-V has no multi-level break: a block that has several predecessors (a "join") is placed after the subtree
// of its immediate dominator, joins in reverse post-order; a branch to a join leaves every
// construct between it and that join through the constructs' merges. The first join after a
// selection is its merge block when nothing else passes that point; otherwise a new guard block
// tests a per-region "next" value (set where the branch was taken) and either enters the join or
// passes on, and each guard's merge is the next join or guard. Every selection gets a merge of its
// own (a new block when no join fits). (4) The values the new routing needs (exit selectors, "next",
// and every value whose definition no longer dominates a use, original phis included) are rebuilt
// as SSA with Braun et al.'s "Simple and Efficient Construction of Static Single Assignment Form"
// (CC 2013): a phi where paths meet, OpUndef where a path carries no definition (such paths never
// read the value). (5) Blocks are laid out in a reverse post-order that puts each merge after its
// construct.
//
// Guarantees: no instruction of the input is duplicated or re-evaluated; every original block runs
// in exactly the same dynamic order as before, only new blocks (branches on constants, flags and
// phis) are inserted between them, so side effects, barriers and collectives keep their order and
// their convergence (the original join of a branch is still where all its paths meet). The result
// depends only on the input (no pointer-keyed iteration reaches the output).
#include "passes/control_flow/structurize_cfg.h"

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/builder.h"
#include "ir/types.h"
#include "analysis/cfg.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Instruction;
using ir::Module;
using ir::Operand;

constexpr int kFunctionRegion = -1;

bool isMergeInstruction(spv::Op opcode) {
  return opcode == spv::Op::OpSelectionMerge || opcode == spv::Op::OpLoopMerge;
}

bool isLineInstruction(spv::Op opcode) { return opcode == spv::Op::OpLine || opcode == spv::Op::OpNoLine; }

// The instruction before the terminator when it is a merge instruction, else null.
Instruction* mergeInstruction(Block& block) {
  auto& insts = block.instructions();
  if (insts.size() < 2) return nullptr;
  auto it = std::prev(insts.end(), 2);
  return isMergeInstruction(it->opcode()) ? &*it : nullptr;
}

Block* blockOf(const Module& module, uint32_t label) { return module.def(label)->block(); }

// Rewrites the branch targets of `branch` that name `from` so that they name `to`.
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

// "%name" when the block has an OpName, else "%id", as the disassembler shows it.
std::string blockName(const Module& module, const Block& block) {
  std::string name = module.name(block.id());
  return "%" + (name.empty() ? std::to_string(block.id()) : name);
}

Error internalError(const Module& module, const ir::Function& function, const std::string& what) {
  return Error("structurize-cfg internal error in function '" + module.functionName(function) + "': " + what);
}

// A value rebuilt as SSA at the end (Braun et al.): its definitions at the ends of blocks, and for
// a value of the input its one definition, which makes every block it dominates read it directly.
struct Variable {
  uint32_t type = 0;
  std::unordered_map<const Block*, uint32_t> definitions;
  uint32_t ssaValue = 0;
  const Block* ssaBlock = nullptr;
  std::unordered_map<const Block*, uint32_t> atEntry;
};

struct PhiRecord {
  Instruction* phi;
  Block* block;
  std::vector<std::pair<uint32_t, Block*>> incoming;
};

// A read of a variable at the entry of `block` that operand `operand` of `user` stands for.
struct PendingRead {
  Instruction* user;
  size_t operand;
  int variable;
  Block* block;
};

struct LoopShape {
  Block* header = nullptr;
  Block* bodyEntry = nullptr;
  Block* continueTarget = nullptr;
  Block* merge = nullptr;
  int parent = kFunctionRegion;
  std::unordered_set<const Block*> body;
  std::vector<Block*> bodyOrder;
};

// One acyclic region as a graph: the nested loops are single nodes (header -> merge) and the
// region's own continue target and merge are left out.
struct RegionGraph {
  std::vector<Block*> nodes;  // reverse post-order from the entry
  std::unordered_map<const Block*, int> index;
  std::vector<std::vector<int>> succs;
  std::vector<std::vector<int>> preds;
  std::vector<int> idom;
  std::vector<std::vector<int>> kids;   // dominator-tree children, in reverse post-order
  std::vector<std::vector<int>> jumps;  // successors that are joins (several predecessors)
  std::vector<std::set<int>> out;       // joins outside a node's subtree that its subtree branches to
  bool isJoin(int node) const { return preds[node].size() >= 2; }
};

class FunctionStructurizer {
 public:
  FunctionStructurizer(Module& module, ir::Function& function) : module_(module), function_(function) {}

  Status run();

 private:
  Status removeUnreachableBlocks();
  void recordPhis();
  Status shapeLoops();
  void shapeLoop(int loop);
  Status structureRegion(int region);
  Expected<RegionGraph> buildRegionGraph(int region, Block* entry);
  Status emit(int region, RegionGraph& graph, int nextVariable, int node, Block* exitTo);
  Status rebuildSsa();
  void removeTrivialPhis();
  void layOutBlocks();

  Block* newBlock(int owner);
  void branch(Block* block, Block* target);
  void unreachable(Block* block);
  void insertSelectionMerge(Block* block, Block* merge);
  std::vector<std::vector<Block*>> currentPredecessors();
  bool isFree(int region, const Block* block) const;

  int newVariable(uint32_t type);
  int valueVariable(uint32_t id);
  uint32_t readAtEnd(int variable, Block* block);
  uint32_t readAtEntry(int variable, Block* block);
  uint32_t undef(uint32_t type);
  uint32_t uintConstant(uint32_t value) { return ir::constantUint(module_, 32, value); }

  Module& module_;
  ir::Function& function_;
  std::unique_ptr<Cfg> cfg_;  // the current analysis; the final one while SSA is rebuilt
  std::vector<PhiRecord> phis_;
  std::deque<Variable> variables_;
  std::unordered_map<uint32_t, int> valueVariables_;
  std::vector<PendingRead> reads_;
  std::unordered_map<const Block*, std::vector<Operand>> loopControls_;
  std::vector<LoopShape> loops_;
  std::unordered_map<const Block*, int> headerOf_;
  std::unordered_map<const Block*, int> owner_;
  std::unordered_set<const Block*> claimedMerges_;
  std::unordered_map<uint32_t, uint32_t> undefs_;
};

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
  module_.insertBefore(block->terminator(),
                       Instruction(spv::Op::OpSelectionMerge, 0, 0,
                                   {Operand::id(merge->id()), Operand::enumerant(SPV_OPERAND_TYPE_SELECTION_CONTROL, 0)}));
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
                 blockName(module_, *cycle->sideEntry) + " is entered from outside its loop other than through the header " +
                 blockName(module_, *cycle->header));
  }
  if (function_.blocks().size() < 2) return okStatus();

  recordPhis();
  CL2VK_TRY(shapeLoops());
  CL2VK_TRY(structureRegion(kFunctionRegion));
  for (size_t loop = 0; loop < loops_.size(); ++loop) CL2VK_TRY(structureRegion(static_cast<int>(loop)));
  CL2VK_TRY(rebuildSsa());
  removeTrivialPhis();
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
      if (kept.size() != inst.numOperands()) module_.update(&inst, Instruction(spv::Op::OpPhi, inst.typeId(), inst.resultId(), kept));
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

Status FunctionStructurizer::shapeLoops() {
  // Headers keep only their phis: the rest moves to a block of its own, unless it is just a branch
  // to a block that only the header enters.
  std::unordered_map<const Block*, Block*> bodyEntries;
  for (const Loop& loop : cfg_->loops()) {
    Block* header = loop.header;
    Instruction* terminator = header->terminator();
    bool onlyPhis = true;
    Instruction* firstOther = nullptr;
    for (Instruction& inst : header->instructions()) {
      spv::Op op = inst.opcode();
      if (op == spv::Op::OpLabel || op == spv::Op::OpPhi || isLineInstruction(op)) continue;
      if (!firstOther) firstOther = &inst;
      if (&inst != terminator) onlyPhis = false;
    }
    if (onlyPhis && terminator->opcode() == spv::Op::OpBranch) {
      Block* target = blockOf(module_, terminator->idOperand(0));
      bool targetIsHeader = std::any_of(cfg_->loops().begin(), cfg_->loops().end(),
                                        [target](const Loop& other) { return other.header == target; });
      if (target != header && !targetIsHeader && cfg_->predecessors(target).size() == 1) {
        bodyEntries[header] = target;
        continue;
      }
    }
    Block* rest = module_.splitBlockBefore(firstOther);
    for (PhiRecord& record : phis_) {
      for (auto& [value, pred] : record.incoming) {
        if (pred == header) pred = rest;
      }
    }
    branch(header, rest);
    bodyEntries[header] = rest;
  }
  cfg_ = std::make_unique<Cfg>(module_, function_);

  const auto& loops = cfg_->loops();
  loops_.resize(loops.size());
  for (size_t i = 0; i < loops.size(); ++i) {
    LoopShape& shape = loops_[i];
    shape.header = loops[i].header;
    shape.bodyEntry = bodyEntries.at(shape.header);
    shape.parent = loops[i].parent;
    shape.bodyOrder = loops[i].blocks;
    shape.body.insert(loops[i].blocks.begin(), loops[i].blocks.end());
    headerOf_[shape.header] = static_cast<int>(i);
  }
  for (Block* block : cfg_->reversePostOrder()) {
    int loop = cfg_->innermostLoop(block);
    auto header = headerOf_.find(block);
    owner_[block] = header != headerOf_.end() ? loops_[header->second].parent : loop;
  }
  for (size_t i = 0; i < loops_.size(); ++i) shapeLoop(static_cast<int>(i));
  return okStatus();
}

void FunctionStructurizer::shapeLoop(int index) {
  LoopShape& loop = loops_[index];
  Block* header = loop.header;

  // The continue target: the one latch when it only branches back, else a new block.
  std::vector<Block*> latches;
  for (Block* block : loop.bodyOrder) {
    auto targets = distinctTargets(module_, *block);
    if (std::find(targets.begin(), targets.end(), header) != targets.end()) latches.push_back(block);
  }
  if (latches.size() == 1 && latches[0] != loop.bodyEntry && latches[0] != header &&
      latches[0]->terminator()->opcode() == spv::Op::OpBranch) {
    loop.continueTarget = latches[0];
  } else {
    loop.continueTarget = newBlock(index);
    branch(loop.continueTarget, header);
    for (Block* latch : latches) retarget(module_, latch->terminator(), header, loop.continueTarget);
  }

  // The exits, in reverse post-order of their source, and their distinct targets.
  std::vector<std::pair<Block*, std::vector<Block*>>> exiting;
  std::vector<Block*> targets;
  for (Block* block : loop.bodyOrder) {
    std::vector<Block*> leaving;
    for (Block* target : distinctTargets(module_, *block)) {
      if (loop.body.contains(target) || target == loop.continueTarget) continue;
      leaving.push_back(target);
      if (std::find(targets.begin(), targets.end(), target) == targets.end()) targets.push_back(target);
    }
    if (!leaving.empty()) exiting.emplace_back(block, std::move(leaving));
  }

  bool reuseExit = false;
  if (targets.size() == 1 && !claimedMerges_.contains(targets[0]) && !headerOf_.contains(targets[0])) {
    auto preds = currentPredecessors();
    size_t position = 0;
    for (Block& block : function_.blocks()) {
      if (&block == targets[0]) break;
      ++position;
    }
    reuseExit = std::all_of(preds[position].begin(), preds[position].end(),
                            [&loop](const Block* pred) { return loop.body.contains(pred); });
    for (const LoopShape& other : loops_) reuseExit = reuseExit && other.continueTarget != targets[0];
  }
  if (reuseExit) {
    loop.merge = targets[0];
  } else {
    loop.merge = newBlock(loop.parent);
    if (targets.empty()) {
      unreachable(loop.merge);
    } else if (targets.size() == 1) {
      for (auto& [block, leaving] : exiting) retarget(module_, block->terminator(), targets[0], loop.merge);
      branch(loop.merge, targets[0]);
    } else {
      // Each exit says which target it meant; the merge dispatches on that.
      uint32_t uintType = ir::typeInt(module_, 32, false);
      int selector = newVariable(uintType);
      auto code = [&targets](const Block* target) {
        return static_cast<uint32_t>(std::find(targets.begin(), targets.end(), target) - targets.begin());
      };
      for (auto& [block, leaving] : exiting) {
        if (leaving.size() == 1) {
          variables_[selector].definitions[block] = uintConstant(code(leaving[0]));
          retarget(module_, block->terminator(), leaving[0], loop.merge);
          continue;
        }
        for (Block* target : leaving) {
          Block* edge = newBlock(index);
          branch(edge, loop.merge);
          variables_[selector].definitions[edge] = uintConstant(code(target));
          retarget(module_, block->terminator(), target, edge);
        }
      }
      ir::Builder builder = ir::Builder::atEnd(module_, *loop.merge);
      if (targets.size() == 2) {
        Instruction* test = builder.add(spv::Op::OpIEqual, ir::typeBool(module_),
                                        {Operand::id(undef(uintType)), Operand::id(uintConstant(0))});
        reads_.push_back({test, 0, selector, loop.merge});
        builder.add(spv::Op::OpBranchConditional, 0,
                    {Operand::id(test->resultId()), Operand::id(targets[0]->id()), Operand::id(targets[1]->id())});
      } else {
        std::vector<Operand> operands = {Operand::id(undef(uintType)), Operand::id(targets[0]->id())};
        for (size_t i = 1; i < targets.size(); ++i) {
          operands.push_back(Operand::literal(static_cast<uint32_t>(i)));
          operands.push_back(Operand::id(targets[i]->id()));
        }
        Instruction* dispatch = builder.add(spv::Op::OpSwitch, 0, std::move(operands));
        reads_.push_back({dispatch, 0, selector, loop.merge});
      }
    }
  }
  claimedMerges_.insert(loop.merge);
  owner_[loop.merge] = loop.parent;

  std::vector<Operand> merge = {Operand::id(loop.merge->id()), Operand::id(loop.continueTarget->id())};
  auto control = loopControls_.find(header);
  if (control != loopControls_.end()) {
    merge.insert(merge.end(), control->second.begin(), control->second.end());
  } else {
    merge.push_back(Operand::enumerant(SPV_OPERAND_TYPE_LOOP_CONTROL, 0));
  }
  module_.insertBefore(header->terminator(), Instruction(spv::Op::OpLoopMerge, 0, 0, std::move(merge)));
}

Expected<RegionGraph> FunctionStructurizer::buildRegionGraph(int region, Block* entry) {
  auto successorsOf = [&](Block* block) -> Expected<std::vector<Block*>> {
    auto header = headerOf_.find(block);
    if (header != headerOf_.end()) return std::vector<Block*>{loops_[header->second].merge};
    std::vector<Block*> result;
    for (Block* target : distinctTargets(module_, *block)) {
      if (isFree(region, target)) continue;
      auto owner = owner_.find(target);
      if (owner == owner_.end() || owner->second != region)
        return internalError(module_, function_, "block %" + std::to_string(block->id()) + " leaves its region for %" +
                                                     std::to_string(target->id()));
      result.push_back(target);
    }
    return result;
  };

  RegionGraph graph;
  std::vector<Block*> post;
  std::unordered_map<const Block*, std::vector<Block*>> succs;
  std::unordered_map<const Block*, int> state;
  std::vector<std::pair<Block*, size_t>> stack = {{entry, 0}};
  state[entry] = 1;
  auto first = successorsOf(entry);
  if (!first) return first.error();
  succs[entry] = *first;
  while (!stack.empty()) {
    auto& [block, next] = stack.back();
    if (next == succs[block].size()) {
      state[block] = 2;
      post.push_back(block);
      stack.pop_back();
      continue;
    }
    Block* succ = succs[block][next++];
    auto it = state.find(succ);
    if (it != state.end()) {
      if (it->second == 1) return internalError(module_, function_, "cycle left in the region of %" + std::to_string(entry->id()));
      continue;
    }
    auto found = successorsOf(succ);
    if (!found) return found.error();
    succs[succ] = *found;
    state[succ] = 1;
    stack.push_back({succ, 0});
  }
  graph.nodes.assign(post.rbegin(), post.rend());
  size_t n = graph.nodes.size();
  for (size_t i = 0; i < n; ++i) graph.index[graph.nodes[i]] = static_cast<int>(i);
  graph.succs.resize(n);
  graph.preds.resize(n);
  for (size_t i = 0; i < n; ++i) {
    for (Block* succ : succs[graph.nodes[i]]) {
      int s = graph.index.at(succ);
      graph.succs[i].push_back(s);
      graph.preds[s].push_back(static_cast<int>(i));
    }
  }
  // The region is acyclic, so a node's immediate dominator is the nearest common dominator of its
  // predecessors, all of which come before it.
  graph.idom.assign(n, -1);
  for (size_t i = 1; i < n; ++i) {
    int chosen = -1;
    for (int pred : graph.preds[i]) {
      if (chosen < 0) {
        chosen = pred;
        continue;
      }
      int a = pred, b = chosen;
      while (a != b) {
        while (a > b) a = graph.idom[a];
        while (b > a) b = graph.idom[b];
      }
      chosen = a;
    }
    graph.idom[i] = chosen;
  }
  graph.kids.resize(n);
  for (size_t i = 1; i < n; ++i) graph.kids[graph.idom[i]].push_back(static_cast<int>(i));
  graph.jumps.resize(n);
  graph.out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    for (int succ : graph.succs[i]) {
      if (graph.isJoin(succ)) graph.jumps[i].push_back(succ);
    }
  }
  for (size_t i = n; i-- > 0;) {
    std::set<int>& out = graph.out[i];
    out.insert(graph.jumps[i].begin(), graph.jumps[i].end());
    for (int kid : graph.kids[i]) out.insert(graph.out[kid].begin(), graph.out[kid].end());
    for (int kid : graph.kids[i]) out.erase(kid);
  }
  return graph;
}

Status FunctionStructurizer::structureRegion(int region) {
  // New blocks go to the end of the list, so the function's entry stays first.
  Block* entry = region == kFunctionRegion ? &function_.blocks().front() : loops_[region].bodyEntry;

  // A switch cannot name the loop's continue target or merge: such cases get a block of their own.
  auto graph = buildRegionGraph(region, entry);
  if (!graph) return graph.error();
  for (Block* node : graph->nodes) {
    if (node->terminator()->opcode() != spv::Op::OpSwitch || headerOf_.contains(node)) continue;
    for (Block* target : distinctTargets(module_, *node)) {
      if (!isFree(region, target)) continue;
      Block* edge = newBlock(region);
      branch(edge, target);
      retarget(module_, node->terminator(), target, edge);
    }
  }
  // A block that branches to two joins gets a block on each such edge, so that "next" can be set
  // per edge.
  graph = buildRegionGraph(region, entry);
  if (!graph) return graph.error();
  bool split = false;
  for (size_t i = 0; i < graph->nodes.size(); ++i) {
    if (graph->jumps[i].size() < 2) continue;
    for (int join : graph->jumps[i]) {
      Block* edge = newBlock(region);
      branch(edge, graph->nodes[join]);
      retarget(module_, graph->nodes[i]->terminator(), graph->nodes[join], edge);
    }
    split = true;
  }
  if (split) {
    graph = buildRegionGraph(region, entry);
    if (!graph) return graph.error();
  }
  int next = newVariable(ir::typeInt(module_, 32, false));
  return emit(region, *graph, next, 0, nullptr);
}

Status FunctionStructurizer::emit(int region, RegionGraph& graph, int nextVariable, int node, Block* exitTo) {
  Block* block = graph.nodes[node];
  Instruction* terminator = block->terminator();
  bool isHeader = !headerOf_.contains(block) &&
                  (terminator->opcode() == spv::Op::OpSwitch ||
                   (terminator->opcode() == spv::Op::OpBranchConditional && graph.succs[node].size() >= 2));
  std::vector<int> treeKids, joins;
  for (int kid : graph.kids[node]) (graph.isJoin(kid) ? joins : treeKids).push_back(kid);
  size_t count = joins.size();

  // Each join is entered directly when it is the only place that branches from before it go to,
  // else through a guard on "next".
  std::set<int> pending(graph.jumps[node].begin(), graph.jumps[node].end());
  for (int kid : treeKids) pending.insert(graph.out[kid].begin(), graph.out[kid].end());
  std::vector<Block*> entries(count);
  std::vector<bool> guarded(count);
  for (size_t j = 0; j < count; ++j) {
    guarded[j] = !(pending.size() == 1 && *pending.begin() == joins[j]);
    entries[j] = guarded[j] ? newBlock(region) : graph.nodes[joins[j]];
    pending.erase(joins[j]);
    pending.insert(graph.out[joins[j]].begin(), graph.out[joins[j]].end());
  }
  Block* lastExit = exitTo;
  if ((count == 0 && isHeader) || (count > 0 && guarded[count - 1])) {
    lastExit = newBlock(region);
    if (graph.out[node].empty()) {
      unreachable(lastExit);
    } else if (exitTo) {
      branch(lastExit, exitTo);
    } else {
      return internalError(module_, function_, "no way out of the region of %" + std::to_string(block->id()));
    }
  }
  auto partExit = [&](size_t part) { return part < count ? entries[part] : lastExit; };

  Block* exit = partExit(0);
  for (int join : graph.jumps[node]) {
    if (!exit) return internalError(module_, function_, "block %" + std::to_string(block->id()) + " has nowhere to go");
    variables_[nextVariable].definitions[block] = uintConstant(static_cast<uint32_t>(join));
    retarget(module_, terminator, graph.nodes[join], exit);
  }
  if (isHeader) insertSelectionMerge(block, exit);
  for (int kid : treeKids) CL2VK_TRY(emit(region, graph, nextVariable, kid, exit));

  uint32_t uintType = ir::typeInt(module_, 32, false);
  for (size_t j = 0; j < count; ++j) {
    Block* after = partExit(j + 1);
    if (guarded[j]) {
      ir::Builder builder = ir::Builder::atEnd(module_, *entries[j]);
      Instruction* test = builder.add(spv::Op::OpIEqual, ir::typeBool(module_),
                                      {Operand::id(undef(uintType)), Operand::id(uintConstant(static_cast<uint32_t>(joins[j])))});
      reads_.push_back({test, 0, nextVariable, entries[j]});
      builder.add(spv::Op::OpSelectionMerge, 0,
                  {Operand::id(after->id()), Operand::enumerant(SPV_OPERAND_TYPE_SELECTION_CONTROL, 0)});
      builder.add(spv::Op::OpBranchConditional, 0,
                  {Operand::id(test->resultId()), Operand::id(graph.nodes[joins[j]]->id()), Operand::id(after->id())});
    }
    CL2VK_TRY(emit(region, graph, nextVariable, joins[j], after));
  }
  return okStatus();
}

int FunctionStructurizer::newVariable(uint32_t type) {
  variables_.emplace_back();
  variables_.back().type = type;
  return static_cast<int>(variables_.size() - 1);
}

int FunctionStructurizer::valueVariable(uint32_t id) {
  auto it = valueVariables_.find(id);
  if (it != valueVariables_.end()) return it->second;
  const Instruction* def = module_.def(id);
  int variable = newVariable(def->typeId());
  variables_[variable].ssaValue = id;
  variables_[variable].ssaBlock = def->block();
  variables_[variable].definitions[def->block()] = id;
  valueVariables_[id] = variable;
  return variable;
}

uint32_t FunctionStructurizer::readAtEnd(int variable, Block* block) {
  Variable& var = variables_[variable];
  if (var.ssaValue && cfg_->dominates(var.ssaBlock, block)) return var.ssaValue;
  auto it = var.definitions.find(block);
  if (it != var.definitions.end()) return it->second;
  return readAtEntry(variable, block);
}

uint32_t FunctionStructurizer::readAtEntry(int variable, Block* block) {
  Variable& var = variables_[variable];
  if (var.ssaValue && var.ssaBlock != block && cfg_->dominates(var.ssaBlock, block)) return var.ssaValue;
  auto cached = var.atEntry.find(block);
  if (cached != var.atEntry.end()) return cached->second;
  const auto& preds = cfg_->predecessors(block);
  uint32_t value;
  if (preds.empty()) {
    value = undef(var.type);
  } else if (preds.size() == 1) {
    value = readAtEnd(variable, preds[0]);
  } else {
    // The placeholder phi breaks cycles through loops; its operands are filled in afterwards.
    Instruction* phi = module_.insertAfter(&block->instructions().front(),
                                           Instruction(spv::Op::OpPhi, var.type, module_.takeId()));
    var.atEntry[block] = phi->resultId();
    std::vector<Operand> operands;
    for (Block* pred : preds) {
      operands.push_back(Operand::id(readAtEnd(variable, pred)));
      operands.push_back(Operand::id(pred->id()));
    }
    module_.update(phi, Instruction(spv::Op::OpPhi, phi->typeId(), phi->resultId(), std::move(operands)));
    value = phi->resultId();
  }
  variables_[variable].atEntry[block] = value;
  return value;
}

uint32_t FunctionStructurizer::undef(uint32_t type) {
  auto it = undefs_.find(type);
  if (it != undefs_.end()) return it->second;
  for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpUndef && inst.typeId() == type) return undefs_[type] = inst.resultId();
  }
  uint32_t id = module_.takeId();
  module_.append(ir::Section::kGlobal, Instruction(spv::Op::OpUndef, type, id));
  return undefs_[type] = id;
}

Status FunctionStructurizer::rebuildSsa() {
  cfg_ = std::make_unique<Cfg>(module_, function_);
  auto isLocal = [this](uint32_t id) {
    const Instruction* def = module_.def(id);
    return def && def->block() && def->block()->function() == &function_ && def->opcode() != spv::Op::OpLabel;
  };

  // Uses that their definition no longer dominates, gathered before any phi is added.
  struct Use {
    Instruction* user;
    size_t operand;
    uint32_t value;
  };
  std::vector<Use> broken;
  for (Block* block : cfg_->reversePostOrder()) {
    for (Instruction& inst : block->instructions()) {
      if (inst.opcode() == spv::Op::OpPhi) continue;
      for (size_t i = 0; i < inst.numOperands(); ++i) {
        if (!inst.operand(i).isId() || !isLocal(inst.idOperand(i))) continue;
        Block* defBlock = module_.def(inst.idOperand(i))->block();
        if (defBlock != block && !cfg_->dominates(defBlock, block)) broken.push_back({&inst, i, inst.idOperand(i)});
      }
    }
  }

  // The input's phis: each incoming value is what the phi's variable holds at the end of its
  // original predecessor, which still runs right before the block whatever now lies between.
  for (PhiRecord& record : phis_) {
    if (!cfg_->isReachable(record.block)) return internalError(module_, function_, "a phi's block became unreachable");
    int variable = newVariable(record.phi->typeId());
    for (auto& [value, pred] : record.incoming) {
      uint32_t resolved = isLocal(value) ? readAtEnd(valueVariable(value), pred) : value;
      variables_[variable].definitions[pred] = resolved;
    }
    variables_[variable].atEntry[record.block] = record.phi->resultId();
    std::vector<Operand> operands;
    for (Block* pred : cfg_->predecessors(record.block)) {
      operands.push_back(Operand::id(readAtEnd(variable, pred)));
      operands.push_back(Operand::id(pred->id()));
    }
    module_.update(record.phi, Instruction(spv::Op::OpPhi, record.phi->typeId(), record.phi->resultId(), std::move(operands)));
  }

  for (const PendingRead& read : reads_) {
    std::vector<Operand> operands = read.user->operands();
    operands[read.operand] = Operand::id(readAtEntry(read.variable, read.block));
    module_.update(read.user, Instruction(read.user->opcode(), read.user->typeId(), read.user->resultId(), std::move(operands)));
  }

  for (const Use& use : broken) {
    std::vector<Operand> operands = use.user->operands();
    operands[use.operand] = Operand::id(readAtEntry(valueVariable(use.value), use.user->block()));
    module_.update(use.user, Instruction(use.user->opcode(), use.user->typeId(), use.user->resultId(), std::move(operands)));
  }
  return okStatus();
}

void FunctionStructurizer::removeTrivialPhis() {
  for (bool changed = true; changed;) {
    changed = false;
    for (Block& block : function_.blocks()) {
      for (auto it = block.instructions().begin(); it != block.instructions().end();) {
        Instruction& phi = *it++;
        if (phi.opcode() == spv::Op::OpLabel || isLineInstruction(phi.opcode())) continue;
        if (phi.opcode() != spv::Op::OpPhi) break;
        uint32_t only = 0;
        bool trivial = true;
        for (size_t i = 0; i < phi.numOperands(); i += 2) {
          uint32_t value = phi.idOperand(i);
          if (value == phi.resultId() || value == only) continue;
          if (only) trivial = false;
          only = value;
        }
        if (!trivial) continue;
        if (!only) only = undef(phi.typeId());
        module_.replaceAllUses(phi.resultId(), only);
        (void)module_.remove(&phi);
        changed = true;
      }
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

std::vector<uint32_t> encodeBody(const ir::Function& function) {
  std::vector<uint32_t> words;
  for (const Block& block : function.blocks()) {
    for (const Instruction& inst : block.instructions()) inst.encode(words);
  }
  return words;
}

}  // namespace

Expected<PassResult> structurizeControlFlow(ir::Module& module, const Target&) {
  bool changed = false;
  for (ir::Function& function : module.functions()) {
    if (function.isDeclaration()) continue;
    std::vector<uint32_t> before = encodeBody(function);
    FunctionStructurizer structurizer(module, function);
    CL2VK_TRY(structurizer.run());
    changed = changed || encodeBody(function) != before;
  }
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
