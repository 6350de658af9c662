#include "passes/types/lower_narrow_integers.h"

#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

Target withoutNarrowTypes() {
  Target target;
  target.int8 = target.int16 = target.storage8 = target.storage16 = false;
  return target;
}

// A kernel that loads a byte from a buffer, adds 200 to it and stores the larger of the sum and
// the byte, compared as signed chars.
const char* const kByteKernel = R"(
; Version: 1.5
               OpCapability Shader
               OpCapability Int8
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k"
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
               OpDecorate %_ptr_PhysicalStorageBuffer_uchar ArrayStride 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %uchar = OpTypeInt 8 0
      %ulong = OpTypeInt 64 0
       %bool = OpTypeBool
  %uchar_200 = OpConstant %uchar 200
 %ulong_4097 = OpConstant %ulong 4097
%_ptr_PhysicalStorageBuffer_uchar = OpTypePointer PhysicalStorageBuffer %uchar
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %p = OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uchar %ulong_4097
          %a = OpLoad %uchar %p Aligned 1
        %sum = OpIAdd %uchar %a %uchar_200
         %lt = OpSLessThan %bool %sum %a
          %r = OpSelect %uchar %lt %sum %a
               OpStore %p %r Aligned 1
               OpReturn
               OpFunctionEnd
)";

// A char's NoSignedWrap promises nothing about the 32-bit value it is computed in (65535 * 65535,
// a ushort -1 squared, overflows an int): the widened arithmetic is a new instruction, and the
// decoration goes with the old one, so finalize-vulkan, which keeps wrap decorations, gets none.
TEST(LowerNarrowIntegersTest, WrapDecorationsOfNarrowArithmeticGo) {
  std::string decorated = kByteKernel;
  std::string stride = "OpDecorate %_ptr_PhysicalStorageBuffer_uchar ArrayStride 1\n";
  decorated.replace(decorated.find(stride), stride.size(), stride + "OpDecorate %sum NoSignedWrap\n");
  test::PassRun run = test::runPass("lower-narrow-integers", decorated, withoutNarrowTypes());
  ASSERT_TRUE(run.module) << run.error;
  EXPECT_EQ(run.text().find("NoSignedWrap"), std::string::npos) << run.text();
  EXPECT_NE(decorated.find("NoSignedWrap"), std::string::npos);
}

// The pointer becomes its address; the byte is read from the word that holds it, the sum is
// masked to 8 bits, the signed comparison sign-extends both sides, and the store sets and clears
// the byte's bits in the word atomically, so that a neighbour's store to the same word survives.
TEST(LowerNarrowIntegersTest, ByteLoadAndStoreGoThroughTheirWordAndArithmeticWraps) {
  test::expectPassOutput("lower-narrow-integers", kByteKernel, R"(
; Version: 1.5
               OpCapability Shader
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k"
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
               OpDecorate %_ptr_PhysicalStorageBuffer_uint ArrayStride 4
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %ulong = OpTypeInt 64 0
       %bool = OpTypeBool
 %ulong_4097 = OpConstant %ulong 4097
       %uint = OpTypeInt 32 0
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
     %uint_3 = OpConstant %uint 3
  %wordMask = OpConstant %ulong 18446744073709551612
   %uint_255 = OpConstant %uint 255
   %uint_200 = OpConstant %uint 200
    %uint_24 = OpConstant %uint 24
     %uint_1 = OpConstant %uint 1
     %uint_0 = OpConstant %uint 0
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %p = OpCopyObject %ulong %ulong_4097
        %low = OpUConvert %uint %p
     %inWord = OpBitwiseAnd %uint %low %uint_3
   %wordAddr = OpBitwiseAnd %ulong %p %wordMask
       %word = OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uint %wordAddr
      %value = OpLoad %uint %word Aligned 4
      %byte1 = OpBitwiseAnd %uint %inWord %uint_3
     %shift1 = OpShiftLeftLogical %uint %byte1 %uint_3
    %shifted = OpShiftRightLogical %uint %value %shift1
          %a = OpBitwiseAnd %uint %shifted %uint_255
       %add = OpIAdd %uint %a %uint_200
        %sum = OpBitwiseAnd %uint %add %uint_255
       %sumUp = OpShiftLeftLogical %uint %sum %uint_24
      %sumExt = OpShiftRightArithmetic %uint %sumUp %uint_24
         %aUp = OpShiftLeftLogical %uint %a %uint_24
        %aExt = OpShiftRightArithmetic %uint %aUp %uint_24
          %lt = OpSLessThan %bool %sumExt %aExt
          %r = OpSelect %uint %lt %sum %a
       %low2 = OpUConvert %uint %p
    %inWord2 = OpBitwiseAnd %uint %low2 %uint_3
  %wordAddr2 = OpBitwiseAnd %ulong %p %wordMask
      %word2 = OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uint %wordAddr2
      %byte2 = OpBitwiseAnd %uint %inWord2 %uint_3
     %shift2 = OpShiftLeftLogical %uint %byte2 %uint_3
       %mask = OpShiftLeftLogical %uint %uint_255 %shift2
     %placed = OpShiftLeftLogical %uint %r %shift2
      %clear = OpNot %uint %mask
       %keep = OpBitwiseOr %uint %clear %placed
          %1 = OpAtomicOr %uint %word2 %uint_1 %uint_0 %placed
          %2 = OpAtomicAnd %uint %word2 %uint_1 %uint_0 %keep
               OpReturn
               OpFunctionEnd
)",
                         withoutNarrowTypes(), SPV_ENV_VULKAN_1_2);
}

