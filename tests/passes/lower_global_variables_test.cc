// lower-global-variables: before/after tests of program-scope __global variables moving to the
// program's buffer, and of the layout and initial bytes the pass gives the runtime.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

const std::string kHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
)";

const std::string kTypes = R"(
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_5 = OpConstant %uint 5
       %void = OpTypeVoid
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%_ptr_CrossWorkgroup__ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %_ptr_CrossWorkgroup_uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
)";

// global int counter = 5; global int* global pointer = &counter;
// kernel void k(global int* out) { *out = *pointer + counter; }
const std::string kCounterAndPointer = kHeader + R"(
               OpEntryPoint Kernel %k "k" %counter %pointer
               OpName %k "k"
               OpName %out "out"
               OpName %counter "counter"
               OpName %pointer "pointer"
               OpDecorate %counter Alignment 4
)" + kTypes + R"(
    %counter = OpVariable %_ptr_CrossWorkgroup_uint CrossWorkgroup %uint_5
    %pointer = OpVariable %_ptr_CrossWorkgroup__ptr_CrossWorkgroup_uint CrossWorkgroup %counter
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
          %p = OpLoad %_ptr_CrossWorkgroup_uint %pointer Aligned 8
          %a = OpLoad %uint %p Aligned 4
          %b = OpLoad %uint %counter Aligned 4
          %s = OpIAdd %uint %a %b
               OpStore %out %s Aligned 4
               OpReturn
               OpFunctionEnd
)";

// The variables leave the module (and the entry point's interface); the kernel gets a hidden last
// parameter, the buffer, and each variable is its address plus the variable's offset: counter at
// 0, pointer at 8 (its own alignment).
TEST(LowerGlobalVariablesTest, VariablesBecomeTheBufferAddressPlusTheirOffset) {
  test::PassRun run = test::expectPassOutput("lower-global-variables", kCounterAndPointer, kHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %out "out"
               OpName %buffer "cl2vk.global_variables"
)" + kTypes + R"(
    %newtype = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %_ptr_CrossWorkgroup_uint
    %ulong_0 = OpConstant %ulong 0
    %ulong_8 = OpConstant %ulong 8
          %k = OpFunction %void None %newtype
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
     %buffer = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
       %base = OpConvertPtrToU %ulong %buffer
%counter_address = OpIAdd %ulong %base %ulong_0
    %counter = OpConvertUToPtr %_ptr_CrossWorkgroup_uint %counter_address
%pointer_address = OpIAdd %ulong %base %ulong_8
    %pointer = OpConvertUToPtr %_ptr_CrossWorkgroup__ptr_CrossWorkgroup_uint %pointer_address
          %p = OpLoad %_ptr_CrossWorkgroup_uint %pointer Aligned 8
          %a = OpLoad %uint %p Aligned 4
          %b = OpLoad %uint %counter Aligned 4
          %s = OpIAdd %uint %a %b
               OpStore %out %s Aligned 4
               OpReturn
               OpFunctionEnd
)");
  const GlobalVariablesLayout& layout = run.context.reflection.globalVariables;
  EXPECT_EQ(layout.size, 16u);
  ASSERT_EQ(layout.variables.size(), 2u);
  EXPECT_EQ(layout.variables[0].name, "counter");
  EXPECT_EQ(layout.variables[1].offset, 8u);
  // counter's 5, little-endian; pointer's bytes stay zero and are relocated to the buffer + 0.
  std::vector<uint8_t> expected(16, 0);
  expected[0] = 5;
  EXPECT_EQ(layout.allInitialBytes(), expected);
  ASSERT_EQ(layout.pointers.size(), 1u);
  EXPECT_EQ(layout.pointers[0].offset, 8u);
  EXPECT_EQ(layout.pointers[0].addend, 0u);
}

// Structs and arrays are laid out as OpenCL C lays them out: struct { uint; ulong; } puts the long
// at 8; an array of two such structs steps by 16.
TEST(LowerGlobalVariablesTest, CompositeInitializersFollowOpenCLLayout) {
  std::string before = kHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
)" + kTypes + R"(
  %ulong_258 = OpConstant %ulong 258
    %ulong_2 = OpConstant %ulong 2
     %uint_7 = OpConstant %uint 7
       %pair = OpTypeStruct %uint %ulong
      %pairs = OpTypeArray %pair %ulong_2
%_ptr_CrossWorkgroup_pairs = OpTypePointer CrossWorkgroup %pairs
      %first = OpConstantComposite %pair %uint_5 %ulong_258
     %second = OpConstantNull %pair
      %value = OpConstantComposite %pairs %first %second
     %global = OpVariable %_ptr_CrossWorkgroup_pairs CrossWorkgroup %value
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  test::PassRun run = test::runPass("lower-global-variables", before);
  ASSERT_TRUE(run.module) << run.error;
  const GlobalVariablesLayout& layout = run.context.reflection.globalVariables;
  EXPECT_EQ(layout.size, 32u);
  std::vector<uint8_t> expected(32, 0);
  expected[0] = 5;
  expected[8] = 2;  // 258 = 0x0102
  expected[9] = 1;
  EXPECT_EQ(layout.allInitialBytes(), expected);
  // Only what the constants set is kept: the uint, the ulong after its padding; not the null pair.
  ASSERT_EQ(layout.initialBytes.size(), 2u);
  EXPECT_EQ(layout.initialBytes[0].offset, 0u);
  EXPECT_EQ(layout.initialBytes[0].bytes, (std::vector<uint8_t>{5, 0, 0, 0}));
  EXPECT_EQ(layout.initialBytes[1].offset, 8u);
  EXPECT_EQ(layout.initialBytes[1].bytes, (std::vector<uint8_t>{2, 1, 0, 0, 0, 0, 0, 0}));
  // No kernel uses it: none gets the hidden parameter.
  EXPECT_EQ(run.text().find("cl2vk.global_variables"), std::string::npos);
}

TEST(LowerGlobalVariablesTest, AModuleWithoutThemIsUnchanged) {
  std::string before = kHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
)" + kTypes + R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  test::expectPassOutput("lower-global-variables", before, before);
}

}  // namespace
}  // namespace cl2vk
