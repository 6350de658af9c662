#include "analysis/cfg.h"

#include <algorithm>
#include <deque>

namespace cl2vk {
namespace {

const std::vector<ir::Block*> kNoBlocks;

// Cooper, Harvey and Kennedy's "A Simple, Fast Dominance Algorithm": `order` lists the nodes in
// reverse post-order of the graph walked (node 0 is the root), `preds` the predecessors by index.
std::vector<int> immediateDominators(const std::vector<std::vector<int>>& preds) {
  size_t n = preds.size();
  std::vector<int> idom(n, -1);
  if (n == 0) return idom;
  idom[0] = 0;
  auto intersect = [&idom](int a, int b) {
    while (a != b) {
      while (a > b) a = idom[a];
      while (b > a) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t node = 1; node < n; ++node) {
      int chosen = -1;
      for (int pred : preds[node]) {
        if (idom[pred] < 0) continue;
        chosen = chosen < 0 ? pred : intersect(pred, chosen);
      }
      if (chosen >= 0 && idom[node] != chosen) {
        idom[node] = chosen;
        changed = true;
      }
    }
  }
  return idom;
}

}  // namespace

std::vector<uint32_t> successorLabels(const ir::Instruction& terminator) {
  std::vector<uint32_t> labels;
  switch (terminator.opcode()) {
    case spv::Op::OpBranch: labels.push_back(terminator.idOperand(0)); break;
    case spv::Op::OpBranchConditional:
      labels.push_back(terminator.idOperand(1));
      labels.push_back(terminator.idOperand(2));
      break;
    case spv::Op::OpSwitch:
      // Selector, default, then (literal, label) pairs.
      for (size_t i = 1; i < terminator.numOperands(); ++i) {
        if (terminator.operand(i).isId()) labels.push_back(terminator.idOperand(i));
      }
      break;
    default: break;
  }
  return labels;
}

Cfg::Cfg(const ir::Module& module, ir::Function& function) {
  computeOrder(module, function);
  computeDominators();
  computePostDominators();
  computeLoops();
}

void Cfg::computeOrder(const ir::Module& module, ir::Function& function) {
  if (function.blocks().empty()) return;
  auto successorsOf = [&module](ir::Block* block) {
    std::vector<ir::Block*> result;
    for (uint32_t label : successorLabels(*block->terminator())) {
      const ir::Instruction* def = module.def(label);
      ir::Block* target = def ? def->block() : nullptr;
      if (target && std::find(result.begin(), result.end(), target) == result.end()) result.push_back(target);
    }
    return result;
  };

  // Iterative depth-first walk; successors in operand order.
  struct Frame {
    ir::Block* block;
    std::vector<ir::Block*> successors;
    size_t next = 0;
  };
  std::unordered_map<const ir::Block*, int> state;  // 1 on the stack, 2 finished
  std::unordered_map<const ir::Block*, ir::Block*> parentOf;
  std::vector<ir::Block*> postOrder;
  std::vector<std::pair<ir::Block*, ir::Block*>> retreating;
  std::vector<Frame> stack;
  ir::Block* root = &function.blocks().front();
  stack.push_back({root, successorsOf(root), 0});
  state[root] = 1;
  parentOf[root] = nullptr;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next == top.successors.size()) {
      state[top.block] = 2;
      postOrder.push_back(top.block);
      stack.pop_back();
      continue;
    }
    ir::Block* succ = top.successors[top.next++];
    auto it = state.find(succ);
    if (it == state.end()) {
      state[succ] = 1;
      parentOf[succ] = top.block;
      stack.push_back({succ, successorsOf(succ), 0});
    } else if (it->second == 1) {
      retreating.emplace_back(top.block, succ);
    }
  }

  order_.assign(postOrder.rbegin(), postOrder.rend());
  for (size_t i = 0; i < order_.size(); ++i) index_[order_[i]] = static_cast<int>(i);
  successors_.resize(order_.size());
  predecessors_.resize(order_.size());
  dfsParent_.assign(order_.size(), -1);
  for (size_t i = 0; i < order_.size(); ++i) {
    successors_[i] = successorsOf(order_[i]);
    if (ir::Block* parent = parentOf[order_[i]]) dfsParent_[i] = index_.at(parent);
  }
  for (size_t i = 0; i < order_.size(); ++i) {
    for (ir::Block* succ : successors_[i]) predecessors_[index_.at(succ)].push_back(order_[i]);
  }
  for (auto& [from, to] : retreating) retreatingEdges_.emplace_back(index_.at(from), index_.at(to));
}

