// unroll-loops: before/after tests. A grid-stride loop of loads runs two (or four, or the
// PartialCount) iterations per pass where a test ahead says they all run, and one otherwise; loops whose coming
// iterations cannot be counted ahead, or whose copies would change what invocations do together, are left as they are.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

const std::string kHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %x "x"
               OpName %out "out"
               OpName %n "n"
               OpName %stride "stride"
)";

const std::string kTypes = R"(
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
   %uint_264 = OpConstant %uint 264
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%_ptr_Function_uint = OpTypePointer Function %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %_ptr_CrossWorkgroup_uint %uint %uint
)";

// kernel void k(global const uint* x, global uint* out, uint n, uint stride) {
//   uint acc = 0, i = 0; do { acc += x[i]; i += stride; } while (i < n); out[0] = acc; out[1] = i; }
// as LLVM rotates it: the latch tests the next index; acc and i are read after the loop.
std::string gridStride(const std::string& body) {
  return kHeader + kTypes + R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %_ptr_CrossWorkgroup_uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %n = OpFunctionParameter %uint
     %stride = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
        %acc = OpPhi %uint %uint_0 %entry %sum %loop
)" + body +
         R"(
       %next = OpIAdd %uint %i %stride
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
       %last = OpPhi %uint %sum %loop
               OpStore %out %last Aligned 4
        %at1 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %out %uint_2
               OpStore %at1 %next Aligned 4
               OpReturn
               OpFunctionEnd
)";
}

const std::string kLoadAndAdd = R"(
       %wide = OpUConvert %ulong %i
         %at = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %x %wide
          %v = OpLoad %uint %at Aligned 4
        %sum = OpIAdd %uint %acc %v
)";

Target unrollingBy(uint32_t count) {
  Target target;
  target.loopUnroll = count;
  return target;
}

// Two at a time: the header tests the second iteration's condition (computed from its own phi,
// wrapping as the loop would); when it continues, both copies run, else the original body runs
// once. The new latch takes the next values, the test and what is read after the loop from
// whichever ran, and is the loop's one exit.
TEST(UnrollLoopsTest, AGridStrideLoopRunsTwoIterationsPerPassWhenBothRun) {
  test::expectPassOutput("unroll-loops", gridStride(kLoadAndAdd), kHeader + kTypes + R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %_ptr_CrossWorkgroup_uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %n = OpFunctionParameter %uint
     %stride = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %head
       %head = OpLabel
         %hi = OpPhi %uint %uint_0 %entry %ni %latch
       %hacc = OpPhi %uint %uint_0 %entry %nsum %latch
      %ahead = OpIAdd %uint %hi %stride
  %aheadMore = OpULessThan %bool %ahead %n
               OpBranchConditional %aheadMore %copy0 %loop
      %copy0 = OpLabel
      %wide0 = OpUConvert %ulong %hi
        %at0 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %x %wide0
         %v0 = OpLoad %uint %at0 Aligned 4
       %sum0 = OpIAdd %uint %hacc %v0
      %next0 = OpIAdd %uint %hi %stride
      %more0 = OpULessThan %bool %next0 %n
               OpBranch %copy1
      %copy1 = OpLabel
      %wide1 = OpUConvert %ulong %next0
       %at1_ = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %x %wide1
         %v1 = OpLoad %uint %at1_ Aligned 4
       %sum1 = OpIAdd %uint %sum0 %v1
      %next1 = OpIAdd %uint %next0 %stride
      %more1 = OpULessThan %bool %next1 %n
               OpBranch %latch
       %loop = OpLabel
          %i = OpPhi %uint %hi %head
        %acc = OpPhi %uint %hacc %head
       %wide = OpUConvert %ulong %i
         %at = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %x %wide
          %v = OpLoad %uint %at Aligned 4
        %sum = OpIAdd %uint %acc %v
       %next = OpIAdd %uint %i %stride
       %more = OpULessThan %bool %next %n
               OpBranch %latch
      %latch = OpLabel
         %ni = OpPhi %uint %next1 %copy1 %next %loop
       %nsum = OpPhi %uint %sum1 %copy1 %sum %loop
      %nmore = OpPhi %bool %more1 %copy1 %more %loop
               OpBranchConditional %nmore %head %exit
       %exit = OpLabel
       %last = OpPhi %uint %nsum %latch
               OpStore %out %last Aligned 4
        %at1 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %out %uint_2
               OpStore %at1 %ni Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         unrollingBy(2), SPV_ENV_UNIVERSAL_1_2);
}

