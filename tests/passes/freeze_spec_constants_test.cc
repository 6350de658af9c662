// freeze-spec-constants: before/after tests. The input's specialization constants become plain
// constants holding their values, without SpecIds, so that none can meet the ids the translation
// gives its own (the work-group size is SpecId 0).
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A kernel storing `value` through %out; `constants` declares it, `decorations` decorate it.
std::string module(const std::string& decorations, const std::string& constants, const std::string& body) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %out "out"
)" + decorations +
         R"(
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %v2uint = OpTypeVector %uint 2
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
)" + constants +
         R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

const std::string kBody = R"(
          %x = OpCompositeExtract %uint %pair 0
          %y = OpSelect %uint %flag %x %sum
               OpStore %out %y Aligned 4
)";

// Scalars and a composite of them become constants; the expression of them stays an
// OpSpecConstantOp, of constants now; the SpecIds go.
TEST(FreezeSpecConstantsTest, SpecConstantsBecomeConstantsWithoutSpecIds) {
  test::expectPassOutput("freeze-spec-constants",
                         module(R"(
               OpName %size "size"
               OpName %flag "flag"
               OpName %pair "pair"
               OpName %sum "sum"
               OpDecorate %size SpecId 0
               OpDecorate %flag SpecId 7
)",
                                R"(
       %size = OpSpecConstant %uint 42
       %flag = OpSpecConstantFalse %bool
       %pair = OpSpecConstantComposite %v2uint %size %uint_1
        %sum = OpSpecConstantOp %uint IAdd %size %uint_1
)",
                                kBody),
                         module(R"(
               OpName %size "size"
               OpName %flag "flag"
               OpName %pair "pair"
               OpName %sum "sum"
)",
                                R"(
       %size = OpConstant %uint 42
       %flag = OpConstantFalse %bool
       %pair = OpConstantComposite %v2uint %size %uint_1
        %sum = OpSpecConstantOp %uint IAdd %size %uint_1
)",
                                kBody),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// A composite holding an expression stays a specialization constant composite.
TEST(FreezeSpecConstantsTest, ACompositeOfAnExpressionStaysSpecialized) {
  std::string constants = R"(
        %sum = OpSpecConstantOp %uint IAdd %uint_1 %uint_1
       %pair = OpSpecConstantComposite %v2uint %sum %uint_1
       %flag = OpConstantTrue %bool
)";
  std::string names = R"(
               OpName %sum "sum"
               OpName %pair "pair"
               OpName %flag "flag"
)";
  test::PassRun run = test::expectPassOutput("freeze-spec-constants", module(names, constants, kBody),
                                             module(names, constants, kBody), Target{}, SPV_ENV_OPENCL_2_2);
}

}  // namespace
}  // namespace cl2vk
