// signed-offsets-as-integers: before/after tests. A buffer pointer chain whose element index may
// be negative (a sign extension here) becomes integer arithmetic on the address; one whose index
// is known non-negative (a zero extension, a sum of them) stays a chain.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A compute shader with a buffer address %a and an int %n from push constants; `body` goes in the
// entry block after them, `globals` after the types.
std::string shader(const std::string& body, const std::string& globals = "") {
  return R"(
; Version: 1.5
               OpCapability Shader
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
               OpDecorate %_arr_uint_uint_3 ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %_ptr_PhysicalStorageBuffer_uint ArrayStride 4
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
  %_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
     %v2uint = OpTypeVector %uint 2
  %_arr_uint_uint_3 = OpTypeArray %uint %uint_3
      %block = OpTypeStruct %_arr_uint_uint_3
  %_ptr_PushConstant_block = OpTypePointer PushConstant %block
       %args = OpVariable %_ptr_PushConstant_block PushConstant
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
)" + globals +
         R"(
          %k = OpFunction %void None %noParams
      %entry = OpLabel
         %w0 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
         %a0 = OpLoad %uint %w0
         %w1 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_1
         %a1 = OpLoad %uint %w1
         %w2 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_2
          %n = OpLoad %uint %w2
      %aBits = OpCompositeConstruct %v2uint %a0 %a1
          %a = OpBitcast %_ptr_PhysicalStorageBuffer_uint %aBits
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// c[-n], as clang writes it: the chain's index is the sign extension of a 32-bit value.
TEST(SignedOffsetsTest, ASignExtendedIndexMovesTheAddress) {
  test::expectPassOutput("signed-offsets-as-integers", shader(R"(
       %negN = OpSNegate %uint %n
      %index = OpSConvert %ulong %negN
          %p = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %a %index
               OpStore %p %n Aligned 4
)"),
                         shader(R"(
       %negN = OpSNegate %uint %n
      %index = OpSConvert %ulong %negN
       %size = OpIMul %ulong %index %ulong_4
       %base = OpConvertPtrToU %ulong %a
      %moved = OpIAdd %ulong %base %size
          %p = OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uint %moved
               OpStore %p %n Aligned 4
)",
                                R"(
    %ulong_4 = OpConstant %ulong 4
)"),
                         Target{}, SPV_ENV_VULKAN_1_2);
}

// a[n + 1] with a zero-extended n, and a[n * 2 >> 1]: known non-negative, the chain stays.
TEST(SignedOffsetsTest, IndexesKnownNonNegativeStayChains) {
  const std::string body = R"(
       %wide = OpUConvert %ulong %n
        %sum = OpIAdd %ulong %wide %ulong_1
          %p = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %a %sum
               OpStore %p %n Aligned 4
    %twice = OpIMul %ulong %wide %ulong_2
     %half = OpShiftRightLogical %ulong %twice %ulong_1
          %q = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %a %half
               OpStore %q %n Aligned 4
)";
  const std::string constants = R"(
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
)";
  test::expectPassOutput("signed-offsets-as-integers", shader(body, constants), shader(body, constants), Target{},
                         SPV_ENV_VULKAN_1_2);
}

}  // namespace
}  // namespace cl2vk
