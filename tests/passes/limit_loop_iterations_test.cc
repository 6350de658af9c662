// limit-loop-iterations: before/after tests of a kernel counting its loop-header executions and
// reporting, through the hidden loop-limit flag, a back-edge taken with the driver's budget spent.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

const std::string kHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %n "n"
)";

const std::string kTypes = R"(
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
         %fn = OpTypeFunction %void %uint
)";

// kernel void k(uint n) { uint i = 0; do ++i; while (i < n); }: one block that branches to itself.
const std::string kLoop = kHeader + kTypes + R"(
          %k = OpFunction %void None %fn
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)";

Target withLimit(uint32_t limit) {
  Target target;
  target.loopIterationLimit = limit;
  return target;
}

// The header counts every execution (after its phis); the latch notes, without a branch, whether
// it goes back with the budget spent (one pass early: docs/runtime.md, "Loop limit"); the return
// writes the flag, the hidden last parameter, only when that happened.
TEST(LimitLoopIterationsTest, HeaderExecutionsAreCountedAndASpentBackEdgeSetsTheFlag) {
  test::expectPassOutput("limit-loop-iterations", kLoop, kHeader + R"(
               OpName %flag "cl2vk.loop_limit_flag"
)" + kTypes + R"(
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
    %newtype = OpTypeFunction %void %uint %_ptr_CrossWorkgroup_uint
%_ptr_Function_uint = OpTypePointer Function %uint
      %false = OpConstantFalse %bool
%_ptr_Function_bool = OpTypePointer Function %bool
 %uint_65535 = OpConstant %uint 65535
          %k = OpFunction %void None %newtype
          %n = OpFunctionParameter %uint
       %flag = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
  %truncated = OpVariable %_ptr_Function_bool Function %false
      %count = OpVariable %_ptr_Function_uint Function %uint_0
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
         %c0 = OpLoad %uint %count
         %c1 = OpIAdd %uint %c0 %uint_1
               OpStore %count %c1
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
         %c2 = OpLoad %uint %count
      %spent = OpUGreaterThanEqual %bool %c2 %uint_65535
        %cut = OpLogicalAnd %bool %more %spent
         %t0 = OpLoad %bool %truncated
         %t1 = OpLogicalOr %bool %t0 %cut
               OpStore %truncated %t1
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
         %t2 = OpLoad %bool %truncated
               OpBranchConditional %t2 %set %after
        %set = OpLabel
               OpStore %flag %uint_1 Aligned 4
               OpBranch %after
      %after = OpLabel
               OpBranch %return
     %return = OpLabel
               OpReturn
               OpFunctionEnd
)",
                         withLimit(65536));
}

// A latch whose false branch goes back compares the negated condition.
TEST(LimitLoopIterationsTest, ABackEdgeOnTheFalseBranchUsesTheNegatedCondition) {
  std::string loop = kLoop;
  loop.replace(loop.find("%more = OpULessThan"), 19, "%more = OpUGreaterThanEqual");
  loop.replace(loop.find("OpBranchConditional %more %loop %exit"), 37, "OpBranchConditional %more %exit %loop");
  test::PassRun run = test::runPass("limit-loop-iterations", loop, withLimit(100));
  ASSERT_TRUE(run.error.empty()) << run.error;
  std::string text = run.text();
  EXPECT_NE(text.find("OpLogicalNot %bool"), std::string::npos) << text;
  EXPECT_NE(text.find("OpUGreaterThanEqual %bool %13 %uint_99"), std::string::npos) << text;
}

// Without a limit (every GPU, and any device cl2vk-opt is not told about) nothing changes.
TEST(LimitLoopIterationsTest, NothingChangesWithoutALimit) {
  test::PassRun run = test::runPass("limit-loop-iterations", kLoop, Target{});
  EXPECT_EQ(run.text(), test::canonicalAssembly(kLoop));
}

// A kernel without loops gets no hidden parameter, so its launches stay as they were.
TEST(LimitLoopIterationsTest, AKernelWithoutLoopsIsLeftAlone) {
  const std::string noLoop = kHeader + kTypes + R"(
          %k = OpFunction %void None %fn
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  EXPECT_EQ(test::runPass("limit-loop-iterations", noLoop, withLimit(65536)).text(), test::canonicalAssembly(noLoop));
}

}  // namespace
}  // namespace cl2vk
