// lower-kernel-interface: before/after tests of kernels becoming GLCompute entry points, their
// arguments read from push constants (or an argument buffer), and OpenCL's work-item builtins.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// The capabilities and memory model of the modules here, as llvm-spirv writes them.
const std::string kKernelHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
)";

// kernel void k(float a, global float* y) { *y = a; }, as llvm-spirv writes it.
const std::string kScalarAndPointerKernel = kKernelHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %a "a"
               OpName %y "y"
               OpDecorate %y FuncParamAttr NoCapture
               OpDecorate %y Alignment 4
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
      %float = OpTypeFloat 32
  %_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %float %_ptr_CrossWorkgroup_float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %float
          %y = OpFunctionParameter %_ptr_CrossWorkgroup_float
      %entry = OpLabel
               OpStore %y %a Aligned 4
               OpReturn
               OpFunctionEnd
)";

// kernel void k(global ulong* out) { *out = get_local_id(0); }, as llvm-spirv writes it.
const std::string kStoresLocalIdKernel = kKernelHeader + R"(
               OpEntryPoint Kernel %k "k" %__spirv_BuiltInLocalInvocationId
               OpName %k "k"
               OpName %__spirv_BuiltInLocalInvocationId "__spirv_BuiltInLocalInvocationId"
               OpName %out "out"
               OpDecorate %__spirv_BuiltInLocalInvocationId LinkageAttributes "__spirv_BuiltInLocalInvocationId" Import
               OpDecorate %__spirv_BuiltInLocalInvocationId Constant
               OpDecorate %__spirv_BuiltInLocalInvocationId BuiltIn LocalInvocationId
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
  %_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
  %_ptr_CrossWorkgroup_ulong = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_ulong
  %__spirv_BuiltInLocalInvocationId = OpVariable %_ptr_Input_v3ulong Input
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_ulong
      %entry = OpLabel
        %ids = OpLoad %v3ulong %__spirv_BuiltInLocalInvocationId Aligned 32
         %id = OpCompositeExtract %ulong %ids 0
               OpStore %out %id Aligned 8
               OpReturn
               OpFunctionEnd
)";

// kernel void k(float a, global float* y) { *y = a; }: a scalar and a pointer, read from the
// push-constant block at offsets 0 and 8 (a pointer is two words, 8-aligned); the pointer is
// rebuilt from its address with OpConvertUToPtr. The work-group size spec constants (ids 0-2) and
// the WorkgroupSize builtin are declared once per module.
TEST(LowerKernelInterfaceTest, ArgumentsAreReadFromPushConstants) {
  test::expectPassOutput("lower-kernel-interface", kScalarAndPointerKernel, kKernelHeader + R"(
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
               OpDecorate %size_x SpecId 0
               OpDecorate %size_y SpecId 1
               OpDecorate %size_z SpecId 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %_arr_uint_uint_4 ArrayStride 4
               OpMemberDecorate %17 0 Offset 0
               OpDecorate %17 Block
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
      %float = OpTypeFloat 32
  %_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %float %_ptr_CrossWorkgroup_float
     %size_x = OpSpecConstant %uint 1
     %size_y = OpSpecConstant %uint 1
     %size_z = OpSpecConstant %uint 1
     %v3uint = OpTypeVector %uint 3
  %gl_WorkGroupSize = OpSpecConstantComposite %v3uint %size_x %size_y %size_z
     %uint_4 = OpConstant %uint 4
  %_arr_uint_uint_4 = OpTypeArray %uint %uint_4
         %17 = OpTypeStruct %_arr_uint_uint_4
  %_ptr_PushConstant__struct_17 = OpTypePointer PushConstant %17
       %args = OpVariable %_ptr_PushConstant__struct_17 PushConstant
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
      %ulong = OpTypeInt 64 0
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %v2uint = OpTypeVector %uint 2
   %noParams = OpTypeFunction %void
          %k = OpFunction %void None %noParams
      %entry = OpLabel
      %aWord = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
      %aBits = OpLoad %uint %aWord
          %a = OpBitcast %float %aBits
        %low = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_2
    %lowBits = OpLoad %uint %low
       %high = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_3
   %highBits = OpLoad %uint %high
      %words = OpCompositeConstruct %v2uint %lowBits %highBits
    %address = OpBitcast %ulong %words
          %y = OpConvertUToPtr %_ptr_CrossWorkgroup_float %address
               OpStore %y %a Aligned 4
               OpReturn
               OpFunctionEnd
)");
}