TEST(LowerNarrowIntegersTest, NothingChangesOnADeviceWithEightBitArithmeticAndStorage) {
  test::PassRun run = test::runPass("lower-narrow-integers", kByteKernel, Target{});
  ASSERT_TRUE(run.module) << run.error;
  EXPECT_EQ(run.text(), test::canonicalAssembly(kByteKernel));
}

// Private variables get 32-bit elements; a sign extension is a shift up and back, a truncation a
// mask, and a bit cast between char4 and uint packs or unpacks the bytes.
TEST(LowerNarrowIntegersTest, VariablesWidenConversionsExtendOrMaskAndBitCastsPack) {
  test::expectPassOutput("lower-narrow-integers", R"(
; Version: 1.5
               OpCapability Shader
               OpCapability Int8
               OpCapability Int16
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k" %c %n %w
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
               OpName %c "c"
               OpName %n "n"
               OpName %w "w"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
       %uint = OpTypeInt 32 0
    %v4uchar = OpTypeVector %uchar 4
    %uchar_1 = OpConstant %uchar 1
%_ptr_Private_uchar = OpTypePointer Private %uchar
%_ptr_Private_uint = OpTypePointer Private %uint
%_ptr_Private_v4uchar = OpTypePointer Private %v4uchar
          %c = OpVariable %_ptr_Private_uchar Private
          %n = OpVariable %_ptr_Private_uint Private
          %w = OpVariable %_ptr_Private_v4uchar Private
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %x = OpLoad %uchar %c
       %wide = OpSConvert %uint %x
      %short = OpSConvert %ushort %x
       %back = OpUConvert %uchar %short
        %sum = OpIAdd %uchar %back %uchar_1
               OpStore %c %sum
          %v = OpLoad %v4uchar %w
       %bits = OpBitcast %uint %v
      %total = OpIAdd %uint %wide %bits
               OpStore %n %total
      %bytes = OpBitcast %v4uchar %total
               OpStore %w %bytes
               OpReturn
               OpFunctionEnd
)",
                         R"(
; Version: 1.5
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k" %c %n %w
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
               OpName %c "c"
               OpName %n "n"
               OpName %w "w"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
%_ptr_Private_uint = OpTypePointer Private %uint
          %c = OpVariable %_ptr_Private_uint Private
          %n = OpVariable %_ptr_Private_uint Private
     %v4uint = OpTypeVector %uint 4
%_ptr_Private_v4uint = OpTypePointer Private %v4uint
          %w = OpVariable %_ptr_Private_v4uint Private
    %uint_24 = OpConstant %uint 24
 %uint_65535 = OpConstant %uint 65535
   %uint_255 = OpConstant %uint 255
     %uint_1 = OpConstant %uint 1
     %uint_8 = OpConstant %uint 8
    %uint_16 = OpConstant %uint 16
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %x = OpLoad %uint %c
        %up1 = OpShiftLeftLogical %uint %x %uint_24
       %wide = OpShiftRightArithmetic %uint %up1 %uint_24
        %up2 = OpShiftLeftLogical %uint %x %uint_24
       %ext2 = OpShiftRightArithmetic %uint %up2 %uint_24
      %short = OpBitwiseAnd %uint %ext2 %uint_65535
       %back = OpBitwiseAnd %uint %short %uint_255
        %add = OpIAdd %uint %back %uint_1
        %sum = OpBitwiseAnd %uint %add %uint_255
               OpStore %c %sum
          %v = OpLoad %v4uint %w
         %b0 = OpCompositeExtract %uint %v 0
         %b1 = OpCompositeExtract %uint %v 1
        %s1 = OpShiftLeftLogical %uint %b1 %uint_8
        %o1 = OpBitwiseOr %uint %b0 %s1
         %b2 = OpCompositeExtract %uint %v 2
        %s2 = OpShiftLeftLogical %uint %b2 %uint_16
        %o2 = OpBitwiseOr %uint %o1 %s2
         %b3 = OpCompositeExtract %uint %v 3
        %s3 = OpShiftLeftLogical %uint %b3 %uint_24
       %bits = OpBitwiseOr %uint %o2 %s3
      %total = OpIAdd %uint %wide %bits
               OpStore %n %total
         %c0 = OpBitwiseAnd %uint %total %uint_255
        %r1 = OpShiftRightLogical %uint %total %uint_8
         %c1 = OpBitwiseAnd %uint %r1 %uint_255
        %r2 = OpShiftRightLogical %uint %total %uint_16
         %c2 = OpBitwiseAnd %uint %r2 %uint_255
         %c3 = OpShiftRightLogical %uint %total %uint_24
      %bytes = OpCompositeConstruct %v4uint %c0 %c1 %c2 %c3
               OpStore %w %bytes
               OpReturn
               OpFunctionEnd
)",
                         withoutNarrowTypes(), SPV_ENV_VULKAN_1_2);
}

