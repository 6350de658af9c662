// structurize-cfg, step (3): the acyclic region inside each loop body, and the function outside
// all loops, is built as a graph (nested loops as single nodes) and structured on its dominator
// tree: selection merges of their own, joins placed after their immediate dominator's subtree, and
// guards on a per-region "next" value where SPIR-V has no multi-level break.
#include <set>
#include <unordered_map>
#include <vector>

#include "ir/builder.h"
#include "ir/types.h"
#include "passes/control_flow/structurizer.h"

namespace cl2vk::structurize {

Expected<RegionGraph> FunctionStructurizer::buildRegionGraph(int region, Block* entry) {
  auto successorsOf = [&](Block* block) -> Expected<std::vector<Block*>> {
    auto header = headerOf_.find(block);
    if (header != headerOf_.end()) return std::vector<Block*>{loops_[header->second].merge};
    std::vector<Block*> result;
    for (Block* target : distinctTargets(module_, *block)) {
      if (isFree(region, target)) continue;
      auto owner = owner_.find(target);
      if (owner == owner_.end() || owner->second != region)
        return internalError(
            module_, function_,
            "block %" + std::to_string(block->id()) + " leaves its region for %" + std::to_string(target->id()));
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
      if (it->second == 1)
        return internalError(module_, function_, "cycle left in the region of %" + std::to_string(entry->id()));
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
      Instruction* test =
          builder.add(spv::Op::OpIEqual, ir::typeBool(module_),
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

}  // namespace cl2vk::structurize