// A __local pointer argument: the host gives the size of its memory through a specialization
// constant (ids from 7), which sizes a Workgroup array; the pointer is its first element.
TEST(LowerKernelInterfaceTest, LocalPointerArgumentBecomesAWorkgroupArraySizedBySpecConstant) {
  test::expectPassOutput("lower-kernel-interface", kKernelHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %out "out"
               OpName %tile "tile"
               OpDecorate %out FuncParamAttr NoCapture
               OpDecorate %tile FuncParamAttr NoCapture
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
       %void = OpTypeVoid
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %_ptr_Workgroup_uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
       %tile = OpFunctionParameter %_ptr_Workgroup_uint
      %entry = OpLabel
               OpStore %tile %uint_1 Aligned 4
          %v = OpLoad %uint %tile Aligned 4
               OpStore %out %v Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         kKernelHeader + R"(
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
               OpDecorate %size_x SpecId 0
               OpDecorate %size_y SpecId 1
               OpDecorate %size_z SpecId 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %_arr_uint_uint_2 ArrayStride 4
               OpMemberDecorate %19 0 Offset 0
               OpDecorate %19 Block
               OpDecorate %34 SpecId 7
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
       %void = OpTypeVoid
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %_ptr_Workgroup_uint
     %size_x = OpSpecConstant %uint 1
     %size_y = OpSpecConstant %uint 1
     %size_z = OpSpecConstant %uint 1
     %v3uint = OpTypeVector %uint 3
  %gl_WorkGroupSize = OpSpecConstantComposite %v3uint %size_x %size_y %size_z
     %uint_2 = OpConstant %uint 2
  %_arr_uint_uint_2 = OpTypeArray %uint %uint_2
         %19 = OpTypeStruct %_arr_uint_uint_2
  %_ptr_PushConstant__struct_19 = OpTypePointer PushConstant %19
       %args = OpVariable %_ptr_PushConstant__struct_19 PushConstant
      %ulong = OpTypeInt 64 0
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
     %v2uint = OpTypeVector %uint 2
         %34 = OpSpecConstant %uint 1
  %_arr_uint_34 = OpTypeArray %uint %34
  %_ptr_Workgroup__arr_uint_34 = OpTypePointer Workgroup %_arr_uint_34
  %tileMemory = OpVariable %_ptr_Workgroup__arr_uint_34 Workgroup
   %noParams = OpTypeFunction %void
          %k = OpFunction %void None %noParams
      %entry = OpLabel
        %low = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
    %lowBits = OpLoad %uint %low
       %high = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_1
   %highBits = OpLoad %uint %high
      %words = OpCompositeConstruct %v2uint %lowBits %highBits
    %address = OpBitcast %ulong %words
        %out = OpConvertUToPtr %_ptr_CrossWorkgroup_uint %address
       %tile = OpInBoundsAccessChain %_ptr_Workgroup_uint %tileMemory %uint_0
               OpStore %tile %uint_1 Aligned 4
          %v = OpLoad %uint %tile Aligned 4
               OpStore %out %v Aligned 4
               OpReturn
               OpFunctionEnd
)");
}

