// lower-double-rounding: before/after tests, and the rewritten forms evaluated against C++ over
// the doubles where llvmpipe went wrong. Where the target's driver rounds doubles wrong (llvmpipe
// on a CPU without AVX-512), GLSL.std.450 RoundEven and Trunc of doubles become Floor of the
// magnitude and selects; float ones, and every target whose driver rounds right, are left alone.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "opencl_std_evaluator_test_util.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

Target llvmpipe() {
  Target target;
  target.float64Rounding = false;
  return target;
}

// A compute shader that rounds the double in a Private variable with `body` (reading %x, writing
// %r) and stores it back; `globals` go after the variables.
std::string shader(const std::string& body, const std::string& globals = "") {
  return R"(
; Version: 1.5
               OpCapability Shader
               OpCapability Float64
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k" %value %single
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
     %double = OpTypeFloat 64
      %float = OpTypeFloat 32
%_ptr_Private_double = OpTypePointer Private %double
%_ptr_Private_float = OpTypePointer Private %float
      %value = OpVariable %_ptr_Private_double Private
     %single = OpVariable %_ptr_Private_float Private
)" + globals +
         R"(
          %k = OpFunction %void None %noParams
      %entry = OpLabel
          %x = OpLoad %double %value
          %s = OpLoad %float %single
)" + body +
         R"(
               OpStore %value %r
               OpReturn
               OpFunctionEnd
)";
}

TEST(LowerDoubleRoundingTest, TruncIsTheFloorOfTheMagnitudeWithTheSignOfX) {
  test::expectPassOutput("lower-double-rounding", shader("%r = OpExtInst %double %1 Trunc %x\n"),
                         shader(R"(
         %10 = OpExtInst %double %1 FAbs %x
         %11 = OpExtInst %double %1 Floor %10
         %12 = OpFOrdLessThan %bool %x %double_0
         %13 = OpFNegate %double %11
         %14 = OpSelect %double %12 %13 %11
         %15 = OpFOrdEqual %bool %x %double_0
          %r = OpSelect %double %15 %x %14
)",
                                "%double_0 = OpConstant %double 0\n%bool = OpTypeBool\n"),
                         llvmpipe(), SPV_ENV_VULKAN_1_2);
}

TEST(LowerDoubleRoundingTest, RoundEvenGoesUpPastOneHalfAndAtOneHalfFromAnOddFloor) {
  test::expectPassOutput("lower-double-rounding", shader("%r = OpExtInst %double %1 RoundEven %x\n"),
                         shader(R"(
         %10 = OpExtInst %double %1 FAbs %x
         %11 = OpExtInst %double %1 Floor %10
         %12 = OpFSub %double %10 %11
         %13 = OpFMul %double %11 %double_0_5
         %14 = OpExtInst %double %1 Floor %13
         %15 = OpFOrdNotEqual %bool %14 %13
         %16 = OpFOrdGreaterThan %bool %12 %double_0_5
         %17 = OpFOrdEqual %bool %12 %double_0_5
         %18 = OpLogicalAnd %bool %17 %15
         %19 = OpLogicalOr %bool %16 %18
         %20 = OpFAdd %double %11 %double_1
         %21 = OpSelect %double %19 %20 %11
         %22 = OpFOrdLessThan %bool %x %double_0
         %23 = OpFNegate %double %21
         %24 = OpSelect %double %22 %23 %21
         %25 = OpFOrdEqual %bool %x %double_0
          %r = OpSelect %double %25 %x %24
)",
                                "%double_0_5 = OpConstant %double 0.5\n%bool = OpTypeBool\n"
                                "%double_1 = OpConstant %double 1\n%double_0 = OpConstant %double 0\n"),
                         llvmpipe(), SPV_ENV_VULKAN_1_2);
}

TEST(LowerDoubleRoundingTest, FloatsAndOtherDriversAreLeftAlone) {
  std::string floats = shader(
      "%t = OpExtInst %float %1 RoundEven %s\n%u = OpExtInst %float %1 Trunc %t\n%r = OpCopyObject %double %x\n");
  test::expectPassOutput("lower-double-rounding", floats, floats, llvmpipe(), SPV_ENV_VULKAN_1_2);
  std::string doubles = shader("%t = OpExtInst %double %1 RoundEven %x\n%r = OpExtInst %double %1 Trunc %t\n");
  test::expectPassOutput("lower-double-rounding", doubles, doubles, Target{}, SPV_ENV_VULKAN_1_2);
}

// f(x) = RoundEven(x) and g(x) = Trunc(x) on double2, lowered and run by the evaluator.
const char* kFunctions = R"(
               OpCapability Shader
               OpCapability Float64
               OpCapability Linkage
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpName %f "f"
               OpName %g "g"
     %double = OpTypeFloat 64
   %v2double = OpTypeVector %double 2
         %fn = OpTypeFunction %v2double %v2double
          %f = OpFunction %v2double None %fn
          %a = OpFunctionParameter %v2double
         %fa = OpLabel
         %ra = OpExtInst %v2double %1 RoundEven %a
               OpReturnValue %ra
               OpFunctionEnd
          %g = OpFunction %v2double None %fn
          %b = OpFunctionParameter %v2double
         %gb = OpLabel
         %rb = OpExtInst %v2double %1 Trunc %b
               OpReturnValue %rb
               OpFunctionEnd
)";

TEST(LowerDoubleRoundingTest, RewrittenFormsRoundEveryDoubleExactly) {
  test::PassRun run = test::runPass("lower-double-rounding", kFunctions, llvmpipe());
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_EQ(text.find("RoundEven"), std::string::npos) << text;
  EXPECT_EQ(text.find("Trunc"), std::string::npos) << text;
  test::Evaluator evaluator(*run.module);
  std::vector<double> values;
  for (double v : {0.0, 0.5, 1.5, 2.5, 0x1p24 + 0.5, 0x1p33 + 0.5, 0x1.00caa82a2e5ep+33, 0x1p52 - 0.5, 0x1p52 + 1,
                   0x1p53, std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(),
                   std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    for (double w : {v, std::nextafter(v, 0.0), std::nextafter(v, INFINITY)}) values.push_back(w), values.push_back(-w);
  }
  for (uint64_t state = 1; values.size() < 4000;) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    values.push_back(std::ldexp(double(state >> 11), -int(state % 64)));  // fractions of all sizes
    values.push_back(std::bit_cast<double>(state));
  }
  for (double x : values) {
    test::EvalValue argument{{std::bit_cast<uint64_t>(x), std::bit_cast<uint64_t>(-x)}, {}};
    test::EvalValue rounded = evaluator.run("f", {argument}), truncated = evaluator.run("g", {argument});
    for (int lane = 0; lane < 2; ++lane) {
      double input = lane ? -x : x;
      double expectedRint = std::nearbyint(input), expectedTrunc = std::trunc(input);
      if (std::isnan(input)) {
        EXPECT_TRUE(std::isnan(std::bit_cast<double>(rounded.lanes[lane])));
        EXPECT_TRUE(std::isnan(std::bit_cast<double>(truncated.lanes[lane])));
        continue;
      }
      ASSERT_EQ(rounded.lanes[lane], std::bit_cast<uint64_t>(expectedRint))
          << "rint(" << std::hexfloat << input << ") = " << std::bit_cast<double>(rounded.lanes[lane]);
      ASSERT_EQ(truncated.lanes[lane], std::bit_cast<uint64_t>(expectedTrunc))
          << "trunc(" << std::hexfloat << input << ") = " << std::bit_cast<double>(truncated.lanes[lane]);
    }
  }
}

}  // namespace
}  // namespace cl2vk
