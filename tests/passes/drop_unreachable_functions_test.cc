#include "passes/functions/drop_unreachable_functions.h"

#include <gtest/gtest.h>

#include "cl2vk/translator.h"
#include "ir/writer.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

// Kernel %k calls %used, which calls %deeper; %dead calls %deadCallee, the declaration %import and
// itself (recursion, which the translator refuses in code that runs).
const std::string kModule = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %used "used"
               OpName %deeper "deeper"
               OpName %dead "dead"
               OpName %deadCallee "deadCallee"
               OpName %import "import"
               OpDecorate %import LinkageAttributes "import" Import
               OpDecorate %dead LinkageAttributes "dead" Export
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
         %fn = OpTypeFunction %void
    %fn_uint = OpTypeFunction %uint %uint
     %import = OpFunction %uint None %fn_uint
         %i0 = OpFunctionParameter %uint
               OpFunctionEnd
     %deeper = OpFunction %uint None %fn_uint
         %d0 = OpFunctionParameter %uint
         %d1 = OpLabel
         %d2 = OpIAdd %uint %d0 %uint_1
               OpReturnValue %d2
               OpFunctionEnd
       %used = OpFunction %uint None %fn_uint
         %u0 = OpFunctionParameter %uint
         %u1 = OpLabel
         %u2 = OpFunctionCall %uint %deeper %u0
               OpReturnValue %u2
               OpFunctionEnd
 %deadCallee = OpFunction %void None %fn
         %e0 = OpLabel
               OpReturn
               OpFunctionEnd
       %dead = OpFunction %void None %fn
         %x1 = OpLabel
         %x2 = OpFunctionCall %void %deadCallee
         %x3 = OpFunctionCall %uint %import %uint_2
         %x4 = OpFunctionCall %void %dead
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %fn
      %entry = OpLabel
         %k1 = OpFunctionCall %uint %used %uint_2
               OpReturn
               OpFunctionEnd
)";

std::vector<std::string> functionNames(const ir::Module& module) {
  std::vector<std::string> names;
  for (const ir::Function& function : module.functions()) names.push_back(module.functionName(function));
  return names;
}

// The functions go with their names and decorations; the types and constants stay (finalize-vulkan
// drops what nothing uses).
TEST(DropUnreachableFunctionsTest, KeepsWhatTheKernelsCallAndDropsTheRestWithItsNames) {
  test::PassRun run = test::expectPassOutput("drop-unreachable-functions", kModule, R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %used "used"
               OpName %deeper "deeper"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
         %fn = OpTypeFunction %void
    %fn_uint = OpTypeFunction %uint %uint
     %deeper = OpFunction %uint None %fn_uint
         %d0 = OpFunctionParameter %uint
         %d1 = OpLabel
         %d2 = OpIAdd %uint %d0 %uint_1
               OpReturnValue %d2
               OpFunctionEnd
       %used = OpFunction %uint None %fn_uint
         %u0 = OpFunctionParameter %uint
         %u1 = OpLabel
         %u2 = OpFunctionCall %uint %deeper %u0
               OpReturnValue %u2
               OpFunctionEnd
          %k = OpFunction %void None %fn
      %entry = OpLabel
         %k1 = OpFunctionCall %uint %used %uint_2
               OpReturn
               OpFunctionEnd
)",
                                             Target{}, SPV_ENV_UNIVERSAL_1_2);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(functionNames(*run.module), (std::vector<std::string>{"deeper", "used", "k"}));
  Expected<PassResult> again = dropUnreachableFunctions(*run.module, Target{});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, PassResult::kUnchanged);
}

// A library (no entry point) has nothing a kernel reaches, and keeps all of it.
TEST(DropUnreachableFunctionsTest, LeavesAModuleWithoutKernelsAlone) {
  std::string library = kModule;
  library.erase(library.find("               OpEntryPoint Kernel %k \"k\"\n"),
                std::string("               OpEntryPoint Kernel %k \"k\"\n").size());
  auto module = test::assemble(library);
  ASSERT_TRUE(module);
  Expected<PassResult> result = dropUnreachableFunctions(*module, Target{});
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(*result, PassResult::kUnchanged);
  EXPECT_EQ(module->functions().size(), 6u);
}

// What no kernel runs is neither translated nor refused: the whole translation succeeds although
// the unused function is recursive, which it refuses where a kernel reaches it.
TEST(DropUnreachableFunctionsTest, TheTranslationRefusesNothingInCodeNoKernelRuns) {
  auto module = test::assemble(kModule);
  ASSERT_TRUE(module);
  std::vector<uint32_t> words = ir::writeBinary(*module);
  Expected<Translation> translated = translate(words, Target{});
  ASSERT_TRUE(translated.ok()) << translated.error().message();

  std::string reached = kModule;
  reached.replace(reached.find("%k1 = OpFunctionCall %uint %used %uint_2"),
                  std::string("%k1 = OpFunctionCall %uint %used %uint_2").size(), "%k1 = OpFunctionCall %void %dead");
  // Without the call of the declaration, which a kernel may not reach either (no library defines it).
  const std::string importCall = "%x3 = OpFunctionCall %uint %import %uint_2\n";
  reached.erase(reached.find(importCall), importCall.size());
  auto calling = test::assemble(reached);
  ASSERT_TRUE(calling);
  Expected<Translation> refused = translate(ir::writeBinary(*calling), Target{});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("kernel 'k'"), std::string::npos) << refused.error().message();
  EXPECT_NE(refused.error().message().find("recursion is not supported"), std::string::npos)
      << refused.error().message();
}

}  // namespace
}  // namespace cl2vk
