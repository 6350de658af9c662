// fold-integer-constants: before/after tests. Index arithmetic on constants becomes the constant
// index, identities their operand and a step by 0 its base; what is undefined (a shift by the
// width, a division by zero) and what is not known stays.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A compute shader with a buffer address %a and a uint %n it loads from push constants; `body`
// goes in the entry block after them, `globals` after the constants.
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
               OpMemberDecorate %block 0 Offset 0
               OpMemberDecorate %block 1 Offset 8
               OpDecorate %block Block
               OpDecorate %_ptr_PhysicalStorageBuffer_uint ArrayStride 4
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
  %_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
      %block = OpTypeStruct %_ptr_PhysicalStorageBuffer_uint %uint
  %_ptr_PushConstant_block = OpTypePointer PushConstant %block
       %args = OpVariable %_ptr_PushConstant_block PushConstant
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
  %_ptr_PushConstant__ptr_PhysicalStorageBuffer_uint = OpTypePointer PushConstant %_ptr_PhysicalStorageBuffer_uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %ulong_0 = OpConstant %ulong 0
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
    %ulong_3 = OpConstant %ulong 3
    %ulong_4 = OpConstant %ulong 4
)" + globals +
         R"(
          %k = OpFunction %void None %noParams
      %entry = OpLabel
         %aAt = OpAccessChain %_ptr_PushConstant__ptr_PhysicalStorageBuffer_uint %args %uint_0
          %a = OpLoad %_ptr_PhysicalStorageBuffer_uint %aAt
        %nAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_1
          %n = OpLoad %uint %nAt
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// vload4(0, a + 3)'s first component as lower-opencl-std writes it, (0 * 2) * 4 + 3; then an
// index n * 1 + 0 and a step by 0.
TEST(FoldIntegerConstantsTest, IndexArithmeticOnConstantsBecomesTheIndex) {
  test::expectPassOutput("fold-integer-constants", shader(R"(
      %times = OpIMul %ulong %ulong_0 %ulong_2
     %scaled = OpIMul %ulong %times %ulong_4
      %index = OpIAdd %ulong %scaled %ulong_3
          %p = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %a %index
               OpStore %p %n Aligned 4
       %wide = OpUConvert %ulong %n
        %one = OpIMul %ulong %wide %ulong_1
       %sum = OpIAdd %ulong %ulong_0 %one
          %q = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %a %sum
               OpStore %q %n Aligned 4
          %r = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %a %ulong_0
               OpStore %r %n Aligned 4
)"),
                         shader(R"(
          %p = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %a %ulong_3
               OpStore %p %n Aligned 4
       %wide = OpUConvert %ulong %n
          %q = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %a %wide
               OpStore %q %n Aligned 4
               OpStore %a %n Aligned 4
)"),
                         Target{}, SPV_ENV_VULKAN_1_2);
}

// Each operation at its operands' width: -5 as a uint, sign-extended, shifted arithmetically,
// truncated back. A shift by the width and a division by zero are undefined and stay; n & 0 is 0.
TEST(FoldIntegerConstantsTest, ConstantsFoldAtTheirWidthAndUndefinedResultsStay) {
  const std::string constants = R"(
     %uint_5 = OpConstant %uint 5
     %uint_7 = OpConstant %uint 7
    %uint_32 = OpConstant %uint 32
)";
  test::expectPassOutput("fold-integer-constants",
                         shader(R"(
        %neg = OpSNegate %uint %uint_5
       %wide = OpSConvert %ulong %neg
        %sra = OpShiftRightArithmetic %ulong %wide %ulong_1
        %low = OpUConvert %uint %sra
               OpStore %a %low Aligned 4
       %over = OpShiftLeftLogical %uint %uint_1 %uint_32
               OpStore %a %over Aligned 4
     %byZero = OpUDiv %uint %uint_7 %uint_0
               OpStore %a %byZero Aligned 4
       %none = OpBitwiseAnd %uint %n %uint_0
               OpStore %a %none Aligned 4
)",
                                constants),
                         shader(R"(
               OpStore %a %uint_4294967293 Aligned 4
       %over = OpShiftLeftLogical %uint %uint_1 %uint_32
               OpStore %a %over Aligned 4
     %byZero = OpUDiv %uint %uint_7 %uint_0
               OpStore %a %byZero Aligned 4
               OpStore %a %uint_0 Aligned 4
)",
                                constants + R"(
  %uint_4294967291 = OpConstant %uint 4294967291
  %ulong_minus_5 = OpConstant %ulong 18446744073709551611
  %ulong_minus_3 = OpConstant %ulong 18446744073709551613
  %uint_4294967293 = OpConstant %uint 4294967293
)"),
                         Target{}, SPV_ENV_VULKAN_1_2);
}

}  // namespace
}  // namespace cl2vk
