// The control-flow analyses of one function, computed once and asked for by any pass: successors
// and predecessors (from the terminators), reverse post-order, dominator and post-dominator trees,
// the natural-loop forest and whether the graph is reducible. The analysis is a snapshot: a pass
// that changes the blocks or their branches builds a new one.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/module.h"

namespace cl2vk {

// The labels a terminator branches to, in operand order (a switch may name one twice). Returns,
// kills and OpUnreachable have none.
std::vector<uint32_t> successorLabels(const ir::Instruction& terminator);

// A natural loop: the header, the blocks that branch back to it, and every block that reaches such
// a branch without passing the header (nested loops included).
struct Loop {
  ir::Block* header = nullptr;
  std::vector<ir::Block*> latches;  // reverse post-order
  std::vector<ir::Block*> blocks;   // reverse post-order; the header first
  // Edges from a block of the loop to a block outside it, in reverse post-order of their source.
  std::vector<std::pair<ir::Block*, ir::Block*>> exits;
  int parent = -1;  // index of the innermost enclosing loop in Cfg::loops(), or -1
  int depth = 1;    // 1 for an outermost loop
};

// A cycle that can be entered other than through one header: `sideEntry` lies on a cycle through
// `header` and is reachable from the function's entry without passing `header`.
struct IrreducibleCycle {
  ir::Block* header = nullptr;
  ir::Block* sideEntry = nullptr;
};

class Cfg {
 public:
  Cfg(const ir::Module& module, ir::Function& function);

  ir::Block* entry() const { return order_.empty() ? nullptr : order_.front(); }
  // The blocks reachable from the entry, in reverse post-order (successors visited in operand order).
  const std::vector<ir::Block*>& reversePostOrder() const { return order_; }
  bool isReachable(const ir::Block* block) const { return index_.contains(block); }
  // Position in reversePostOrder(), or -1 for an unreachable block.
  int orderIndex(const ir::Block* block) const;

  // Distinct successors in operand order, and distinct reachable predecessors in reverse
  // post-order. Empty for an unreachable block.
  const std::vector<ir::Block*>& successors(const ir::Block* block) const;
  const std::vector<ir::Block*>& predecessors(const ir::Block* block) const;

  // Null for the entry and for unreachable blocks.
  ir::Block* immediateDominator(const ir::Block* block) const;
  // Whether every path from the entry to `b` passes `a` (a block dominates itself).
  bool dominates(const ir::Block* a, const ir::Block* b) const;

  // Post-dominance towards the function's exits (returns, kills, OpUnreachable). Null means the
  // virtual exit; a block from which no exit is reachable has no post-dominator at all.
  ir::Block* immediatePostDominator(const ir::Block* block) const;
  bool postDominates(const ir::Block* a, const ir::Block* b) const;

  // Whether `from` -> `to` is an edge whose target dominates its source.
  bool isBackEdge(const ir::Block* from, const ir::Block* to) const;
  // The natural loops, outer loops before the loops they contain (ordered by header). Only
  // meaningful for a reducible graph.
  const std::vector<Loop>& loops() const { return loops_; }
  // Index of the innermost loop containing `block`, or -1.
  int innermostLoop(const ir::Block* block) const;

  // The first cycle (in depth-first order) that is entered other than through its header, or
  // nothing when the graph is reducible.
  std::optional<IrreducibleCycle> irreducibleCycle() const;
  bool isReducible() const { return !irreducibleCycle().has_value(); }

 private:
  void computeOrder(const ir::Module& module, ir::Function& function);
  void computeDominators();
  void computePostDominators();
  void computeLoops();

  std::vector<ir::Block*> order_;
  std::unordered_map<const ir::Block*, int> index_;
  std::vector<std::vector<ir::Block*>> successors_;
  std::vector<std::vector<ir::Block*>> predecessors_;
  std::vector<int> idom_;     // by order index; -1 for the entry
  std::vector<int> ipdom_;    // by order index; -1 for the virtual exit, -2 for none
  std::vector<int> pdDepth_;  // depth in the post-dominator tree; -1 when it has none
  std::vector<int> dfsParent_;
  std::vector<std::pair<int, int>> retreatingEdges_;  // (from, to) with `to` on the DFS stack
  std::vector<Loop> loops_;
  std::vector<int> innermostLoop_;
};

}  // namespace cl2vk