// An element of a char vector at a run-time index, read and written (the CTS's
// op_vector_char16_extract and _insert were refused on SwiftShader): the same instructions on the
// widened vector.
TEST(LowerNarrowIntegersTest, DynamicExtractAndInsertOnByteVectorsWidenWithTheirVectors) {
  std::string dynamic = kByteKernel;
  std::string types = "%uchar_200 = OpConstant %uchar 200\n";
  dynamic.replace(dynamic.find(types), types.size(), types + R"(
       %uint = OpTypeInt 32 0
    %v4uchar = OpTypeVector %uchar 4
    %uchar_1 = OpConstant %uchar 1
     %vector = OpConstantComposite %v4uchar %uchar_1 %uchar_200 %uchar_1 %uchar_200
)");
  std::string select = "          %r = OpSelect %uchar %lt %sum %a\n";
  dynamic.replace(dynamic.find(select), select.size(), R"(
      %index = OpUConvert %uint %a
    %element = OpVectorExtractDynamic %uchar %vector %index
    %changed = OpVectorInsertDynamic %v4uchar %vector %sum %index
       %back = OpCompositeExtract %uchar %changed 1
         %r0 = OpIAdd %uchar %element %back
          %r = OpSelect %uchar %lt %r0 %a
)");
  test::PassRun run = test::runPass("lower-narrow-integers", dynamic, withoutNarrowTypes());
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_NE(text.find("OpVectorExtractDynamic %uint"), std::string::npos) << text;
  EXPECT_NE(text.find("OpVectorInsertDynamic %v4uint"), std::string::npos) << text;
  EXPECT_EQ(text.find("uchar"), std::string::npos) << text;
}