// get_local_id: OpenCL's builtin variable of 64-bit ids becomes Vulkan's LocalInvocationId of
// 32-bit ones, each component widened.
TEST(LowerKernelInterfaceTest, LocalIdBecomesVulkansWidenedTo64Bits) {
  test::expectPassOutput("lower-kernel-interface", kStoresLocalIdKernel, kKernelHeader + R"(
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
               OpDecorate %size_x SpecId 0
               OpDecorate %size_y SpecId 1
               OpDecorate %size_z SpecId 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %_arr_uint_uint_2 ArrayStride 4
               OpMemberDecorate %21 0 Offset 0
               OpDecorate %21 Block
               OpDecorate %gl_LocalInvocationID BuiltIn LocalInvocationId
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
  %_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
  %_ptr_CrossWorkgroup_ulong = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_ulong
       %uint = OpTypeInt 32 0
     %size_x = OpSpecConstant %uint 1
     %size_y = OpSpecConstant %uint 1
     %size_z = OpSpecConstant %uint 1
     %v3uint = OpTypeVector %uint 3
  %gl_WorkGroupSize = OpSpecConstantComposite %v3uint %size_x %size_y %size_z
     %uint_2 = OpConstant %uint 2
  %_arr_uint_uint_2 = OpTypeArray %uint %uint_2
         %21 = OpTypeStruct %_arr_uint_uint_2
  %_ptr_PushConstant__struct_21 = OpTypePointer PushConstant %21
       %args = OpVariable %_ptr_PushConstant__struct_21 PushConstant
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %v2uint = OpTypeVector %uint 2
   %noParams = OpTypeFunction %void
  %_ptr_Input_v3uint = OpTypePointer Input %v3uint
  %gl_LocalInvocationID = OpVariable %_ptr_Input_v3uint Input
          %k = OpFunction %void None %noParams
      %entry = OpLabel
        %low = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
    %lowBits = OpLoad %uint %low
       %high = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_1
   %highBits = OpLoad %uint %high
      %words = OpCompositeConstruct %v2uint %lowBits %highBits
    %address = OpBitcast %ulong %words
        %out = OpConvertUToPtr %_ptr_CrossWorkgroup_ulong %address
       %ids0 = OpLoad %v3uint %gl_LocalInvocationID
         %x0 = OpCompositeExtract %uint %ids0 0
         %x1 = OpUConvert %ulong %x0
       %ids1 = OpLoad %v3uint %gl_LocalInvocationID
         %y0 = OpCompositeExtract %uint %ids1 1
         %y1 = OpUConvert %ulong %y0
       %ids2 = OpLoad %v3uint %gl_LocalInvocationID
         %z0 = OpCompositeExtract %uint %ids2 2
         %z1 = OpUConvert %ulong %z0
        %ids = OpCompositeConstruct %v3ulong %x1 %y1 %z1
         %id = OpCompositeExtract %ulong %ids 0
               OpStore %out %id Aligned 8
               OpReturn
               OpFunctionEnd
)");
}

