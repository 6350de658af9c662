#include "passes/instructions/lower_kernel_instructions.h"

#include <gtest/gtest.h>

#include <bit>

#include "ir/validate.h"
#include "opencl_std_evaluator_test_util.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::EvalValue;

// A function `f` returning `OpBitCount %<result> %a` of a parameter %a of type `base`.
std::string bitCountModule(const std::string& result, const std::string& base) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability Int8
               OpCapability Int16
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v2ulong = OpTypeVector %ulong 2
     %v2uint = OpTypeVector %uint 2
   %v2ushort = OpTypeVector %ushort 2
         %fn = OpTypeFunction %)" +
         result + " %" + base + R"(
          %f = OpFunction %)" +
         result + R"( None %fn
          %a = OpFunctionParameter %)" +
         base + R"(
      %entry = OpLabel
          %r = OpBitCount %)" +
         result + R"( %a
               OpReturnValue %r
               OpFunctionEnd
)";
}

// The module around one kernel body that computes a uint %r and stores it to __global uint* %out;
// the body can load a float from __global float* %x. `globals` adds types and constants.
std::string kernel(const std::string& body, const std::string& globals = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %x "x"
               OpName %out "out"
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
       %void = OpTypeVoid
      %float = OpTypeFloat 32
       %bool = OpTypeBool
  %_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_float %_ptr_CrossWorkgroup_uint
)" + globals +
         R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %_ptr_CrossWorkgroup_float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)" + body +
         R"(
               OpStore %out %r Aligned 4
               OpReturn
               OpFunctionEnd
)";
}

