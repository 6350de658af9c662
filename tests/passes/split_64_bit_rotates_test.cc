// split-64-bit-rotates: before/after tests. An or of one 64-bit value shifted left and right by
// constants adding up to 64 becomes funnel shifts of its halves; shifts that are not a rotate stay,
// and a target that keeps 64-bit rotates (or has no 64-bit integers) keeps them all.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A compute shader that widens a uint %n it loads from push constants to %x (a ulong) and %v (a
// ulong2); `body` stores what it computes from them through the uint buffer address %a.
std::string shader(const std::string& body) {
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
     %v2uint = OpTypeVector %uint 2
    %v2ulong = OpTypeVector %ulong 2
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
      %uint_8 = OpConstant %uint 8
    %uint_14 = OpConstant %uint 14
    %uint_18 = OpConstant %uint 18
    %uint_24 = OpConstant %uint 24
    %uint_32 = OpConstant %uint 32
    %uint_56 = OpConstant %uint 56
    %ulong_3 = OpConstant %ulong 3
    %ulong_5 = OpConstant %ulong 5
   %ulong_14 = OpConstant %ulong 14
   %ulong_32 = OpConstant %ulong 32
   %ulong_50 = OpConstant %ulong 50
    %ulong_8 = OpConstant %ulong 8
   %ulong_56 = OpConstant %ulong 56
  %v2ulong_8 = OpConstantComposite %v2ulong %ulong_8 %ulong_8
 %v2ulong_56 = OpConstantComposite %v2ulong %ulong_56 %ulong_56
 %v2ulong_mixed = OpConstantComposite %v2ulong %ulong_8 %ulong_14
          %k = OpFunction %void None %noParams
      %entry = OpLabel
        %aAt = OpAccessChain %_ptr_PushConstant__ptr_PhysicalStorageBuffer_uint %args %uint_0
          %a = OpLoad %_ptr_PhysicalStorageBuffer_uint %aAt
        %nAt = OpAccessChain %_ptr_PushConstant_uint %args %uint_1
          %n = OpLoad %uint %nAt
          %x = OpUConvert %ulong %n
          %y = OpIAdd %ulong %x %ulong_3
          %v = OpCompositeConstruct %v2ulong %x %y
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// x rotated left by 50 (the right shift first, as llvm-spirv's funnel-shift helper may write it),
// by 32, and x2 (a ulong2) by 8: the halves change places for 50 and 32 and shift by 18 and 8.
const char* const kRotates = R"(
      %right = OpShiftRightLogical %ulong %x %ulong_14
       %left = OpShiftLeftLogical %ulong %x %ulong_50
         %r1 = OpBitwiseOr %ulong %right %left
        %lo1 = OpUConvert %uint %r1
               OpStore %a %lo1 Aligned 4
        %up2 = OpShiftLeftLogical %ulong %x %uint_32
      %down2 = OpShiftRightLogical %ulong %x %ulong_32
         %r2 = OpBitwiseOr %ulong %up2 %down2
        %lo2 = OpUConvert %uint %r2
               OpStore %a %lo2 Aligned 4
        %vUp = OpShiftLeftLogical %v2ulong %v %v2ulong_8
      %vDown = OpShiftRightLogical %v2ulong %v %v2ulong_56
         %r3 = OpBitwiseOr %v2ulong %vUp %vDown
        %e3 = OpCompositeExtract %ulong %r3 1
        %lo3 = OpUConvert %uint %e3
               OpStore %a %lo3 Aligned 4
)";

// The funnel shifts of `value`'s halves as the pass writes them, into %<name> (its other ids named
// <name>low, <name>a ...): FIRST and SECOND are the halves shifted up (the low one, or the high one
// for amounts of 32 and above), UP and DOWN the amounts.
std::string funnelShifts(const std::string& name, const std::string& value, const std::string& first,
                         const std::string& second, int up) {
  std::string text = R"(
          %Nh = OpBitcast %v2uint VALUE
        %Nlow = OpCompositeExtract %uint %Nh 0
       %Nhigh = OpCompositeExtract %uint %Nh 1
          %Na = OpShiftLeftLogical %uint %NFIRST UP
          %Nb = OpShiftRightLogical %uint %NSECOND DOWN
          %Nc = OpShiftLeftLogical %uint %NSECOND UP
          %Nd = OpShiftRightLogical %uint %NFIRST DOWN
     %NnewLow = OpBitwiseOr %uint %Na %Nb
    %NnewHigh = OpBitwiseOr %uint %Nc %Nd
       %Npair = OpCompositeConstruct %v2uint %NnewLow %NnewHigh
          %N_ = OpBitcast %ulong %Npair
)";
  auto replace = [&text](const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  };
  replace("FIRST", first);
  replace("SECOND", second);
  replace("UP", "%uint_" + std::to_string(up));
  replace("DOWN", "%uint_" + std::to_string(32 - up));
  replace("VALUE", value);
  replace("N_", name);
  replace("%N", "%" + name);
  return text;
}