// kernel void k(global ulong* out) { *out = get_local_id(0); } with free work-groups: the
// dispatch information grows by the enqueued local size (bytes 48-59; the argument at 64); the
// kernel first returns where its hardware position in x, (group + group offset) * n + local id,
// is past the global size; the local id is that position modulo the enqueued local size (y and
// z: the hardware group plus its offset, one per row).
TEST(LowerKernelInterfaceTest, WithFreeWorkGroupsTheLocalIdIsThePositionModuloTheLocalSize) {
  Target target;
  target.freeWorkGroups = true;
  test::PassRun run = test::expectPassOutput("lower-kernel-interface", kStoresLocalIdKernel, kKernelHeader + R"(
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
               OpDecorate %size_x SpecId 0
               OpDecorate %size_y SpecId 1
               OpDecorate %size_z SpecId 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %_arr_uint_uint_18 ArrayStride 4
               OpMemberDecorate %21 0 Offset 0
               OpDecorate %21 Block
               OpDecorate %gl_LocalInvocationID BuiltIn LocalInvocationId
               OpDecorate %gl_WorkGroupID BuiltIn WorkgroupId
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
  %_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
  %_ptr_CrossWorkgroup_ulong = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_ulong
       %uint = OpTypeInt 32 0
     %size_x = OpSpecConstant %uint 1
     %size_y = OpSpecConstant %uint 1
     %size_z = OpSpecConstant %uint 1
     %v3uint = OpTypeVector %uint 3
  %gl_WorkGroupSize = OpSpecConstantComposite %v3uint %size_x %size_y %size_z
    %uint_18 = OpConstant %uint 18
  %_arr_uint_uint_18 = OpTypeArray %uint %uint_18
         %21 = OpTypeStruct %_arr_uint_uint_18
  %_ptr_PushConstant__struct_21 = OpTypePointer PushConstant %21
       %args = OpVariable %_ptr_PushConstant__struct_21 PushConstant
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
    %uint_16 = OpConstant %uint 16
    %uint_17 = OpConstant %uint 17
     %v2uint = OpTypeVector %uint 2
   %noParams = OpTypeFunction %void
  %_ptr_Input_v3uint = OpTypePointer Input %v3uint
  %gl_LocalInvocationID = OpVariable %_ptr_Input_v3uint Input
     %uint_8 = OpConstant %uint 8
  %gl_WorkGroupID = OpVariable %_ptr_Input_v3uint Input
    %uint_12 = OpConstant %uint 12
     %uint_9 = OpConstant %uint 9
    %uint_13 = OpConstant %uint 13
    %uint_10 = OpConstant %uint 10
    %uint_14 = OpConstant %uint 14
     %uint_4 = OpConstant %uint 4
       %bool = OpTypeBool
          %k = OpFunction %void None %noParams
      %entry = OpLabel
     %lanes0 = OpLoad %v3uint %gl_LocalInvocationID
      %lane0 = OpCompositeExtract %uint %lanes0 0
         %n0 = OpCompositeExtract %uint %gl_WorkGroupSize 0
  %offsetXAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_8
    %offsetX = OpLoad %uint %offsetXAt
    %groups0 = OpLoad %v3uint %gl_WorkGroupID
     %group0 = OpCompositeExtract %uint %groups0 0
    %groupX0 = OpIAdd %uint %group0 %offsetX
    %firstX0 = OpIMul %uint %groupX0 %n0
         %x0 = OpIAdd %uint %firstX0 %lane0
    %sizeXAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_4
      %sizeX = OpLoad %uint %sizeXAt
     %inside = OpULessThan %bool %x0 %sizeX
               OpBranchConditional %inside %body %outside
    %outside = OpLabel
               OpReturn
       %body = OpLabel
        %low = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_16
    %lowBits = OpLoad %uint %low
       %high = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_17
   %highBits = OpLoad %uint %high
      %words = OpCompositeConstruct %v2uint %lowBits %highBits
    %address = OpBitcast %ulong %words
        %out = OpConvertUToPtr %_ptr_CrossWorkgroup_ulong %address
     %lanes1 = OpLoad %v3uint %gl_LocalInvocationID
      %lane1 = OpCompositeExtract %uint %lanes1 0
         %n1 = OpCompositeExtract %uint %gl_WorkGroupSize 0
 %offsetXAt1 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_8
   %offsetX1 = OpLoad %uint %offsetXAt1
    %groups1 = OpLoad %v3uint %gl_WorkGroupID
     %group1 = OpCompositeExtract %uint %groups1 0
    %groupX1 = OpIAdd %uint %group1 %offsetX1
    %firstX1 = OpIMul %uint %groupX1 %n1
         %x1 = OpIAdd %uint %firstX1 %lane1
  %localXAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_12
     %localX = OpLoad %uint %localXAt
        %idX = OpUMod %uint %x1 %localX
      %idX64 = OpUConvert %ulong %idX
 %offsetYAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_9
    %offsetY = OpLoad %uint %offsetYAt
    %groups2 = OpLoad %v3uint %gl_WorkGroupID
     %group2 = OpCompositeExtract %uint %groups2 1
          %y = OpIAdd %uint %group2 %offsetY
  %localYAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_13
     %localY = OpLoad %uint %localYAt
        %idY = OpUMod %uint %y %localY
      %idY64 = OpUConvert %ulong %idY
 %offsetZAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_10
    %offsetZ = OpLoad %uint %offsetZAt
    %groups3 = OpLoad %v3uint %gl_WorkGroupID
     %group3 = OpCompositeExtract %uint %groups3 2
          %z = OpIAdd %uint %group3 %offsetZ
  %localZAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_14
     %localZ = OpLoad %uint %localZAt
        %idZ = OpUMod %uint %z %localZ
      %idZ64 = OpUConvert %ulong %idZ
        %ids = OpCompositeConstruct %v3ulong %idX64 %idY64 %idZ64
         %id = OpCompositeExtract %ulong %ids 0
               OpStore %out %id Aligned 8
               OpReturn
               OpFunctionEnd
)",
                                             target);
  ASSERT_TRUE(run.module);
  ASSERT_EQ(run.context.reflection.kernels.size(), 1u);
  const KernelReflection& kernel = run.context.reflection.kernels[0];
  EXPECT_TRUE(kernel.freeWorkGroups);
  EXPECT_TRUE(kernel.usesDispatchInfo);
  EXPECT_EQ(kernel.argumentsOffset, DispatchInfoLayout::kFreeSize);
  EXPECT_EQ(kernel.pushConstantSize, DispatchInfoLayout::kFreeSize + 8);
}

