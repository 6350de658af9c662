#include "passes/environment/drop_optimization_hints.h"

#include <gtest/gtest.h>

#include "cl2vk/translator.h"
#include "ir/validate.h"
#include "ir/writer.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

// A kernel `k(uint n, __global uint* out)`: `preamble` goes after the Kernel capability (more
// capabilities and extensions), `annotations` after the names, `globals` after the types.
std::string kernel(const std::string& preamble, const std::string& annotations, const std::string& globals,
                   const std::string& control, const std::string& body) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
)" + preamble +
         R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
)" + annotations +
         R"(
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %uint %_ptr_CrossWorkgroup_uint
)" + globals +
         R"(
          %k = OpFunction %void )" +
         control + R"( %fn
          %n = OpFunctionParameter %uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// `module` with a function %helper after the kernel, for a call to carry decorations.
std::string withHelper(std::string module) {
  std::string type = "%fn = OpTypeFunction";
  module.replace(module.find(type), type.size(), "%helperType = OpTypeFunction %void\n         " + type);
  module += R"(
     %helper = OpFunction %void None %helperType
         %hb = OpLabel
               OpReturn
               OpFunctionEnd
)";
  return module;
}

// llvm-spirv-15 --spirv-ext=+all marks every function OptNoneINTEL at -O0; Vulkan has no such
// control, so it goes with its capability and extension, and DontInline stays.
TEST(DropOptimizationHintsTest, OptNoneFunctionControlGoes) {
  test::expectPassOutput("drop-optimization-hints",
                         kernel("               OpCapability OptNoneINTEL\n"
                                "               OpExtension \"SPV_INTEL_optnone\"\n",
                                "", "", "DontInline|OptNoneINTEL", "               OpStore %out %n\n"),
                         kernel("", "", "", "DontInline", "               OpStore %out %n\n"), Target{},
                         SPV_ENV_UNIVERSAL_1_2);
}

// __builtin_expect's OpExpectKHR is its value; __builtin_assume's OpAssumeTrueKHR is dropped.
TEST(DropOptimizationHintsTest, ExpectIsItsValueAndAssumeGoes) {
  test::expectPassOutput("drop-optimization-hints",
                         kernel("               OpCapability ExpectAssumeKHR\n"
                                "               OpExtension \"SPV_KHR_expect_assume\"\n",
                                "", "", "None",
                                R"(
   %positive = OpULessThan %bool %uint_1 %n
               OpAssumeTrueKHR %positive
     %likely = OpExpectKHR %uint %n %uint_1
               OpStore %out %likely
)"),
                         kernel("", "", "", "None", R"(
   %positive = OpULessThan %bool %uint_1 %n
               OpStore %out %n
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// restrict pointers after inlining give alias scopes (SPV_INTEL_memory_access_aliasing): the
// memory operands lose them, keeping Aligned, and the declarations and decorations go.
TEST(DropOptimizationHintsTest, AliasScopesGo) {
  std::string declarations = R"(
     %domain = OpAliasDomainDeclINTEL
      %scope = OpAliasScopeDeclINTEL %domain
       %list = OpAliasScopeListDeclINTEL %scope
)";
  test::expectPassOutput(
      "drop-optimization-hints",
      withHelper(kernel("               OpCapability MemoryAccessAliasingINTEL\n"
                        "               OpExtension \"SPV_INTEL_memory_access_aliasing\"\n",
                        "               OpDecorateId %call NoAliasINTEL %list\n", declarations, "None",
                        R"(
      %value = OpLoad %uint %out Aligned|AliasScopeINTELMask 4 %list
               OpStore %out %value Aligned|AliasScopeINTELMask|NoAliasINTELMask 4 %list %list
               OpStore %out %value NoAliasINTELMask %list
       %call = OpFunctionCall %void %helper
)")),
      withHelper(kernel("", "", "", "None", R"(
      %value = OpLoad %uint %out Aligned 4
               OpStore %out %value Aligned 4
               OpStore %out %value None
       %call = OpFunctionCall %void %helper
)")),
      Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// -cl-fast-relaxed-math under +all: llvm-spirv-15 sets AllowReassocINTEL and declares
// FPFastMathModeINTEL without its extension (which the validator refuses). The core bits stay.
TEST(DropOptimizationHintsTest, IntelFastMathBitsGo) {
  std::string body = R"(
      %float = OpConvertUToF %float_t %n
        %sum = OpFAdd %float_t %float %float
      %whole = OpConvertFToU %uint %sum
               OpStore %out %whole
)";
  std::string globals = "    %float_t = OpTypeFloat 32\n";
  test::PassRun run = test::expectPassOutput(
      "drop-optimization-hints",
      kernel("               OpCapability FPFastMathModeINTEL\n",
             "               OpDecorate %sum FPFastMathMode NotNaN|NotInf|NSZ|AllowRecip|AllowReassocINTEL\n", globals,
             "None", body),
      kernel("", "               OpDecorate %sum FPFastMathMode NotNaN|NotInf|NSZ|AllowRecip\n", globals, "None", body),
      Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// A module with none of the hints is left as it is.
TEST(DropOptimizationHintsTest, ModuleWithoutHintsIsUnchanged) {
  std::string module = kernel("", "", "", "DontInline", "               OpStore %out %n\n");
  test::PassRun run =
      test::expectPassOutput("drop-optimization-hints", module, module, Target{}, SPV_ENV_UNIVERSAL_1_2);
  auto input = test::assemble(module);
  ASSERT_TRUE(input);
  EXPECT_EQ(*dropOptimizationHints(*input, Target{}), PassResult::kUnchanged);
}

// The whole translation of an -O0 +all kernel: OptNoneINTEL used to reach the Vulkan module and
// fail its validation as an internal error.
TEST(DropOptimizationHintsTest, OptNoneKernelTranslates) {
  auto module =
      test::assemble(kernel("               OpCapability OptNoneINTEL\n"
                            "               OpExtension \"SPV_INTEL_optnone\"\n",
                            "", "", "DontInline|OptNoneINTEL", "               OpStore %out %n\n"));
  ASSERT_TRUE(module);
  std::vector<uint32_t> words = ir::writeBinary(*module);
  Expected<Translation> translation = translate(words, Target{});
  ASSERT_TRUE(translation.ok()) << translation.error().message();
}

}  // namespace
}  // namespace cl2vk