// Sub-group collectives on chars run on the widened values. Where no lane contributes (an
// exclusive scan's first active lane) the 32-bit operation gives its own identity: masked, ~0 and
// UINT_MAX become the char ones, and a clamp to the char range turns INT_MAX and INT_MIN into 127
// and -128 (SwiftShader gave -1 and 0, and an unmasked ~0 stored through its word spilled into the
// neighbouring bytes).
TEST(LowerNarrowIntegersTest, SubgroupScansOfCharsGiveTheCharIdentities) {
  test::expectPassOutput("lower-narrow-integers", R"(
; Version: 1.5
               OpCapability Shader
               OpCapability Int8
               OpCapability GroupNonUniformArithmetic
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k" %out
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
  %uchar_200 = OpConstant %uchar 200
%_ptr_Private_uchar = OpTypePointer Private %uchar
        %out = OpVariable %_ptr_Private_uchar Private
          %k = OpFunction %void None %fn
      %entry = OpLabel
        %min = OpGroupNonUniformSMin %uchar %uint_3 ExclusiveScan %uchar_200
        %and = OpGroupNonUniformBitwiseAnd %uchar %uint_3 ExclusiveScan %min
       %umin = OpGroupNonUniformUMin %uchar %uint_3 Reduce %and
               OpStore %out %umin
               OpReturn
               OpFunctionEnd
)",
                         R"(
; Version: 1.5
               OpCapability Shader
               OpCapability GroupNonUniformArithmetic
       %glsl = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k" %out
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
%_ptr_Private_uint = OpTypePointer Private %uint
        %out = OpVariable %_ptr_Private_uint Private
   %uint_200 = OpConstant %uint 200
    %uint_24 = OpConstant %uint 24
   %char_min = OpConstant %uint 4294967168
   %uint_127 = OpConstant %uint 127
   %uint_255 = OpConstant %uint 255
          %k = OpFunction %void None %fn
      %entry = OpLabel
         %up = OpShiftLeftLogical %uint %uint_200 %uint_24
   %extended = OpShiftRightArithmetic %uint %up %uint_24
        %min = OpGroupNonUniformSMin %uint %uint_3 ExclusiveScan %extended
    %clamped = OpExtInst %uint %glsl SClamp %min %char_min %uint_127
   %charMin = OpBitwiseAnd %uint %clamped %uint_255
        %and = OpGroupNonUniformBitwiseAnd %uint %uint_3 ExclusiveScan %charMin
    %charAnd = OpBitwiseAnd %uint %and %uint_255
       %umin = OpGroupNonUniformUMin %uint %uint_3 Reduce %charAnd
   %charUmin = OpBitwiseAnd %uint %umin %uint_255
               OpStore %out %charUmin
               OpReturn
               OpFunctionEnd
)",
                         withoutNarrowTypes(), SPV_ENV_VULKAN_1_2);
}

// sub_group_non_uniform_all_equal of a char compares the zero-extended values, which are equal
// where the chars are (it was refused as arithmetic the widening cannot do).
TEST(LowerNarrowIntegersTest, AllEqualOfACharComparesTheWidenedValues) {
  test::expectPassOutput("lower-narrow-integers", R"(
; Version: 1.5
               OpCapability Shader
               OpCapability Int8
               OpCapability GroupNonUniformVote
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k" %out
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
  %uchar_200 = OpConstant %uchar 200
%_ptr_Private_bool = OpTypePointer Private %bool
        %out = OpVariable %_ptr_Private_bool Private
          %k = OpFunction %void None %fn
      %entry = OpLabel
      %equal = OpGroupNonUniformAllEqual %bool %uint_3 %uchar_200
               OpStore %out %equal
               OpReturn
               OpFunctionEnd
)",
                         R"(
; Version: 1.5
               OpCapability Shader
               OpCapability GroupNonUniformVote
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k" %out
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
%_ptr_Private_bool = OpTypePointer Private %bool
        %out = OpVariable %_ptr_Private_bool Private
   %uint_200 = OpConstant %uint 200
          %k = OpFunction %void None %fn
      %entry = OpLabel
      %equal = OpGroupNonUniformAllEqual %bool %uint_3 %uint_200
               OpStore %out %equal
               OpReturn
               OpFunctionEnd
)",
                         withoutNarrowTypes(), SPV_ENV_VULKAN_1_2);
}

TEST(LowerNarrowIntegersTest, ASpecializationConstantOfEightBitTypeIsRefusedByName) {
  test::PassRun run = test::runPass("lower-narrow-integers", R"(
; Version: 1.5
               OpCapability Shader
               OpCapability Int8
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k"
               OpExecutionMode %k LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %uchar = OpTypeInt 8 0
     %spec = OpSpecConstant %uchar 3
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)",
                                    withoutNarrowTypes());
  EXPECT_FALSE(run.module);
  EXPECT_NE(run.error.find("OpSpecConstant"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("shaderInt8"), std::string::npos) << run.error;
}

}  // namespace
}  // namespace cl2vk
