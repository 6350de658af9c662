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

// The header counts every execution (after its phis); the return writes the flag, the hidden last
// parameter, only when the count reached the limit (one pass early: docs/runtime.md, "Loop
// limit"). The loop itself gains one addition.
TEST(LimitLoopIterationsTest, HeaderExecutionsAreCountedAndTheReturnSetsTheFlagAtTheLimit) {
  test::expectPassOutput("limit-loop-iterations", kLoop, kHeader + R"(
               OpName %flag "cl2vk.loop_limit_flag"
)" + kTypes + R"(
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
    %newtype = OpTypeFunction %void %uint %_ptr_CrossWorkgroup_uint
%_ptr_Function_uint = OpTypePointer Function %uint
 %uint_65535 = OpConstant %uint 65535
          %k = OpFunction %void None %newtype
          %n = OpFunctionParameter %uint
       %flag = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
      %count = OpVariable %_ptr_Function_uint Function %uint_0
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
         %c0 = OpLoad %uint %count
         %c1 = OpIAdd %uint %c0 %uint_1
               OpStore %count %c1
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
         %c2 = OpLoad %uint %count
    %reached = OpUGreaterThanEqual %bool %c2 %uint_65535
               OpBranchConditional %reached %set %after
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

// Nested loops count into the one counter, as the driver's one budget does: an addition in each
// header.
TEST(LimitLoopIterationsTest, NestedLoopsShareOneCount) {
  const std::string nested = kHeader + kTypes + R"(
          %k = OpFunction %void None %fn
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %outer
      %outer = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %latch
               OpBranch %inner
      %inner = OpLabel
          %j = OpPhi %uint %uint_0 %outer %jnext %inner
      %jnext = OpIAdd %uint %j %uint_1
      %jmore = OpULessThan %bool %jnext %n
               OpBranchConditional %jmore %inner %latch
      %latch = OpLabel
      %inext = OpIAdd %uint %i %uint_1
      %imore = OpULessThan %bool %inext %n
               OpBranchConditional %imore %outer %exit
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)";
  test::PassRun run = test::runPass("limit-loop-iterations", nested, withLimit(1000));
  ASSERT_TRUE(run.error.empty()) << run.error;
  std::string text = run.text();
  size_t counts = 0;
  for (size_t at = text.find("OpIAdd %uint"); at != std::string::npos; at = text.find("OpIAdd %uint", at + 1)) ++counts;
  EXPECT_EQ(counts, 4u) << text;  // the two headers' additions besides the kernel's own two
  EXPECT_NE(text.find("OpConstant %uint 999"), std::string::npos) << text;
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