// The hidden parameter move-private-arrays adds, a pointer to one invocation's block (uint[4]) of
// the private scratch buffer: its address is laid out as an argument's, and the kernel offsets it
// by the invocation's index in its dispatch, ((z * groups.y + y) * groups.x + x) * the work-group's
// size + the local index, in blocks. The reflection lists it not as an argument but as the
// scratch buffer's offset and stride.
TEST(LowerKernelInterfaceTest, ThePrivateScratchPointsAtTheInvocationsBlock) {
  test::PassRun run = test::expectPassOutput("lower-kernel-interface", kKernelHeader + R"(
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %out "out"
               OpName %scratch "cl2vk.private_scratch"
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
     %uint_0 = OpConstant %uint 0
     %uint_7 = OpConstant %uint 7
     %uint_4 = OpConstant %uint 4
      %block = OpTypeArray %uint %uint_4
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
  %_ptr_CrossWorkgroup_block = OpTypePointer CrossWorkgroup %block
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %_ptr_CrossWorkgroup_block
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
    %scratch = OpFunctionParameter %_ptr_CrossWorkgroup_block
      %entry = OpLabel
       %word = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %scratch %uint_0
               OpStore %word %uint_7 Aligned 4
          %v = OpLoad %uint %word Aligned 4
               OpStore %out %v Aligned 4
               OpReturn
               OpFunctionEnd
)",
                                             kKernelHeader + R"(
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
               OpDecorate %size_x SpecId 0
               OpDecorate %size_y SpecId 1
               OpDecorate %size_z SpecId 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %words ArrayStride 4
               OpMemberDecorate %22 0 Offset 0
               OpDecorate %22 Block
               OpDecorate %gl_WorkGroupID BuiltIn WorkgroupId
               OpDecorate %gl_NumWorkGroups BuiltIn NumWorkgroups
               OpDecorate %gl_LocalInvocationIndex BuiltIn LocalInvocationIndex
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
     %uint_0 = OpConstant %uint 0
     %uint_7 = OpConstant %uint 7
     %uint_4 = OpConstant %uint 4
      %block = OpTypeArray %uint %uint_4
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
  %_ptr_CrossWorkgroup_block = OpTypePointer CrossWorkgroup %block
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %_ptr_CrossWorkgroup_block
     %size_x = OpSpecConstant %uint 1
     %size_y = OpSpecConstant %uint 1
     %size_z = OpSpecConstant %uint 1
     %v3uint = OpTypeVector %uint 3
  %gl_WorkGroupSize = OpSpecConstantComposite %v3uint %size_x %size_y %size_z
      %words = OpTypeArray %uint %uint_4
         %22 = OpTypeStruct %words
  %_ptr_PushConstant__struct_22 = OpTypePointer PushConstant %22
       %args = OpVariable %_ptr_PushConstant__struct_22 PushConstant
      %ulong = OpTypeInt 64 0
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
     %uint_1 = OpConstant %uint 1
     %v2uint = OpTypeVector %uint 2
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
  %_ptr_Input_v3uint = OpTypePointer Input %v3uint
  %gl_WorkGroupID = OpVariable %_ptr_Input_v3uint Input
  %gl_NumWorkGroups = OpVariable %_ptr_Input_v3uint Input
  %_ptr_Input_uint = OpTypePointer Input %uint
  %gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input
   %noParams = OpTypeFunction %void
          %k = OpFunction %void None %noParams
      %entry = OpLabel
    %outLowAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
     %outLow = OpLoad %uint %outLowAt
   %outHighAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_1
    %outHigh = OpLoad %uint %outHighAt
   %outWords = OpCompositeConstruct %v2uint %outLow %outHigh
 %outAddress = OpBitcast %ulong %outWords
        %out = OpConvertUToPtr %_ptr_CrossWorkgroup_uint %outAddress
 %bufferLowAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_2
  %bufferLow = OpLoad %uint %bufferLowAt
%bufferHighAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_3
 %bufferHigh = OpLoad %uint %bufferHighAt
%bufferWords = OpCompositeConstruct %v2uint %bufferLow %bufferHigh
%bufferAddress = OpBitcast %ulong %bufferWords
     %buffer = OpConvertUToPtr %_ptr_CrossWorkgroup_block %bufferAddress
      %group = OpLoad %v3uint %gl_WorkGroupID
     %groups = OpLoad %v3uint %gl_NumWorkGroups
          %x = OpCompositeExtract %uint %group 0
          %y = OpCompositeExtract %uint %group 1
          %z = OpCompositeExtract %uint %group 2
     %countX = OpCompositeExtract %uint %groups 0
     %countY = OpCompositeExtract %uint %groups 1
         %zy = OpIMul %uint %z %countY
      %plane = OpIAdd %uint %zy %y
    %planeX = OpIMul %uint %plane %countX
 %groupIndex = OpIAdd %uint %planeX %x
      %sizeX = OpCompositeExtract %uint %gl_WorkGroupSize 0
      %sizeY = OpCompositeExtract %uint %gl_WorkGroupSize 1
      %sizeZ = OpCompositeExtract %uint %gl_WorkGroupSize 2
     %sizeXY = OpIMul %uint %sizeX %sizeY
  %groupSize = OpIMul %uint %sizeXY %sizeZ
      %local = OpLoad %uint %gl_LocalInvocationIndex
      %first = OpIMul %uint %groupIndex %groupSize
      %index = OpIAdd %uint %first %local
    %index64 = OpUConvert %ulong %index
    %scratch = OpPtrAccessChain %_ptr_CrossWorkgroup_block %buffer %index64
       %word = OpInBoundsAccessChain %_ptr_CrossWorkgroup_uint %scratch %uint_0
               OpStore %word %uint_7 Aligned 4
          %v = OpLoad %uint %word Aligned 4
               OpStore %out %v Aligned 4
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run.module);
  ASSERT_EQ(run.context.reflection.kernels.size(), 1u);
  const KernelReflection& kernel = run.context.reflection.kernels[0];
  ASSERT_EQ(kernel.arguments.size(), 1u);
  EXPECT_EQ(kernel.arguments[0].name, "out");
  EXPECT_EQ(kernel.privateScratchOffset, std::optional<uint32_t>(8));
  EXPECT_EQ(kernel.privateScratchStride, 16u);
}

