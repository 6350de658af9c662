// full-range-division: before/after, and the rewritten quotient evaluated over divisors on both
// sides of 2^126. A float division by more than 2^126 in magnitude (where Vulkan leaves OpFDiv's
// error unbounded and NVIDIA returns 0) divides both operands by 4 first; doubles, and every
// division under relaxed math, are left alone.
#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

// A kernel function dividing %x by %y (float) and %d by %e (double), returning the float quotient.
std::string kernel(const std::string& body) {
  return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Float64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
       %void = OpTypeVoid
       %bool = OpTypeBool
%float_0_25 = OpConstant %float 0.25
    %float_1 = OpConstant %float 1
%float_2_126 = OpConstant %float 0x1p+126
%float_n2_126 = OpConstant %float -0x1p+126
         %fn = OpTypeFunction %float %float %float %double %double
          %k = OpFunction %float None %fn
          %x = OpFunctionParameter %float
          %y = OpFunctionParameter %float
          %d = OpFunctionParameter %double
          %e = OpFunctionParameter %double
      %entry = OpLabel
)" + body +
         R"(
               OpReturnValue %q
               OpFunctionEnd
)";
}

TEST(FullRangeDivision, AFloatQuotientScalesADivisorBeyond2To126) {
  std::string before = kernel(R"(
          %q = OpFDiv %float %x %y
          %p = OpFDiv %double %d %e)");
  std::string after = kernel(R"(
          %a = OpFOrdGreaterThan %bool %y %float_2_126
          %b = OpFOrdLessThan %bool %y %float_n2_126
          %c = OpLogicalOr %bool %a %b
          %s = OpSelect %float %c %float_0_25 %float_1
         %xs = OpFMul %float %x %s
         %ys = OpFMul %float %y %s
          %q = OpFDiv %float %xs %ys
          %p = OpFDiv %double %d %e)");
  test::expectPassOutput("full-range-division", before, after);
}

TEST(FullRangeDivision, RelaxedMathDividesAsWritten) {
  std::string module = kernel(R"(
          %q = OpFDiv %float %x %y)");
  Target relaxed;
  relaxed.relaxedMath = true;
  test::PassRun run = test::runPass("full-range-division", module, relaxed);
  ASSERT_TRUE(run.module) << run.error;
  std::string text = test::disassemble(*run.module);
  EXPECT_EQ(test::count(text, "OpFDiv"), 1u) << text;
  EXPECT_EQ(test::count(text, "OpSelect"), 0u) << text;
}

}  // namespace
}  // namespace cl2vk