TEST(Split64BitRotatesTest, RotatesByConstantsBecomeFunnelShiftsOfTheHalves) {
  test::expectPassOutput(
      "split-64-bit-rotates", shader(kRotates),
      shader(funnelShifts("r1", "%x", "high", "low", 18) + R"(
        %lo1 = OpUConvert %uint %r1
               OpStore %a %lo1 Aligned 4
         %h2 = OpBitcast %v2uint %x
       %low2 = OpCompositeExtract %uint %h2 0
      %high2 = OpCompositeExtract %uint %h2 1
      %pair2 = OpCompositeConstruct %v2uint %high2 %low2
         %r2 = OpBitcast %ulong %pair2
        %lo2 = OpUConvert %uint %r2
               OpStore %a %lo2 Aligned 4
         %v0 = OpCompositeExtract %ulong %v 0
)" + funnelShifts("r3a", "%v0", "low", "high", 8) +
             "%v1 = OpCompositeExtract %ulong %v 1\n" + funnelShifts("r3b", "%v1", "low", "high", 8) +
             R"(
         %r3 = OpCompositeConstruct %v2ulong %r3a %r3b
         %e3 = OpCompositeExtract %ulong %r3 1
        %lo3 = OpUConvert %uint %e3
               OpStore %a %lo3 Aligned 4
)"),
      Target{}, SPV_ENV_VULKAN_1_2);
}

// Shifts adding up to less than 64, shifts of two values, a shift by a run-time amount and a vector
// shifted by different amounts per component are not rotates by a constant: all stay.
TEST(Split64BitRotatesTest, WhatIsNotARotateByAConstantStays) {
  const std::string notRotates = shader(R"(
         %u1 = OpShiftLeftLogical %ulong %x %ulong_3
         %d1 = OpShiftRightLogical %ulong %x %ulong_5
         %o1 = OpBitwiseOr %ulong %u1 %d1
        %lo1 = OpUConvert %uint %o1
               OpStore %a %lo1 Aligned 4
         %u2 = OpShiftLeftLogical %ulong %x %ulong_50
         %d2 = OpShiftRightLogical %ulong %y %ulong_14
         %o2 = OpBitwiseOr %ulong %u2 %d2
        %lo2 = OpUConvert %uint %o2
               OpStore %a %lo2 Aligned 4
       %back = OpISub %uint %uint_32 %n
         %u3 = OpShiftLeftLogical %ulong %x %n
         %d3 = OpShiftRightLogical %ulong %x %back
         %o3 = OpBitwiseOr %ulong %u3 %d3
        %lo3 = OpUConvert %uint %o3
               OpStore %a %lo3 Aligned 4
         %u4 = OpShiftLeftLogical %v2ulong %v %v2ulong_mixed
         %d4 = OpShiftRightLogical %v2ulong %v %v2ulong_56
         %o4 = OpBitwiseOr %v2ulong %u4 %d4
         %e4 = OpCompositeExtract %ulong %o4 0
        %lo4 = OpUConvert %uint %e4
               OpStore %a %lo4 Aligned 4
)");
  test::expectPassOutput("split-64-bit-rotates", notRotates, notRotates);
}

TEST(Split64BitRotatesTest, ATargetWithA64BitRotateOrWithout64BitIntegersKeepsThem) {
  Target cpu;
  cpu.split64BitRotates = false;
  test::expectPassOutput("split-64-bit-rotates", shader(kRotates), shader(kRotates), cpu);
  Target noInt64;
  noInt64.int64 = false;
  test::expectPassOutput("split-64-bit-rotates", shader(kRotates), shader(kRotates), noInt64);
}

}  // namespace
}  // namespace cl2vk