size_t loadsAfter(const std::string& pass, const std::string& before, const Target& target) {
  test::PassRun run = test::runPass(pass, before, target);
  EXPECT_TRUE(run.error.empty()) << run.error;
  return test::count(run.text(), "OpLoad %uint");
}

// By default a small body runs eight iterations per pass (eight copies besides the original), a
// body of more than 16 instructions four.
TEST(UnrollLoopsTest, TheDefaultCountFollowsTheBodysSize) {
  EXPECT_EQ(loadsAfter("unroll-loops", gridStride(kLoadAndAdd), Target{}), 9u);
  std::string larger = kLoadAndAdd;
  for (int i = 0; i < 12; ++i) larger += "         %pad" + std::to_string(i) + " = OpIAdd %uint %v %uint_2\n";
  EXPECT_EQ(loadsAfter("unroll-loops", gridStride(larger), Target{}), 5u);
}

// `#pragma unroll 3` (PartialCount 3 in the header's OpLoopMerge) chooses the count; `#pragma
// unroll 1` (DontUnroll) leaves the loop alone.
TEST(UnrollLoopsTest, TheLoopsOwnUnrollControlChoosesTheCount) {
  std::string partial = gridStride(kLoadAndAdd);
  partial.replace(partial.find("Version: 1.2"), 12, "Version: 1.4");  // PartialCount is SPIR-V 1.4's
  partial.replace(partial.find("               OpBranchConditional %more"), 0,
                  "               OpLoopMerge %exit %loop PartialCount 3\n");
  EXPECT_EQ(loadsAfter("unroll-loops", partial, Target{}), 4u);
  std::string never = gridStride(kLoadAndAdd);
  never.replace(never.find("               OpBranchConditional %more"), 0,
                "               OpLoopMerge %exit %loop DontUnroll\n");
  test::PassRun run = test::runPass("unroll-loops", never);
  EXPECT_EQ(run.text(), test::canonicalAssembly(never));
}

void expectUnchanged(const std::string& before, const Target& target = {}) {
  test::PassRun run = test::runPass("unroll-loops", before, target);
  EXPECT_EQ(run.text(), test::canonicalAssembly(before));
}

// With a count below two nothing is unrolled (cl2vk-opt --loop-unroll=1).
TEST(UnrollLoopsTest, ACountOfOneUnrollsNothing) { expectUnchanged(gridStride(kLoadAndAdd), unrollingBy(1)); }

// A barrier in the body: copies would be distinct barriers for invocations whose trip counts
// differ within a pass.
TEST(UnrollLoopsTest, ALoopWithABarrierIsLeftAlone) {
  expectUnchanged(gridStride(kLoadAndAdd + "               OpControlBarrier %uint_2 %uint_2 %uint_264\n"));
}

// Nothing to overlap: the body reads no buffer or constant memory.
TEST(UnrollLoopsTest, ALoopThatReadsNoBufferIsLeftAlone) {
  expectUnchanged(gridStride(R"(
        %sum = OpIAdd %uint %acc %i
)"));
}

// The stride is read from memory in the loop: the next iterations cannot be tested ahead.
TEST(UnrollLoopsTest, ALoopWhoseTestReadsMemoryIsLeftAlone) {
  std::string before = gridStride(kLoadAndAdd);
  before.replace(before.find("       %next = OpIAdd %uint %i %stride"),
                 std::string("       %next = OpIAdd %uint %i %stride").size(), "       %next = OpIAdd %uint %i %v");
  expectUnchanged(before);
}

// A second exit (a break) out of the body: the iterations of a pass are not all known to run.
TEST(UnrollLoopsTest, ALoopWithASecondExitIsLeftAlone) {
  expectUnchanged(kHeader + kTypes + R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %_ptr_CrossWorkgroup_uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %n = OpFunctionParameter %uint
     %stride = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %latch
       %wide = OpUConvert %ulong %i
         %at = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %x %wide
          %v = OpLoad %uint %at Aligned 4
       %zero = OpIEqual %bool %v %uint_0
               OpBranchConditional %zero %exit %latch
      %latch = OpLabel
       %next = OpIAdd %uint %i %stride
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)");
}

}  // namespace
}  // namespace cl2vk