// A barrier, __local memory or a sub-group builtin ties a kernel to its work-groups: it keeps the
// pipeline's work-group size and Vulkan's ids even with free work-groups on.
TEST(LowerKernelInterfaceTest, BarriersLocalMemoryAndSubgroupsKeepTheWorkGroups) {
  Target target;
  target.freeWorkGroups = true;
  const std::string common = kKernelHeader + R"(
               OpEntryPoint Kernel %k "k" %sglid
               OpDecorate %sglid BuiltIn SubgroupLocalInvocationId
               OpDecorate %sglid Constant
               OpDecorate %sglid LinkageAttributes "__spirv_BuiltInSubgroupLocalInvocationId" Import
       %uint = OpTypeInt 32 0
     %uint_2 = OpConstant %uint 2
   %uint_264 = OpConstant %uint 264
       %void = OpTypeVoid
  %_ptr_Input_uint = OpTypePointer Input %uint
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
      %sglid = OpVariable %_ptr_Input_uint Input
     %shared = OpVariable %_ptr_Workgroup_uint Workgroup
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)";
  const std::string tail = R"(
               OpReturn
               OpFunctionEnd
)";
  const std::pair<std::string, std::string> bodies[] = {
      {"a barrier", "OpControlBarrier %uint_2 %uint_2 %uint_264\nOpStore %out %uint_2\n"},
      {"a __local variable", "%v = OpLoad %uint %shared\nOpStore %out %v\n"},
      {"a sub-group builtin", "%lane = OpLoad %uint %sglid\nOpStore %out %lane\n"},
      {"none of them", "OpStore %out %uint_2\n"},
  };
  for (const auto& [what, body] : bodies) {
    test::PassRun run = test::runPass("lower-kernel-interface", common + body + tail, target);
    ASSERT_TRUE(run.module) << what << ": " << run.error;
    ASSERT_EQ(run.context.reflection.kernels.size(), 1u);
    EXPECT_EQ(run.context.reflection.kernels[0].freeWorkGroups, what == std::string("none of them")) << what;
  }
}