// isfinite(x) and isunordered(x, y): Shader modules have OpIsNan and OpIsInf, not OpIsFinite or
// OpUnordered.
TEST(LowerKernelInstructionsTest, IsFiniteAndIsUnorderedBecomeIsNanAndIsInf) {
  test::expectPassOutput("lower-kernel-instructions", kernel(R"(
          %a = OpLoad %float %x Aligned 4
          %b = OpLoad %float %x Aligned 4
     %finite = OpIsFinite %bool %a
  %unordered = OpUnordered %bool %a %b
       %both = OpLogicalAnd %bool %finite %unordered
          %r = OpSelect %uint %both %uint_1 %uint_0
)"),
                         kernel(R"(
          %a = OpLoad %float %x Aligned 4
          %b = OpLoad %float %x Aligned 4
        %nan = OpIsNan %bool %a
        %inf = OpIsInf %bool %a
     %either = OpLogicalOr %bool %nan %inf
     %finite = OpLogicalNot %bool %either
       %nanA = OpIsNan %bool %a
       %nanB = OpIsNan %bool %b
  %unordered = OpLogicalOr %bool %nanA %nanB
       %both = OpLogicalAnd %bool %finite %unordered
          %r = OpSelect %uint %both %uint_1 %uint_0
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// signbit(x) and isnormal(x) read the float's bits: the sign bit, and an exponent field that is
// neither all zeros (zero, subnormal) nor all ones (inf, NaN).
TEST(LowerKernelInstructionsTest, SignBitAndIsNormalTestTheFloatsBits) {
  test::expectPassOutput("lower-kernel-instructions", kernel(R"(
          %v = OpLoad %float %x Aligned 4
       %sign = OpSignBitSet %bool %v
     %normal = OpIsNormal %bool %v
       %both = OpLogicalAnd %bool %sign %normal
          %r = OpSelect %uint %both %uint_1 %uint_0
)"),
                         kernel(R"(
          %v = OpLoad %float %x Aligned 4
      %bits1 = OpBitcast %uint %v
   %signbits = OpBitwiseAnd %uint %bits1 %uint_0x80000000
       %sign = OpINotEqual %bool %signbits %uint_0
      %bits2 = OpBitcast %uint %v
   %exponent = OpBitwiseAnd %uint %bits2 %uint_0x7f800000
    %notZero = OpINotEqual %bool %exponent %uint_0
     %notMax = OpINotEqual %bool %exponent %uint_0x7f800000
     %normal = OpLogicalAnd %bool %notZero %notMax
       %both = OpLogicalAnd %bool %sign %normal
          %r = OpSelect %uint %both %uint_1 %uint_0
)",
                                R"(
  %uint_0x80000000 = OpConstant %uint 0x80000000
  %uint_0x7f800000 = OpConstant %uint 0x7f800000
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// Kernel SPIR-V's integers are all unsigned-typed: OpSDiv runs on a signed type between bitcasts.
TEST(LowerKernelInstructionsTest, SignedDivisionRunsOnASignedType) {
  test::expectPassOutput("lower-kernel-instructions",
                         kernel(R"(
          %a = OpLoad %uint %out Aligned 4
          %r = OpSDiv %uint %a %uint_7
)",
                                "%uint_7 = OpConstant %uint 7"),
                         kernel(R"(
          %a = OpLoad %uint %out Aligned 4
    %signedA = OpBitcast %int %a
    %signed7 = OpBitcast %int %uint_7
   %quotient = OpSDiv %int %signedA %signed7
          %r = OpBitcast %uint %quotient
)",
                                R"(
     %uint_7 = OpConstant %uint 7
        %int = OpTypeInt 32 1
)"));
}

// a % 7 on ints: the unsigned remainder of the magnitudes, with the dividend's sign, since Vulkan
// leaves OpSRem undefined for negative operands.
TEST(LowerKernelInstructionsTest, SignedRemainderIsTheRemainderOfTheMagnitudesWithTheDividendsSign) {
  test::expectPassOutput("lower-kernel-instructions",
                         kernel(R"(
          %a = OpLoad %uint %out Aligned 4
          %r = OpSRem %uint %a %uint_7
)",
                                "%uint_7 = OpConstant %uint 7"),
                         kernel(R"(
          %a = OpLoad %uint %out Aligned 4
  %aNegative = OpSLessThan %bool %a %uint_0
  %dNegative = OpSLessThan %bool %uint_7 %uint_0
       %negA = OpSNegate %uint %a
       %absA = OpSelect %uint %aNegative %negA %a
       %negD = OpSNegate %uint %uint_7
       %absD = OpSelect %uint %dNegative %negD %uint_7
  %remainder = OpUMod %uint %absA %absD
    %negated = OpSNegate %uint %remainder
          %r = OpSelect %uint %aNegative %negated %remainder
)",
                                "%uint_7 = OpConstant %uint 7"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// popcount(ulong): Vulkan counts the bits of 32-bit integers only, so of each half, and adds.
TEST(LowerKernelInstructionsTest, BitCountOfALongAddsTheCountsOfItsHalves) {
  test::expectPassOutput("lower-kernel-instructions", kernel(R"(
          %a = OpLoad %uint %out Aligned 4
       %wide = OpUConvert %ulong %a
          %r = OpBitCount %uint %wide
)"),
                         kernel(R"(
          %a = OpLoad %uint %out Aligned 4
       %wide = OpUConvert %ulong %a
        %low = OpUConvert %uint %wide
    %shifted = OpShiftRightLogical %ulong %wide %ulong_32
       %high = OpUConvert %uint %shifted
   %lowCount = OpBitCount %uint %low
  %highCount = OpBitCount %uint %high
          %r = OpIAdd %uint %lowCount %highCount
)",
                                "%ulong_32 = OpConstant %ulong 32"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

uint32_t widthOf(const ir::Module& module, uint32_t type) {
  const ir::Instruction* def = module.def(type);
  if (def->opcode() == spv::Op::OpTypeVector) def = module.def(def->idOperand(0));
  return def->wordOperand(0);
}

// Vulkan counts bits of 32-bit integers only. SPIR-V 1.2 lets OpBitCount's Result be wider or
// narrower than its Base (found by a substitution search over the corpus: a ulong Base with a uint
// Result came out as an OpBitCount Vulkan rejects), so every pairing is lowered and evaluated.
TEST(LowerKernelInstructionsTest, BitCountOfEveryWidthIntoEveryWidthIs32BitAndExact) {
  struct Case {
    std::string result, base;
  } cases[] = {{"uint", "ulong"},     {"ulong", "ulong"},    {"uchar", "ulong"},    {"ulong", "uint"},
               {"ushort", "uint"},    {"uint", "uchar"},     {"ushort", "ushort"},  {"uchar", "uchar"},
               {"v2uint", "v2ulong"}, {"v2ulong", "v2uint"}, {"v2uint", "v2ushort"}};
  const uint64_t values[] = {0,           1, 0x80, 0xff, 0x8001, 0xffff, 0x80000001, 0xffffffff, 0x123456789abcdef0,
                             ~uint64_t{0}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.result + " of " + c.base);
    std::unique_ptr<ir::Module> module = test::assemble(bitCountModule(c.result, c.base));
    ASSERT_NE(module, nullptr);
    Expected<PassResult> result = lowerKernelInstructions(*module, Target{});
    ASSERT_TRUE(result.ok()) << result.error().message();
    Status valid = ir::validate(*module, SPV_ENV_UNIVERSAL_1_2);
    ASSERT_TRUE(valid.ok()) << valid.error().message() << "\n" << test::disassemble(*module);
    for (const ir::Instruction& inst : module->functions().front().blocks().front().instructions()) {
      if (inst.opcode() != spv::Op::OpBitCount) continue;
      EXPECT_EQ(widthOf(*module, inst.typeId()), 32u) << test::disassemble(*module);
      EXPECT_EQ(widthOf(*module, module->def(inst.idOperand(0))->typeId()), 32u) << test::disassemble(*module);
    }
    bool vector = c.base.starts_with("v2");
    uint32_t baseWidth =
        widthOf(*module, module->def(module->functions().front().header().back().resultId())->typeId());
    test::Evaluator evaluator(*module);
    for (uint64_t value : values) {
      uint64_t bits = baseWidth == 64 ? value : value & ((uint64_t{1} << baseWidth) - 1);
      EvalValue argument{vector ? std::vector<uint64_t>{bits, bits >> 1} : std::vector<uint64_t>{bits}, {}};
      EvalValue counted = evaluator.run("f", {argument});
      ASSERT_EQ(counted.lanes.size(), argument.lanes.size());
      for (size_t lane = 0; lane < argument.lanes.size(); ++lane)
        EXPECT_EQ(counted.lanes[lane], uint64_t(std::popcount(argument.lanes[lane])))
            << std::hex << argument.lanes[lane];
    }
  }
}

}  // namespace
}  // namespace cl2vk