int Cfg::orderIndex(const ir::Block* block) const {
  auto it = index_.find(block);
  return it == index_.end() ? -1 : it->second;
}

const std::vector<ir::Block*>& Cfg::successors(const ir::Block* block) const {
  int i = orderIndex(block);
  return i < 0 ? kNoBlocks : successors_[i];
}

const std::vector<ir::Block*>& Cfg::predecessors(const ir::Block* block) const {
  int i = orderIndex(block);
  return i < 0 ? kNoBlocks : predecessors_[i];
}

void Cfg::computeDominators() {
  std::vector<std::vector<int>> preds(order_.size());
  for (size_t i = 0; i < order_.size(); ++i) {
    for (ir::Block* pred : predecessors_[i]) preds[i].push_back(index_.at(pred));
  }
  idom_ = immediateDominators(preds);
  if (!idom_.empty()) idom_[0] = -1;
}

ir::Block* Cfg::immediateDominator(const ir::Block* block) const {
  int i = orderIndex(block);
  return i <= 0 ? nullptr : order_[idom_[i]];
}

bool Cfg::dominates(const ir::Block* a, const ir::Block* b) const {
  int ia = orderIndex(a), ib = orderIndex(b);
  if (ia < 0 || ib < 0) return false;
  // A dominator comes before what it dominates in reverse post-order.
  while (ib > ia) ib = idom_[ib];
  return ib == ia;
}

void Cfg::computePostDominators() {
  // The reverse graph, rooted at a virtual exit that every block without successors branches to.
  size_t n = order_.size();
  const int exitNode = static_cast<int>(n);
  std::vector<std::vector<int>> reverseSuccs(n + 1);
  for (size_t i = 0; i < n; ++i) {
    if (successors_[i].empty()) reverseSuccs[exitNode].push_back(static_cast<int>(i));
    for (ir::Block* pred : predecessors_[i]) reverseSuccs[i].push_back(index_.at(pred));
  }
  // Reverse post-order of the reverse graph from the virtual exit.
  std::vector<int> post;
  std::vector<char> seen(n + 1, 0);
  std::vector<std::pair<int, size_t>> stack = {{exitNode, 0}};
  seen[exitNode] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next == reverseSuccs[node].size()) {
      post.push_back(node);
      stack.pop_back();
      continue;
    }
    int succ = reverseSuccs[node][next++];
    if (!seen[succ]) {
      seen[succ] = 1;
      stack.push_back({succ, 0});
    }
  }
  std::vector<int> rpo(post.rbegin(), post.rend());
  std::vector<int> position(n + 1, -1);
  for (size_t i = 0; i < rpo.size(); ++i) position[rpo[i]] = static_cast<int>(i);
  // Predecessors in the reverse graph are the successors in the original one.
  std::vector<std::vector<int>> preds(rpo.size());
  for (size_t i = 0; i < rpo.size(); ++i) {
    int node = rpo[i];
    if (node == exitNode) continue;
    if (successors_[node].empty()) preds[i].push_back(position[exitNode]);
    for (ir::Block* succ : successors_[node]) {
      int p = position[index_.at(succ)];
      if (p >= 0) preds[i].push_back(p);
    }
  }
  std::vector<int> idom = immediateDominators(preds);
  ipdom_.assign(n, -2);
  pdDepth_.assign(n, -1);
  for (size_t i = 1; i < rpo.size(); ++i) {
    int parent = rpo[idom[i]];
    ipdom_[rpo[i]] = parent == exitNode ? -1 : parent;
  }
  for (size_t i = 1; i < rpo.size(); ++i) {
    int node = rpo[i];
    int parent = ipdom_[node];
    pdDepth_[node] = parent < 0 ? 1 : pdDepth_[parent] + 1;  // parents come first in rpo
  }
}