// A builtin variable's decorations that mean nothing to Vulkan go with it: UserSemantic strings
// (the CTS's spirv14_usersemantic_decoratestring ended in "uses the OpenCL builtin variable other
// than by loading it") and a decoration group naming it.
TEST(LowerKernelInterfaceTest, ABuiltinsStringAndGroupDecorationsGoWithIt) {
  test::PassRun run = test::runPass("lower-kernel-interface", R"(
; Version: 1.4
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpName %k "k"
               OpDecorate %gid LinkageAttributes "global_id" Import
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorateString %gid UserSemantic "FOO"
               OpDecorateString %gid UserSemantic "FOO? BAR. BAZ!"
               OpDecorate %group Constant
      %group = OpDecorationGroup
               OpGroupDecorate %group %gid
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
  %_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
  %_ptr_CrossWorkgroup_ulong = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_ulong
        %gid = OpVariable %_ptr_Input_v3ulong Input
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_ulong
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
         %id = OpCompositeExtract %ulong %ids 0
               OpStore %out %id Aligned 8
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_EQ(text.find("UserSemantic"), std::string::npos) << text;
  EXPECT_NE(text.find("OpGroupDecorate %1\n"), std::string::npos) << text;  // no target left
  EXPECT_EQ(text.find("BuiltIn GlobalInvocationId"), std::string::npos) << text;
  EXPECT_NE(text.find("BuiltIn WorkgroupId"), std::string::npos) << text;
}

// With more arguments than the push constants hold (a device with 8 bytes of them, here), the push
// constants hold the address of an argument buffer (the same words, without Block: it is read
// through a CrossWorkgroup pointer, which lower-pointers makes a buffer address), and the
// arguments are read from there at the same offsets.
TEST(LowerKernelInterfaceTest, ArgumentsBeyondThePushConstantLimitGoThroughAnArgumentBuffer) {
  Target small;
  small.maxPushConstantsSize = 8;
  test::PassRun run = test::expectPassOutput("lower-kernel-interface", kScalarAndPointerKernel, kKernelHeader + R"(
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
               OpDecorate %size_x SpecId 0
               OpDecorate %size_y SpecId 1
               OpDecorate %size_z SpecId 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %_arr_uint_uint_2 ArrayStride 4
               OpMemberDecorate %17 0 Offset 0
               OpDecorate %17 Block
               OpDecorate %_arr_uint_uint_4 ArrayStride 4
               OpMemberDecorate %33 0 Offset 0
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
      %float = OpTypeFloat 32
  %_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %float %_ptr_CrossWorkgroup_float
     %size_x = OpSpecConstant %uint 1
     %size_y = OpSpecConstant %uint 1
     %size_z = OpSpecConstant %uint 1
     %v3uint = OpTypeVector %uint 3
  %gl_WorkGroupSize = OpSpecConstantComposite %v3uint %size_x %size_y %size_z
     %uint_2 = OpConstant %uint 2
  %_arr_uint_uint_2 = OpTypeArray %uint %uint_2
         %17 = OpTypeStruct %_arr_uint_uint_2
  %_ptr_PushConstant__struct_17 = OpTypePointer PushConstant %17
  %pushConstants = OpVariable %_ptr_PushConstant__struct_17 PushConstant
      %ulong = OpTypeInt 64 0
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %v2uint = OpTypeVector %uint 2
     %uint_4 = OpConstant %uint 4
  %_arr_uint_uint_4 = OpTypeArray %uint %uint_4
         %33 = OpTypeStruct %_arr_uint_uint_4
  %_ptr_CrossWorkgroup__struct_33 = OpTypePointer CrossWorkgroup %33
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
     %uint_3 = OpConstant %uint 3
   %noParams = OpTypeFunction %void
          %k = OpFunction %void None %noParams
      %entry = OpLabel
     %bufLow = OpAccessChain %_ptr_PushConstant_uint %pushConstants %uint_0 %uint_0
 %bufLowBits = OpLoad %uint %bufLow
    %bufHigh = OpAccessChain %_ptr_PushConstant_uint %pushConstants %uint_0 %uint_1
%bufHighBits = OpLoad %uint %bufHigh
   %bufWords = OpCompositeConstruct %v2uint %bufLowBits %bufHighBits
 %bufAddress = OpBitcast %ulong %bufWords
       %args = OpConvertUToPtr %_ptr_CrossWorkgroup__struct_33 %bufAddress
      %aWord = OpAccessChain %_ptr_CrossWorkgroup_uint %args %uint_0 %uint_0
      %aBits = OpLoad %uint %aWord Aligned 4
          %a = OpBitcast %float %aBits
        %low = OpAccessChain %_ptr_CrossWorkgroup_uint %args %uint_0 %uint_2
    %lowBits = OpLoad %uint %low Aligned 4
       %high = OpAccessChain %_ptr_CrossWorkgroup_uint %args %uint_0 %uint_3
   %highBits = OpLoad %uint %high Aligned 4
      %words = OpCompositeConstruct %v2uint %lowBits %highBits
    %address = OpBitcast %ulong %words
          %y = OpConvertUToPtr %_ptr_CrossWorkgroup_float %address
               OpStore %y %a Aligned 4
               OpReturn
               OpFunctionEnd
)",
                                             small);
  ASSERT_EQ(run.context.reflection.kernels.size(), 1u);
  EXPECT_TRUE(run.context.reflection.kernels[0].argumentBuffer);
  EXPECT_EQ(run.context.reflection.kernels[0].pushConstantSize, 8u);
}

