#include "passes/memory/move_private_arrays.h"

#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A module of one kernel %k: `names` (OpName lines), the types below, then `body` (more types
// and the kernel). The passes' results are written so too, their new types first in `body`.
std::string kernelModule(const std::string& names, const std::string& body) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
)" + names +
         R"(
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_4 = OpConstant %uint 4
   %uint_300 = OpConstant %uint 300
     %arr300 = OpTypeArray %uint %uint_300
       %arr4 = OpTypeArray %uint %uint_4
%_ptr_Function_arr300 = OpTypePointer Function %arr300
%_ptr_Function_arr4 = OpTypePointer Function %arr4
%_ptr_Function_uint = OpTypePointer Function %uint
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%_ptr_Function__ptr_Function_arr300 = OpTypePointer Function %_ptr_Function_arr300
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %bool %uint
    %fnByVal = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %bool %_ptr_Function_arr300
)" + body;
}

Target withBudget(uint32_t bytes) {
  Target target;
  target.privateMemoryBudget = bytes;
  return target;
}

// Two arrays of 1200 bytes that a select chooses between, and one of 16: over a budget of 1 KB,
// the two move together (each at its offset in the invocation's block of 2400 bytes, their
// lifetime markers gone) and the small one stays.
const std::string kChosenArrays = R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %c = OpFunctionParameter %bool
          %i = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpVariable %_ptr_Function_arr300 Function
          %b = OpVariable %_ptr_Function_arr300 Function
      %small = OpVariable %_ptr_Function_arr4 Function
               OpLifetimeStart %a 0
         %pa = OpInBoundsAccessChain %_ptr_Function_uint %a %i
               OpStore %pa %i Aligned 4
         %pb = OpInBoundsAccessChain %_ptr_Function_uint %b %i
               OpStore %pb %uint_4 Aligned 4
     %chosen = OpSelect %_ptr_Function_arr300 %c %a %b
         %pc = OpInBoundsAccessChain %_ptr_Function_uint %chosen %uint_0
          %v = OpLoad %uint %pc Aligned 4
         %ps = OpInBoundsAccessChain %_ptr_Function_uint %small %i
               OpStore %ps %v Aligned 4
          %w = OpLoad %uint %ps Aligned 4
               OpStore %out %w Aligned 4
               OpLifetimeStop %a 0
               OpReturn
               OpFunctionEnd
)";

TEST(MovePrivateArraysTest, ArraysOverTheBudgetMoveToTheScratchBlockTogetherWithWhatJoinsThem) {
  const std::string names = "OpName %a \"a\"\nOpName %b \"b\"\nOpName %small \"small\"";
  test::expectPassOutput("move-private-arrays", kernelModule(names, kChosenArrays),
                         kernelModule(R"(OpName %small "small"
OpName %scratch "cl2vk.private_scratch")",
                                      R"(
%_ptr_CrossWorkgroup_arr300 = OpTypePointer CrossWorkgroup %arr300
   %uint_600 = OpConstant %uint 600
     %arr600 = OpTypeArray %uint %uint_600
%_ptr_CrossWorkgroup_arr600 = OpTypePointer CrossWorkgroup %arr600
  %fnScratch = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %bool %uint %_ptr_CrossWorkgroup_arr600
          %k = OpFunction %void None %fnScratch
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %c = OpFunctionParameter %bool
          %i = OpFunctionParameter %uint
    %scratch = OpFunctionParameter %_ptr_CrossWorkgroup_arr600
      %entry = OpLabel
      %small = OpVariable %_ptr_Function_arr4 Function
      %aWord = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %scratch %uint_0
          %a = OpBitcast %_ptr_CrossWorkgroup_arr300 %aWord
      %bWord = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %scratch %uint_300
          %b = OpBitcast %_ptr_CrossWorkgroup_arr300 %bWord
         %pa = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %a %i
               OpStore %pa %i Aligned 4
         %pb = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %b %i
               OpStore %pb %uint_4 Aligned 4
     %chosen = OpSelect %_ptr_CrossWorkgroup_arr300 %c %a %b
         %pc = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %chosen %uint_0
          %v = OpLoad %uint %pc Aligned 4
         %ps = OpInBoundsAccessChain %_ptr_Function_uint %small %i
               OpStore %ps %v Aligned 4
          %w = OpLoad %uint %ps Aligned 4
               OpStore %out %w Aligned 4
               OpReturn
               OpFunctionEnd
)"),
                         withBudget(1024), SPV_ENV_OPENCL_2_2);
}

TEST(MovePrivateArraysTest, KernelsWithinTheBudgetOrWithoutOneAreUnchanged) {
  const std::string module = kernelModule("", kChosenArrays);
  test::expectPassOutput("move-private-arrays", module, module, withBudget(4096), SPV_ENV_OPENCL_2_2);
  test::expectPassOutput("move-private-arrays", module, module, withBudget(0), SPV_ENV_OPENCL_2_2);
}

