// combine-vector-loads: before/after tests. Component loads of one __local vector in a block
// become one vector load and extracts; a write to that memory between them (a store, a barrier)
// splits them; buffer and volatile loads stay as they are.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A compute shader with a __local array of float4 (%tile), an index %i from the push constants and
// an output buffer %out; `body` goes in the entry block after them.
std::string shader(const std::string& body) {
  return R"(
; Version: 1.5
               OpCapability Shader
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args %tile
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
               OpName %tile "tile"
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %_arr_uint_uint_4 ArrayStride 4
               OpDecorate %_ptr_PhysicalStorageBuffer_float ArrayStride 4
               OpDecorate %_ptr_PhysicalStorageBuffer_v4float ArrayStride 16
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
     %v2uint = OpTypeVector %uint 2
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
    %uint_64 = OpConstant %uint 64
   %uint_264 = OpConstant %uint 264
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
%_arr_uint_uint_4 = OpTypeArray %uint %uint_4
      %block = OpTypeStruct %_arr_uint_uint_4
%_ptr_PushConstant_block = OpTypePointer PushConstant %block
%_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
       %args = OpVariable %_ptr_PushConstant_block PushConstant
%_arr_v4float_uint_64 = OpTypeArray %v4float %uint_64
%_ptr_Workgroup__arr_v4float_uint_64 = OpTypePointer Workgroup %_arr_v4float_uint_64
%_ptr_Workgroup_float = OpTypePointer Workgroup %float
%_ptr_Workgroup_v4float = OpTypePointer Workgroup %v4float
       %tile = OpVariable %_ptr_Workgroup__arr_v4float_uint_64 Workgroup
%_ptr_PhysicalStorageBuffer_float = OpTypePointer PhysicalStorageBuffer %float
%_ptr_PhysicalStorageBuffer_v4float = OpTypePointer PhysicalStorageBuffer %v4float
          %k = OpFunction %void None %noParams
      %entry = OpLabel
         %wi = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
          %i = OpLoad %uint %wi
         %w1 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_1
         %o0 = OpLoad %uint %w1
         %w2 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_2
         %o1 = OpLoad %uint %w2
      %oBits = OpCompositeConstruct %v2uint %o0 %o1
        %out = OpBitcast %_ptr_PhysicalStorageBuffer_float %oBits
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// Three of the four components, read one by one and summed: one load of the vector.
TEST(CombineVectorLoadsTest, ComponentLoadsOfOneLocalVectorBecomeOneLoad) {
  test::expectPassOutput("combine-vector-loads", shader(R"(
         %p0 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_0
         %x0 = OpLoad %float %p0 Aligned 16
         %p1 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_1
         %x1 = OpLoad %float %p1 Aligned 4
         %p3 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_3
         %x3 = OpLoad %float %p3 Aligned 4
         %s0 = OpFAdd %float %x0 %x1
         %s1 = OpFAdd %float %s0 %x3
               OpStore %out %s1 Aligned 4
)"),
                         shader(R"(
          %v = OpAccessChain %_ptr_Workgroup_v4float %tile %i
         %vx = OpLoad %v4float %v
         %x0 = OpCompositeExtract %float %vx 0
         %x1 = OpCompositeExtract %float %vx 1
         %x3 = OpCompositeExtract %float %vx 3
         %s0 = OpFAdd %float %x0 %x1
         %s1 = OpFAdd %float %s0 %x3
               OpStore %out %s1 Aligned 4
)"),
                         Target{}, SPV_ENV_VULKAN_1_2);
}

// A store to __local memory between the loads: those before it and those after it are combined
// apart. A store to a buffer between them splits nothing.
TEST(CombineVectorLoadsTest, ALocalStoreBetweenLoadsSplitsThem) {
  test::expectPassOutput("combine-vector-loads", shader(R"(
         %p0 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_0
         %x0 = OpLoad %float %p0
               OpStore %out %x0 Aligned 4
         %p1 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_1
         %x1 = OpLoad %float %p1
               OpStore %p1 %x0
         %p2 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_2
         %x2 = OpLoad %float %p2
         %p3 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_3
         %x3 = OpLoad %float %p3
         %s0 = OpFAdd %float %x1 %x2
         %s1 = OpFAdd %float %s0 %x3
               OpStore %out %s1 Aligned 4
)"),
                         shader(R"(
         %va = OpAccessChain %_ptr_Workgroup_v4float %tile %i
         %xa = OpLoad %v4float %va
         %x0 = OpCompositeExtract %float %xa 0
               OpStore %out %x0 Aligned 4
         %p1 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_1
         %x1 = OpCompositeExtract %float %xa 1
               OpStore %p1 %x0
         %vb = OpAccessChain %_ptr_Workgroup_v4float %tile %i
         %xb = OpLoad %v4float %vb
         %x2 = OpCompositeExtract %float %xb 2
         %x3 = OpCompositeExtract %float %xb 3
         %s0 = OpFAdd %float %x1 %x2
         %s1 = OpFAdd %float %s0 %x3
               OpStore %out %s1 Aligned 4
)"),
                         Target{}, SPV_ENV_VULKAN_1_2);
}

// A barrier between two component loads, a lone component load, volatile loads and loads from a
// buffer: nothing changes.
TEST(CombineVectorLoadsTest, BarriersVolatileAndBufferLoadsStayAsTheyAre) {
  const std::string body = R"(
         %p0 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_0
         %x0 = OpLoad %float %p0
               OpControlBarrier %uint_2 %uint_2 %uint_264
         %p1 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_1
         %x1 = OpLoad %float %p1
         %p2 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_2
         %x2 = OpLoad %float %p2 Volatile
         %p3 = OpAccessChain %_ptr_Workgroup_float %tile %i %uint_3
         %x3 = OpLoad %float %p3 Volatile
        %bv = OpBitcast %_ptr_PhysicalStorageBuffer_v4float %oBits
         %b0 = OpAccessChain %_ptr_PhysicalStorageBuffer_float %bv %uint_0
         %y0 = OpLoad %float %b0 Aligned 16
         %b1 = OpAccessChain %_ptr_PhysicalStorageBuffer_float %bv %uint_1
         %y1 = OpLoad %float %b1 Aligned 4
         %s0 = OpFAdd %float %x0 %x1
         %s1 = OpFAdd %float %x2 %x3
         %s2 = OpFAdd %float %y0 %y1
         %s3 = OpFAdd %float %s0 %s1
         %s4 = OpFAdd %float %s3 %s2
               OpStore %out %s4 Aligned 4
)";
  test::expectPassOutput("combine-vector-loads", shader(body), shader(body), Target{}, SPV_ENV_VULKAN_1_2);
}

}  // namespace
}  // namespace cl2vk
