// Random reducible control-flow graphs as SPIR-V assembly, for differential tests of passes that
// rewrite control flow. A seed gives a function `f(x, y)` whose blocks form a random DAG (two-way
// branches, three-way switches, returns, joins with phis) plus back edges to dominators (so every
// cycle is a natural loop: reducible, and with loops that have several exits, continues from
// anywhere and exits of several loops at once). Every block stores a hash of the path so far to a
// Function variable (the side-effect trace), and decides where to go from bits of that hash; a
// "fuel" variable bounds how often back edges are taken, so every run terminates.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace cl2vk::test {

inline std::string randomReducibleFunction(uint32_t seed, bool kernel) {
  std::mt19937 rng(seed);
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int n = pick(3, 20);

  enum class Kind { kReturn, kBranch, kConditional, kSwitch };
  struct Node {
    Kind kind = Kind::kReturn;
    std::vector<int> targets;  // forward targets
    int backEdge = 0;          // header of the back edge, 0 when none
    std::vector<int> preds;    // every predecessor, back edges included
  };
  std::vector<Node> nodes(n + 1);
  std::vector<int> forwardPreds(n + 2, 0);
  for (int i = 1; i <= n; ++i) {
    Node& node = nodes[i];
    if (i == n) break;
    auto forward = [&]() { return pick(i + 1, std::min(n, i + 4)); };
    int roll = pick(0, 99);
    bool mustFeedNext = forwardPreds[i + 1] == 0;
    if (roll < 12 && i > 1 && !mustFeedNext) {
      node.kind = Kind::kReturn;
    } else if (roll < 55) {
      node.kind = Kind::kConditional;
    } else if (roll < 68 && n - i >= 3) {
      node.kind = Kind::kSwitch;
    } else {
      node.kind = Kind::kBranch;
    }
    size_t count = node.kind == Kind::kBranch        ? 1
                   : node.kind == Kind::kConditional ? 2
                   : node.kind == Kind::kSwitch      ? 3
                                                     : 0;
    std::set<int> chosen;
    if (count > 0 && mustFeedNext) chosen.insert(i + 1);
    for (int tries = 0; chosen.size() < count && tries < 20; ++tries) chosen.insert(forward());
    if (chosen.size() < count) {
      node.kind = chosen.size() == 1 ? Kind::kBranch : Kind::kConditional;
      if (chosen.size() == 0) node.kind = Kind::kReturn;
    }
    node.targets.assign(chosen.begin(), chosen.end());
    std::shuffle(node.targets.begin(), node.targets.end(), rng);
    for (int t : node.targets) ++forwardPreds[t];
  }
  for (int i = 1; i <= n; ++i) {
    for (int t : nodes[i].targets) nodes[t].preds.push_back(i);
  }
  // Dominators of the DAG (node 1 is the root; nodes are in topological order).
  std::vector<std::set<int>> dominators(n + 1);
  for (int i = 1; i <= n; ++i) {
    if (i == 1 || nodes[i].preds.empty()) {
      dominators[i] = {i};
      continue;
    }
    std::set<int> common = dominators[nodes[i].preds[0]];
    for (int p : nodes[i].preds) {
      std::set<int> kept;
      for (int d : common) {
        if (dominators[p].contains(d)) kept.insert(d);
      }
      common = kept;
    }
    common.insert(i);
    dominators[i] = common;
  }
  auto idom = [&](int i) {
    int best = 0;
    for (int d : dominators[i]) {
      if (d != i) best = std::max(best, d);
    }
    return best;
  };
  // Back edges from single-successor blocks to one of their dominators.
  for (int i = 1; i < n; ++i) {
    Node& node = nodes[i];
    if (node.kind != Kind::kBranch || pick(0, 99) >= 45) continue;
    std::vector<int> candidates(dominators[i].begin(), dominators[i].end());
    node.backEdge = candidates[pick(0, static_cast<int>(candidates.size()) - 1)];
    nodes[node.backEdge].preds.push_back(i);
  }

  std::string text;
  if (kernel) {
    text +=
        "; Version: 1.2\nOpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
        "OpEntryPoint Kernel %main \"main\"\n";
  } else {
    text +=
        "; Version: 1.3\nOpCapability Shader\nOpMemoryModel Logical GLSL450\n"
        "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n";
  }
  text +=
      "OpName %f \"f\"\n"
      "%void = OpTypeVoid\n%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n"
      "%fnv = OpTypeFunction %void\n%fnf = OpTypeFunction %uint %uint %uint\n"
      "%ptr = OpTypePointer Function %uint\n"
      "%c0 = OpConstant %uint 0\n%c1 = OpConstant %uint 1\n%c2 = OpConstant %uint 2\n%c3 = OpConstant %uint 3\n"
      "%c6 = OpConstant %uint 6\n%cmul = OpConstant %uint 2654435761\n";
  for (int shift = 8; shift < 24; ++shift)
    text += "%s" + std::to_string(shift) + " = OpConstant %uint " + std::to_string(shift) + "\n";
  text +=
      "%f = OpFunction %uint None %fnf\n%x = OpFunctionParameter %uint\n%y = OpFunctionParameter %uint\n"
      "%b0 = OpLabel\n%state = OpVariable %ptr Function\n%fuel = OpVariable %ptr Function\n"
      "OpStore %state %x\nOpStore %fuel %c6\nOpBranch %b1\n";
  auto v = [](int i) { return "%v" + std::to_string(i); };
  auto b = [](int i) { return "%b" + std::to_string(i); };
  for (int i = 1; i <= n; ++i) {
    const Node& node = nodes[i];
    std::string id = std::to_string(i);
    text += b(i) + " = OpLabel\n";
    std::string base;
    if (node.preds.size() >= 2 || (i == 1 && !node.preds.empty())) {
      text += "%phi" + id + " = OpPhi %uint";
      if (i == 1) text += " %y %b0";
      for (int p : node.preds) text += " " + v(p) + " " + b(p);
      text += "\n";
      base = "%phi" + id;
    } else if (node.preds.size() == 1) {
      base = v(node.preds[0]);
    } else {
      base = "%y";
    }
    int dom = idom(i);
    std::string extra = dom > 0 ? v(dom) : "%y";
    text += "%ld" + id + " = OpLoad %uint %state\n";
    text += "%mx" + id + " = OpIMul %uint %ld" + id + " %cmul\n";
    text += "%sum" + id + " = OpIAdd %uint %mx" + id + " " + base + "\n";
    text += v(i) + " = OpIAdd %uint %sum" + id + " " + extra + "\n";
    text += "OpStore %state " + v(i) + "\n";
    std::string shift = "%s" + std::to_string(8 + (i * 5) % 16);
    text += "%hi" + id + " = OpShiftRightLogical %uint " + v(i) + " " + shift + "\n";
    switch (node.kind) {
      case Kind::kReturn: text += "OpReturnValue " + v(i) + "\n"; break;
      case Kind::kBranch:
        if (node.backEdge) {
          text += "%fl" + id + " = OpLoad %uint %fuel\n";
          text += "%ok" + id + " = OpINotEqual %bool %fl" + id + " %c0\n";
          text += "%dec" + id + " = OpISub %uint %fl" + id + " %c1\n";
          text += "%nf" + id + " = OpSelect %uint %ok" + id + " %dec" + id + " %c0\n";
          text += "OpStore %fuel %nf" + id + "\n";
          text += "%bit" + id + " = OpBitwiseAnd %uint %hi" + id + " %c1\n";
          text += "%want" + id + " = OpINotEqual %bool %bit" + id + " %c0\n";
          text += "%go" + id + " = OpLogicalAnd %bool %ok" + id + " %want" + id + "\n";
          text += "OpBranchConditional %go" + id + " " + b(node.backEdge) + " " + b(node.targets[0]) + "\n";
        } else {
          text += "OpBranch " + b(node.targets[0]) + "\n";
        }
        break;
      case Kind::kConditional:
        text += "%bit" + id + " = OpBitwiseAnd %uint %hi" + id + " %c1\n";
        text += "%cond" + id + " = OpINotEqual %bool %bit" + id + " %c0\n";
        text += "OpBranchConditional %cond" + id + " " + b(node.targets[0]) + " " + b(node.targets[1]) + "\n";
        break;
      case Kind::kSwitch:
        text += "%sel" + id + " = OpUMod %uint %hi" + id + " %c3\n";
        text += "OpSwitch %sel" + id + " " + b(node.targets[0]) + " 1 " + b(node.targets[1]) + " 2 " +
                b(node.targets[2]) + "\n";
        break;
    }
  }
  text += "OpFunctionEnd\n";
  text +=
      "%main = OpFunction %void None %fnv\n%entry = OpLabel\n%r = OpFunctionCall %uint %f %c1 "
      "%c2\nOpReturn\nOpFunctionEnd\n";
  return text;
}

}  // namespace cl2vk::test