// `a`'s pointer is stored in memory as a value (in a variable that holds pointers, which never
// moves): `a` stays where it is, and `b` moves alone.
TEST(MovePrivateArraysTest, AnArrayWhosePointerIsStoredStays) {
  const std::string before = kernelModule("", R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %c = OpFunctionParameter %bool
          %i = OpFunctionParameter %uint
      %entry = OpLabel
          %a = OpVariable %_ptr_Function_arr300 Function
          %b = OpVariable %_ptr_Function_arr300 Function
       %slot = OpVariable %_ptr_Function__ptr_Function_arr300 Function
               OpStore %slot %a Aligned 8
         %pb = OpInBoundsAccessChain %_ptr_Function_uint %b %i
               OpStore %pb %uint_4 Aligned 4
     %loaded = OpLoad %_ptr_Function_arr300 %slot Aligned 8
         %pa = OpInBoundsAccessChain %_ptr_Function_uint %loaded %i
          %v = OpLoad %uint %pa Aligned 4
         %pv = OpLoad %uint %pb Aligned 4
        %sum = OpIAdd %uint %v %pv
               OpStore %out %sum Aligned 4
               OpReturn
               OpFunctionEnd
)");
  test::expectPassOutput("move-private-arrays", before, kernelModule(R"(OpName %scratch "cl2vk.private_scratch")", R"(
      %block = OpTypeArray %uint %uint_300
%_ptr_CrossWorkgroup_block = OpTypePointer CrossWorkgroup %block
  %fnScratch = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %bool %uint %_ptr_CrossWorkgroup_block
%_ptr_CrossWorkgroup_arr300 = OpTypePointer CrossWorkgroup %arr300
          %k = OpFunction %void None %fnScratch
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %c = OpFunctionParameter %bool
          %i = OpFunctionParameter %uint
    %scratch = OpFunctionParameter %_ptr_CrossWorkgroup_block
      %entry = OpLabel
          %a = OpVariable %_ptr_Function_arr300 Function
       %slot = OpVariable %_ptr_Function__ptr_Function_arr300 Function
      %bWord = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %scratch %uint_0
          %b = OpBitcast %_ptr_CrossWorkgroup_arr300 %bWord
               OpStore %slot %a Aligned 8
         %pb = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %b %i
               OpStore %pb %uint_4 Aligned 4
     %loaded = OpLoad %_ptr_Function_arr300 %slot Aligned 8
         %pa = OpInBoundsAccessChain %_ptr_Function_uint %loaded %i
          %v = OpLoad %uint %pa Aligned 4
         %pv = OpLoad %uint %pb Aligned 4
        %sum = OpIAdd %uint %v %pv
               OpStore %out %sum Aligned 4
               OpReturn
               OpFunctionEnd
)"),
                         withBudget(1024), SPV_ENV_OPENCL_2_2);
}

// `a` is chosen with a struct passed by value (a Function pointer parameter, which stays): `a`
// stays with it, and `b` moves alone.
TEST(MovePrivateArraysTest, AnArrayJoinedWithAParameterStays) {
  const std::string before = kernelModule("", R"(
          %k = OpFunction %void None %fnByVal
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %c = OpFunctionParameter %bool
      %byval = OpFunctionParameter %_ptr_Function_arr300
      %entry = OpLabel
          %a = OpVariable %_ptr_Function_arr300 Function
          %b = OpVariable %_ptr_Function_arr300 Function
     %chosen = OpSelect %_ptr_Function_arr300 %c %a %byval
         %pc = OpInBoundsAccessChain %_ptr_Function_uint %chosen %uint_0
          %v = OpLoad %uint %pc Aligned 4
         %pb = OpInBoundsAccessChain %_ptr_Function_uint %b %uint_0
               OpStore %pb %v Aligned 4
          %w = OpLoad %uint %pb Aligned 4
               OpStore %out %w Aligned 4
               OpReturn
               OpFunctionEnd
)");
  test::expectPassOutput("move-private-arrays", before, kernelModule(R"(OpName %scratch "cl2vk.private_scratch")", R"(
      %block = OpTypeArray %uint %uint_300
%_ptr_CrossWorkgroup_block = OpTypePointer CrossWorkgroup %block
  %fnScratch = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %bool %_ptr_Function_arr300 %_ptr_CrossWorkgroup_block
%_ptr_CrossWorkgroup_arr300 = OpTypePointer CrossWorkgroup %arr300
          %k = OpFunction %void None %fnScratch
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
          %c = OpFunctionParameter %bool
      %byval = OpFunctionParameter %_ptr_Function_arr300
    %scratch = OpFunctionParameter %_ptr_CrossWorkgroup_block
      %entry = OpLabel
          %a = OpVariable %_ptr_Function_arr300 Function
      %bWord = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %scratch %uint_0
          %b = OpBitcast %_ptr_CrossWorkgroup_arr300 %bWord
     %chosen = OpSelect %_ptr_Function_arr300 %c %a %byval
         %pc = OpInBoundsAccessChain %_ptr_Function_uint %chosen %uint_0
          %v = OpLoad %uint %pc Aligned 4
         %pb = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %b %uint_0
               OpStore %pb %v Aligned 4
          %w = OpLoad %uint %pb Aligned 4
               OpStore %out %w Aligned 4
               OpReturn
               OpFunctionEnd
)"),
                         withBudget(1024), SPV_ENV_OPENCL_2_2);
}

}  // namespace
}  // namespace cl2vk
