#include "analysis/cfg.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace cl2vk {
namespace {

// A function with a loop (header, body, continue with a back edge) that exits from two places,
// and a return after it:
//   entry -> header; header -> body | exit; body -> latch | exit; latch -> header; exit -> ret
const char* kLoop = R"(
; Version: 1.3
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpName %entry "entry"
               OpName %header "header"
               OpName %body "body"
               OpName %latch "latch"
               OpName %exit "exit"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %true = OpConstantTrue %bool
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpBranch %header
     %header = OpLabel
               OpBranchConditional %true %body %exit
       %body = OpLabel
               OpBranchConditional %true %latch %exit
      %latch = OpLabel
               OpBranch %header
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)";

uint32_t labelNamed(const ir::Module& module, const std::string& name) {
  for (const ir::Instruction& inst : module.section(ir::Section::kDebug)) {
    if (inst.opcode() == spv::Op::OpName && inst.stringOperand(1) == name) return inst.idOperand(0);
  }
  return 0;
}

ir::Block* blockNamed(const ir::Module& module, const std::string& name) {
  return module.def(labelNamed(module, name))->block();
}

std::vector<std::string> names(const ir::Module& module, const std::vector<ir::Block*>& blocks) {
  std::vector<std::string> result;
  for (const ir::Block* block : blocks) result.push_back(module.name(block->id()));
  return result;
}

TEST(CfgTest, SuccessorsPredecessorsAndReversePostOrderFollowTheTerminators) {
  auto module = test::assemble(kLoop);
  ASSERT_TRUE(module);
  Cfg cfg(*module, module->functions().front());
  EXPECT_EQ(names(*module, cfg.reversePostOrder()),
            (std::vector<std::string>{"entry", "header", "body", "exit", "latch"}));
  EXPECT_EQ(names(*module, cfg.successors(blockNamed(*module, "body"))), (std::vector<std::string>{"latch", "exit"}));
  EXPECT_EQ(names(*module, cfg.predecessors(blockNamed(*module, "header"))),
            (std::vector<std::string>{"entry", "latch"}));
  EXPECT_EQ(names(*module, cfg.predecessors(blockNamed(*module, "exit"))),
            (std::vector<std::string>{"header", "body"}));
  EXPECT_TRUE(cfg.successors(blockNamed(*module, "exit")).empty());
}

TEST(CfgTest, DominatorsAndPostDominators) {
  auto module = test::assemble(kLoop);
  ASSERT_TRUE(module);
  Cfg cfg(*module, module->functions().front());
  ir::Block* entry = blockNamed(*module, "entry");
  ir::Block* header = blockNamed(*module, "header");
  ir::Block* body = blockNamed(*module, "body");
  ir::Block* latch = blockNamed(*module, "latch");
  ir::Block* exit = blockNamed(*module, "exit");
  EXPECT_EQ(cfg.immediateDominator(entry), nullptr);
  EXPECT_EQ(cfg.immediateDominator(exit), header);
  EXPECT_EQ(cfg.immediateDominator(latch), body);
  EXPECT_TRUE(cfg.dominates(header, latch));
  EXPECT_FALSE(cfg.dominates(body, exit));
  EXPECT_EQ(cfg.immediatePostDominator(body), exit);
  EXPECT_EQ(cfg.immediatePostDominator(exit), nullptr);
  EXPECT_TRUE(cfg.postDominates(exit, entry));
  EXPECT_FALSE(cfg.postDominates(body, header));
}

TEST(CfgTest, NaturalLoopHasItsHeaderLatchBodyAndExits) {
  auto module = test::assemble(kLoop);
  ASSERT_TRUE(module);
  Cfg cfg(*module, module->functions().front());
  ASSERT_EQ(cfg.loops().size(), 1u);
  const Loop& loop = cfg.loops()[0];
  EXPECT_EQ(module->name(loop.header->id()), "header");
  EXPECT_EQ(names(*module, loop.latches), (std::vector<std::string>{"latch"}));
  EXPECT_EQ(names(*module, loop.blocks), (std::vector<std::string>{"header", "body", "latch"}));
  ASSERT_EQ(loop.exits.size(), 2u);
  EXPECT_EQ(module->name(loop.exits[0].first->id()), "header");
  EXPECT_EQ(module->name(loop.exits[1].first->id()), "body");
  EXPECT_EQ(loop.parent, -1);
  EXPECT_TRUE(cfg.isBackEdge(blockNamed(*module, "latch"), loop.header));
  EXPECT_EQ(cfg.innermostLoop(blockNamed(*module, "exit")), -1);
  EXPECT_EQ(cfg.innermostLoop(blockNamed(*module, "body")), 0);
  EXPECT_TRUE(cfg.isReducible());
}

TEST(CfgTest, CycleWithTwoEntriesIsIrreducible) {
  std::string text = kLoop;
  // entry now branches into the middle of the loop as well as to its header.
  const std::string from = "OpBranch %header\n     %header = OpLabel";
  text.replace(text.find(from), from.size(), "OpBranchConditional %true %header %latch\n     %header = OpLabel");
  auto module = test::assemble(text);
  ASSERT_TRUE(module);
  Cfg cfg(*module, module->functions().front());
  auto cycle = cfg.irreducibleCycle();
  ASSERT_TRUE(cycle.has_value());
  EXPECT_EQ(module->name(cycle->header->id()), "header");
  EXPECT_EQ(module->name(cycle->sideEntry->id()), "latch");
}

}  // namespace
}  // namespace cl2vk