ir::Block* Cfg::immediatePostDominator(const ir::Block* block) const {
  int i = orderIndex(block);
  return i < 0 || ipdom_[i] < 0 ? nullptr : order_[ipdom_[i]];
}

bool Cfg::postDominates(const ir::Block* a, const ir::Block* b) const {
  int ia = orderIndex(a), ib = orderIndex(b);
  if (ia < 0 || ib < 0 || pdDepth_[ia] < 0 || pdDepth_[ib] < 0) return false;
  while (ib >= 0 && pdDepth_[ib] > pdDepth_[ia]) ib = ipdom_[ib];
  return ib == ia;
}

bool Cfg::isBackEdge(const ir::Block* from, const ir::Block* to) const {
  const auto& succs = successors(from);
  return std::find(succs.begin(), succs.end(), to) != succs.end() && dominates(to, from);
}

void Cfg::computeLoops() {
  innermostLoop_.assign(order_.size(), -1);
  // Headers in reverse post-order, so that an enclosing loop comes before the loops it contains.
  std::vector<int> headers;
  for (size_t i = 0; i < order_.size(); ++i) {
    for (ir::Block* pred : predecessors_[i]) {
      if (dominates(order_[i], pred)) {
        headers.push_back(static_cast<int>(i));
        break;
      }
    }
  }
  for (int header : headers) {
    Loop loop;
    loop.header = order_[header];
    std::vector<char> inLoop(order_.size(), 0);
    inLoop[header] = 1;
    std::vector<int> work;
    for (ir::Block* pred : predecessors_[header]) {
      if (!dominates(order_[header], pred)) continue;
      loop.latches.push_back(pred);
      work.push_back(index_.at(pred));
    }
    while (!work.empty()) {
      int node = work.back();
      work.pop_back();
      if (inLoop[node]) continue;
      inLoop[node] = 1;
      for (ir::Block* pred : predecessors_[node]) work.push_back(index_.at(pred));
    }
    for (size_t i = 0; i < order_.size(); ++i) {
      if (!inLoop[i]) continue;
      loop.blocks.push_back(order_[i]);
      for (ir::Block* succ : successors_[i]) {
        if (!inLoop[index_.at(succ)]) loop.exits.emplace_back(order_[i], succ);
      }
    }
    // The innermost loop seen so far that holds the header encloses this one.
    loop.parent = innermostLoop_[header];
    loop.depth = loop.parent < 0 ? 1 : loops_[loop.parent].depth + 1;
    int self = static_cast<int>(loops_.size());
    for (size_t i = 0; i < order_.size(); ++i) {
      if (inLoop[i]) innermostLoop_[i] = self;
    }
    loops_.push_back(std::move(loop));
  }
}

int Cfg::innermostLoop(const ir::Block* block) const {
  int i = orderIndex(block);
  return i < 0 ? -1 : innermostLoop_[i];
}

std::optional<IrreducibleCycle> Cfg::irreducibleCycle() const {
  for (auto [from, to] : retreatingEdges_) {
    if (dominates(order_[to], order_[from])) continue;
    // `from` is reachable without passing `to`; the first block of the depth-first path from `to`
    // to `from` that is reachable that way is where the cycle is entered from the side.
    std::vector<char> reached(order_.size(), 0);
    std::deque<int> work;
    if (to != 0) {
      reached[0] = 1;
      work.push_back(0);
    }
    while (!work.empty()) {
      int node = work.front();
      work.pop_front();
      for (ir::Block* succ : successors_[node]) {
        int s = index_.at(succ);
        if (s == to || reached[s]) continue;
        reached[s] = 1;
        work.push_back(s);
      }
    }
    std::vector<int> path;
    for (int node = from; node != to && node >= 0; node = dfsParent_[node]) path.push_back(node);
    int side = from;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      if (reached[*it]) {
        side = *it;
        break;
      }
    }
    return IrreducibleCycle{order_[to], order_[side]};
  }
  return std::nullopt;
}

}  // namespace cl2vk
