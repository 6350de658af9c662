#include "passes/types/widen_odd_integers.h"

#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A kernel `k(uint a, uint b, __global uint* out)` with 4-bit integers declared, as llvm-spirv-15
// writes them under SPV_INTEL_arbitrary_precision_integers; `globals` adds types and constants,
// `body` is the function's code after its entry label.
std::string kernel(const std::string& globals, const std::string& body) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpCapability ArbitraryPrecisionIntegersINTEL
               OpExtension "SPV_INTEL_arbitrary_precision_integers"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
         %u4 = OpTypeInt 4 0
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %uint %uint %_ptr_CrossWorkgroup_uint
)" + globals +
         R"(
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// The same kernel after the pass: no 4-bit type, no capability or extension for it.
std::string widened(const std::string& globals, const std::string& body, const std::string& capabilities = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
)" + capabilities +
         R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %uint %uint %_ptr_CrossWorkgroup_uint
)" + globals +
         R"(
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// An i4 lives in a uchar holding its 4 bits: the truncations and the sum are masked to them (7 + 9
// wraps to 0), and the signed comparison sign-extends both sides from bit 4 (0xF is -1).
TEST(WidenOddIntegersTest, I4AddWrapsAndSignedCompareSignExtends) {
  test::expectPassOutput("widen-odd-integers", kernel("", R"(
          %x = OpUConvert %u4 %a
          %y = OpUConvert %u4 %b
        %sum = OpIAdd %u4 %x %y
       %less = OpSLessThan %bool %sum %x
       %wide = OpUConvert %uint %sum
     %result = OpSelect %uint %less %wide %b
               OpStore %out %result
)"),
                         widened(R"(
   %uchar_15 = OpConstant %uchar 15
    %uchar_4 = OpConstant %uchar 4
)",
                                 R"(
     %xBytes = OpUConvert %uchar %a
          %x = OpBitwiseAnd %uchar %xBytes %uchar_15
     %yBytes = OpUConvert %uchar %b
          %y = OpBitwiseAnd %uchar %yBytes %uchar_15
       %add = OpIAdd %uchar %x %y
        %sum = OpBitwiseAnd %uchar %add %uchar_15
      %sumUp = OpShiftLeftLogical %uchar %sum %uchar_4
     %sumExt = OpShiftRightArithmetic %uchar %sumUp %uchar_4
        %xUp = OpShiftLeftLogical %uchar %x %uchar_4
       %xExt = OpShiftRightArithmetic %uchar %xUp %uchar_4
       %less = OpSLessThan %bool %sumExt %xExt
       %wide = OpUConvert %uint %sum
     %result = OpSelect %uint %less %wide %b
               OpStore %out %result
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// A signed division divides the sign-extended values and keeps 4 bits of the quotient; an
// arithmetic shift shifts the sign-extended value; a sign extension to 32 bits extends from bit 4.
TEST(WidenOddIntegersTest, SignedDivisionAndArithmeticShiftSignExtendFromBitN) {
  test::expectPassOutput("widen-odd-integers", kernel("%u4_1 = OpConstant %u4 1\n", R"(
          %x = OpUConvert %u4 %a
          %y = OpUConvert %u4 %b
   %quotient = OpSDiv %u4 %x %y
    %shifted = OpShiftRightArithmetic %u4 %quotient %u4_1
     %result = OpSConvert %uint %shifted
               OpStore %out %result
)"),
                         widened(R"(
   %uchar_15 = OpConstant %uchar 15
    %uchar_4 = OpConstant %uchar 4
    %uchar_1 = OpConstant %uchar 1
)",
                                 R"(
     %xBytes = OpUConvert %uchar %a
          %x = OpBitwiseAnd %uchar %xBytes %uchar_15
     %yBytes = OpUConvert %uchar %b
          %y = OpBitwiseAnd %uchar %yBytes %uchar_15
        %yUp = OpShiftLeftLogical %uchar %y %uchar_4
       %yExt = OpShiftRightArithmetic %uchar %yUp %uchar_4
        %xUp = OpShiftLeftLogical %uchar %x %uchar_4
       %xExt = OpShiftRightArithmetic %uchar %xUp %uchar_4
        %div = OpSDiv %uchar %xExt %yExt
   %quotient = OpBitwiseAnd %uchar %div %uchar_15
        %qUp = OpShiftLeftLogical %uchar %quotient %uchar_4
       %qExt = OpShiftRightArithmetic %uchar %qUp %uchar_4
      %shift = OpShiftRightArithmetic %uchar %qExt %uchar_1
    %shifted = OpBitwiseAnd %uchar %shift %uchar_15
        %sUp = OpShiftLeftLogical %uchar %shifted %uchar_4
       %sExt = OpShiftRightArithmetic %uchar %sUp %uchar_4
     %result = OpSConvert %uint %sExt
               OpStore %out %result
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// Conversions between odd and standard widths, and between two odd ones held in different
// widths: an i24 in a uint, an i12 in a ushort (whose capability the pass declares).
TEST(WidenOddIntegersTest, ConversionsBetweenOddWidthsExtendThenMask) {
  test::expectPassOutput("widen-odd-integers",
                         kernel(R"(
        %u24 = OpTypeInt 24 0
        %u12 = OpTypeInt 12 0
)",
                                R"(
          %x = OpUConvert %u4 %a
     %signed = OpSConvert %uint %x
        %x24 = OpUConvert %u24 %a
        %x12 = OpSConvert %u12 %x24
       %back = OpSConvert %uint %x12
        %sum = OpIAdd %uint %signed %back
               OpStore %out %sum
)"),
                         widened(R"(
   %uchar_15 = OpConstant %uchar 15
    %uchar_4 = OpConstant %uchar 4
%uint_16777215 = OpConstant %uint 16777215
     %uint_8 = OpConstant %uint 8
     %ushort = OpTypeInt 16 0
%ushort_4095 = OpConstant %ushort 4095
   %ushort_4 = OpConstant %ushort 4
)",
                                 R"(
     %xBytes = OpUConvert %uchar %a
          %x = OpBitwiseAnd %uchar %xBytes %uchar_15
        %xUp = OpShiftLeftLogical %uchar %x %uchar_4
       %xExt = OpShiftRightArithmetic %uchar %xUp %uchar_4
     %signed = OpSConvert %uint %xExt
        %x24 = OpBitwiseAnd %uint %a %uint_16777215
      %x24Up = OpShiftLeftLogical %uint %x24 %uint_8
     %x24Ext = OpShiftRightArithmetic %uint %x24Up %uint_8
      %short = OpSConvert %ushort %x24Ext
        %x12 = OpBitwiseAnd %ushort %short %ushort_4095
      %x12Up = OpShiftLeftLogical %ushort %x12 %ushort_4
     %x12Ext = OpShiftRightArithmetic %ushort %x12Up %ushort_4
       %back = OpSConvert %uint %x12Ext
        %sum = OpIAdd %uint %signed %back
               OpStore %out %sum
)",
                                 "OpCapability Int16\n"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// A vector of two i2 is a uchar2 of their bits; its bit cast to an i4 puts component 0 in the low
// bits, as LLVM lays a vector out. The constant vector is widened with its components.
TEST(WidenOddIntegersTest, I2VectorBitCastToI4PacksComponentZeroLow) {
  test::expectPassOutput("widen-odd-integers",
                         kernel(R"(
         %u2 = OpTypeInt 2 0
       %v2u2 = OpTypeVector %u2 2
       %u2_1 = OpConstant %u2 1
       %u2_3 = OpConstant %u2 3
       %pair = OpConstantComposite %v2u2 %u2_1 %u2_3
)",
                                R"(
          %x = OpUConvert %u2 %a
          %v = OpCompositeInsert %v2u2 %x %pair 0
     %packed = OpBitcast %u4 %v
     %result = OpUConvert %uint %packed
               OpStore %out %result
)"),
                         widened(R"(
    %uchar_3 = OpConstant %uchar 3
    %v2uchar = OpTypeVector %uchar 2
    %uchar_1 = OpConstant %uchar 1
       %pair = OpConstantComposite %v2uchar %uchar_1 %uchar_3
    %uchar_2 = OpConstant %uchar 2
   %uchar_15 = OpConstant %uchar 15
)",
                                 R"(
     %xBytes = OpUConvert %uchar %a
          %x = OpBitwiseAnd %uchar %xBytes %uchar_3
          %v = OpCompositeInsert %v2uchar %x %pair 0
        %low = OpCompositeExtract %uchar %v 0
       %high = OpCompositeExtract %uchar %v 1
     %placed = OpShiftLeftLogical %uchar %high %uchar_2
       %both = OpBitwiseOr %uchar %low %placed
     %packed = OpBitwiseAnd %uchar %both %uchar_15
     %result = OpUConvert %uint %packed
               OpStore %out %result
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// A switch on an i4 (what clang-15 -O2 makes of `switch (x & 0xf)`) switches on the widened
// selector, its case literals unchanged; the constant 15 (-1 as an i4) becomes a uchar 15, and
// the sum in the case (x + 15, that is x - 1) wraps at 4 bits.
TEST(WidenOddIntegersTest, SwitchOnI4SwitchesOnTheWidenedSelector) {
  const std::string cases = R"(
               OpSelectionMerge %done None
               OpSwitch %x %other 2 %two 15 %last
      %other = OpLabel
               OpStore %out %a
               OpBranch %done
        %two = OpLabel
)";
  const std::string end = R"(
               OpBranch %done
       %last = OpLabel
               OpBranch %done
       %done = OpLabel
)";
  test::expectPassOutput("widen-odd-integers", kernel("%u4_15 = OpConstant %u4 15\n", R"(
          %x = OpUConvert %u4 %a
)" + cases + R"(
        %sum = OpIAdd %u4 %x %u4_15
       %wide = OpUConvert %uint %sum
               OpStore %out %wide
)" + end),
                         widened("%uchar_15 = OpConstant %uchar 15\n", R"(
     %xBytes = OpUConvert %uchar %a
          %x = OpBitwiseAnd %uchar %xBytes %uchar_15
)" + cases + R"(
        %add = OpIAdd %uchar %x %uchar_15
        %sum = OpBitwiseAnd %uchar %add %uchar_15
       %wide = OpUConvert %uint %sum
               OpStore %out %wide
)" + end),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// An i24 takes 3 bytes in memory (LLVM's store size), not the 4 of the uint that holds it: it is
// loaded and stored a byte at a time, low byte first, so the byte after it is left alone.
TEST(WidenOddIntegersTest, I24LoadAndStoreTouchThreeBytes) {
  test::expectPassOutput("widen-odd-integers",
                         kernel(R"(
        %u24 = OpTypeInt 24 0
%_ptr_CrossWorkgroup_u24 = OpTypePointer CrossWorkgroup %u24
)",
                                R"(
          %p = OpBitcast %_ptr_CrossWorkgroup_u24 %out
          %x = OpLoad %u24 %p Aligned 1
          %y = OpUConvert %u24 %a
        %sum = OpIAdd %u24 %x %y
               OpStore %p %sum Aligned 1
)"),
                         widened(R"(
%_ptr_CrossWorkgroup_uchar = OpTypePointer CrossWorkgroup %uchar
     %uint_1 = OpConstant %uint 1
     %uint_8 = OpConstant %uint 8
     %uint_2 = OpConstant %uint 2
    %uint_16 = OpConstant %uint 16
%uint_16777215 = OpConstant %uint 16777215
)",
                                 R"(
          %p = OpBitcast %_ptr_CrossWorkgroup_uint %out
     %bytes0 = OpBitcast %_ptr_CrossWorkgroup_uchar %p
      %load0 = OpLoad %uchar %bytes0 Aligned 1
     %value0 = OpUConvert %uint %load0
     %bytes1 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uchar %bytes0 %uint_1
      %load1 = OpLoad %uchar %bytes1 Aligned 1
     %value1 = OpUConvert %uint %load1
    %placed1 = OpShiftLeftLogical %uint %value1 %uint_8
     %upTo16 = OpBitwiseOr %uint %value0 %placed1
     %bytes2 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uchar %bytes0 %uint_2
      %load2 = OpLoad %uchar %bytes2 Aligned 1
     %value2 = OpUConvert %uint %load2
    %placed2 = OpShiftLeftLogical %uint %value2 %uint_16
          %x = OpBitwiseOr %uint %upTo16 %placed2
          %y = OpBitwiseAnd %uint %a %uint_16777215
        %add = OpIAdd %uint %x %y
        %sum = OpBitwiseAnd %uint %add %uint_16777215
     %store0 = OpBitcast %_ptr_CrossWorkgroup_uchar %p
      %byte0 = OpUConvert %uchar %sum
               OpStore %store0 %byte0 Aligned 1
    %shifted1 = OpShiftRightLogical %uint %sum %uint_8
      %byte1 = OpUConvert %uchar %shifted1
     %store1 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uchar %store0 %uint_1
               OpStore %store1 %byte1 Aligned 1
   %shifted2 = OpShiftRightLogical %uint %sum %uint_16
      %byte2 = OpUConvert %uchar %shifted2
     %store2 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uchar %store0 %uint_2
               OpStore %store2 %byte2 Aligned 1
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// A helper function taking and returning an i4 (left by the front end at -O0) is widened with its
// signature; the values cross the call as they are held, zero-extended.
TEST(WidenOddIntegersTest, FunctionSignaturesAreWidened) {
  const std::string helper = R"(
      %twice = OpFunction %u4 None %fn4
          %v = OpFunctionParameter %u4
       %body = OpLabel
          %d = OpIAdd %u4 %v %v
               OpReturnValue %d
               OpFunctionEnd
)";
  std::string before = kernel("%fn4 = OpTypeFunction %u4 %u4\n", R"(
          %x = OpUConvert %u4 %a
          %y = OpFunctionCall %u4 %twice %x
       %wide = OpUConvert %uint %y
               OpStore %out %wide
)") + helper;
  test::PassRun run = test::runPass("widen-odd-integers", before);
  ASSERT_TRUE(run.module) << run.error;
  EXPECT_NE(run.text().find("OpTypeFunction %uchar %uchar"), std::string::npos) << run.text();
  EXPECT_NE(run.text().find("OpFunction %uchar None"), std::string::npos) << run.text();
  EXPECT_NE(run.text().find("OpFunctionParameter %uchar"), std::string::npos) << run.text();
  EXPECT_EQ(run.text().find("OpTypeInt 4"), std::string::npos) << run.text();
}

// A module without odd widths is left as it is.
TEST(WidenOddIntegersTest, StandardWidthsAreUnchanged) {
  std::string module = widened("", "OpStore %out %a\n");
  test::expectPassOutput("widen-odd-integers", module, module, Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// What the pass cannot widen is refused, naming the kernel and the instruction.
TEST(WidenOddIntegersTest, AtomicsVectorsInMemoryAndWideIntegersAreRefused) {
  EXPECT_EQ(test::runPass("widen-odd-integers", kernel(R"(
%_ptr_CrossWorkgroup_u4 = OpTypePointer CrossWorkgroup %u4
     %uint_1 = OpConstant %uint 1
     %uint_0 = OpConstant %uint 0
)",
                                                       R"(
          %p = OpBitcast %_ptr_CrossWorkgroup_u4 %out
          %x = OpAtomicLoad %u4 %p %uint_1 %uint_0
)"))
                .text(),
            "error: kernel 'k': %17 = OpAtomicLoad in function 'k': atomics on integers of a width other than 8, 16, "
            "32 or 64 bits are not supported");
  EXPECT_EQ(test::runPass("widen-odd-integers", kernel(R"(
       %v2u4 = OpTypeVector %u4 2
%_ptr_CrossWorkgroup_v2u4 = OpTypePointer CrossWorkgroup %v2u4
)",
                                                       R"(
          %p = OpBitcast %_ptr_CrossWorkgroup_v2u4 %out
          %x = OpLoad %v2u4 %p
)"))
                .text(),
            "error: kernel 'k': %16 = OpLoad in function 'k': a vector of 4-bit integers loaded from memory (LLVM "
            "packs its bits) is not supported");
  EXPECT_EQ(test::runPass("widen-odd-integers", kernel("%u80 = OpTypeInt 80 0\n", "")).text(),
            "error: %9 = OpTypeInt: integers wider than 64 bits are not supported");
}

}  // namespace
}  // namespace cl2vk
