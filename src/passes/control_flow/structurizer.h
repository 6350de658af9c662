// What structurize-cfg keeps while it restructures one function (structurize_cfg.cc gives the
// algorithm and runs it): the loops in their canonical shape (loop_shapes.cc), each acyclic region
// as a graph (acyclic_regions.cc) and the values to rebuild as SSA at the end (ssa_rebuild.cc),
// with the small CFG helpers they share.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/cfg.h"
#include "cl2vk/expected.h"
#include "ir/module.h"
#include "ir/types.h"

namespace cl2vk::structurize {

using ir::Block;
using ir::Instruction;
using ir::Module;
using ir::Operand;

constexpr int kFunctionRegion = -1;

bool isLineInstruction(spv::Op opcode);

Block* blockOf(const Module& module, uint32_t label);

// Rewrites the branch targets of `branch` that name `from` so that they name `to`.
void retarget(Module& module, Instruction* branch, const Block* from, const Block* to);

std::vector<Block*> distinctTargets(const Module& module, Block& block);

Error internalError(const Module& module, const ir::Function& function, const std::string& what);

// A value rebuilt as SSA at the end (Braun et al.): its definitions at the ends of blocks, and for
// a value of the input its one definition, which makes every block it dominates read it directly.
struct Variable {
  uint32_t type = 0;
  std::unordered_map<const Block*, uint32_t> definitions;
  uint32_t ssaValue = 0;
  const Block* ssaBlock = nullptr;
  std::unordered_map<const Block*, uint32_t> atEntry;  // kPending while its predecessors are read
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
  // `loopExitPhis`: Target::loopExitPhis (loop_closing.cc).
  FunctionStructurizer(Module& module, ir::Function& function, bool loopExitPhis)
      : module_(module), function_(function), loopExitPhis_(loopExitPhis) {}

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
  void closeLoops();
  bool closeLoop(int loop, const std::unordered_set<const Block*>& inside);
  bool keepMergePhis(int loop, const std::unordered_set<const Block*>& inside);
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
  static constexpr uint32_t kPending = 0;  // an atEntry mark: the block's predecessors are being read
  uint32_t readAtEntry(int variable, Block* block);
  uint32_t undef(uint32_t type);
  uint32_t uintConstant(uint32_t value) { return ir::constantUint(module_, 32, value); }

  Module& module_;
  ir::Function& function_;
  bool loopExitPhis_;
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

}  // namespace cl2vk::structurize