// intel_reqd_sub_group_size(n), llvm-spirv's SubgroupSize execution mode, is recorded in the
// reflection where the device can give that size (its only one, or by request), and refused
// with the kernel's name where it cannot.
TEST(LowerKernelInterfaceTest, RequiredSubgroupSizeIsRecordedOrRefused) {
  auto kernel = [](uint32_t size) {
    return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability SubgroupDispatch
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpExecutionMode %k SubgroupSize )" +
           std::to_string(size) + R"(
               OpName %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  };
  Target lavapipe;
  lavapipe.minSubgroupSize = lavapipe.maxSubgroupSize = 8;
  lavapipe.requiredSubgroupSize = false;
  test::PassRun run = test::runPass("lower-kernel-interface", kernel(8), lavapipe);
  ASSERT_TRUE(run.module) << run.error;
  ASSERT_EQ(run.context.reflection.kernels.size(), 1u);
  EXPECT_EQ(run.context.reflection.kernels[0].requiredSubgroupSize, 8u);
  EXPECT_EQ(test::runPass("lower-kernel-interface", kernel(16), lavapipe).text(),
            "error: kernel 'k': intel_reqd_sub_group_size(16) (the SubgroupSize execution mode) asks for sub-groups "
            "of 16 work-items; this device's have 8");
  Target ranged;  // 8 to 32 lanes, by request
  ranged.minSubgroupSize = 8;
  ranged.maxSubgroupSize = 32;
  EXPECT_EQ(
      test::runPass("lower-kernel-interface", kernel(16), ranged).context.reflection.kernels[0].requiredSubgroupSize,
      16u);
  EXPECT_EQ(test::runPass("lower-kernel-interface", kernel(12), ranged).text(),
            "error: kernel 'k': intel_reqd_sub_group_size(12) (the SubgroupSize execution mode) asks for sub-groups "
            "of 12 work-items; this device's have 8 to 32");
}

}  // namespace
}  // namespace cl2vk
