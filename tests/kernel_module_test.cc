// kernelModule: one kernel of a translated module on its own, as its pipeline gets it.

#include <gtest/gtest.h>

#include "cl2vk/translator.h"
#include "ir/reader.h"
#include "ir/validate.h"
#include "ir/writer.h"
#include "test_util.h"

namespace cl2vk {
namespace {

size_t workgroupVariables(const ir::Module& module) {
  size_t count = 0;
  for (const ir::Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpVariable &&
        inst.wordOperand(0) == static_cast<uint32_t>(spv::StorageClass::Workgroup))
      ++count;
  }
  return count;
}

// work_group_vote.cl's two kernels each have their own collectives scratch in Workgroup memory.
TEST(KernelModuleTest, KeepsTheKernelAndOnlyWhatItUses) {
  Expected<Translation> translation =
      translate(test::readWords(test::corpusDir() / "work_group_vote.O2.spv"), Target{});
  ASSERT_TRUE(translation.ok()) << translation.error().message();
  auto whole = ir::readBinary(translation->spirv);
  ASSERT_TRUE(whole.ok());
  ASSERT_EQ((*whole)->section(ir::Section::kEntryPoint).size(), 2u);

  size_t kept = 0;
  for (const KernelReflection& kernel : translation->reflection.kernels) {
    SCOPED_TRACE(kernel.name);
    Expected<std::vector<uint32_t>> words = kernelModule(translation->spirv, kernel.name);
    ASSERT_TRUE(words.ok()) << words.error().message();
    auto module = ir::readBinary(*words);
    ASSERT_TRUE(module.ok()) << module.error().message();
    ASSERT_EQ((*module)->section(ir::Section::kEntryPoint).size(), 1u);
    EXPECT_EQ((*module)->section(ir::Section::kEntryPoint).begin()->stringOperand(2), kernel.name);
    EXPECT_LT((*module)->functions().size(), (*whole)->functions().size());
    EXPECT_GT(workgroupVariables(**module), 0u);
    kept += workgroupVariables(**module);
    Status valid = ir::validate(**module, Target{}.vulkanEnv);
    EXPECT_TRUE(valid.ok()) << valid.error().message();
  }
  // Each variable went to one kernel's module only.
  EXPECT_EQ(kept, workgroupVariables(**whole));
}

// Two entry points, each with a Workgroup variable, a helper function and names, and a decoration
// group applied to both variables: each cut keeps its own variable and the group's one target.
TEST(KernelModuleTest, DropsTheOtherKernelsNamesDecorationsAndGroupTargets) {
  std::unique_ptr<ir::Module> module = test::assemble(R"(
; Version: 1.5
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %a "a" %sharedA
               OpEntryPoint GLCompute %b "b" %sharedB
               OpExecutionMode %a LocalSize 1 1 1
               OpExecutionMode %b LocalSize 1 1 1
               OpName %sharedA "sharedA"
               OpName %sharedB "sharedB"
               OpName %helperB "helperB"
               OpName %group "group"
               OpDecorate %group Volatile
      %group = OpDecorationGroup
               OpGroupDecorate %group %sharedA %sharedB
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
        %ptr = OpTypePointer Workgroup %uint
    %sharedA = OpVariable %ptr Workgroup
    %sharedB = OpVariable %ptr Workgroup
         %fn = OpTypeFunction %void
          %a = OpFunction %void None %fn
         %la = OpLabel
               OpStore %sharedA %uint_1
               OpReturn
               OpFunctionEnd
    %helperB = OpFunction %void None %fn
         %lh = OpLabel
               OpStore %sharedB %uint_1
               OpReturn
               OpFunctionEnd
          %b = OpFunction %void None %fn
         %lb = OpLabel
         %call = OpFunctionCall %void %helperB
               OpReturn
               OpFunctionEnd
)");
  ASSERT_NE(module, nullptr);
  std::vector<uint32_t> whole = ir::writeBinary(*module);
  struct Case {
    std::string kernel;
    std::vector<std::string> present, absent;
  } cases[] = {{"a", {"%sharedA = OpVariable", "OpGroupDecorate %group %sharedA\n"}, {"sharedB", "helperB", "\"b\""}},
               {"b",
                {"%sharedB = OpVariable", "OpGroupDecorate %group %sharedB\n", "OpFunctionCall %void %helperB"},
                {"sharedA", "\"a\""}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.kernel);
    Expected<std::vector<uint32_t>> words = kernelModule(whole, c.kernel);
    ASSERT_TRUE(words.ok()) << words.error().message();
    auto cut = ir::readBinary(*words);
    ASSERT_TRUE(cut.ok()) << cut.error().message();
    Status valid = ir::validate(**cut, SPV_ENV_VULKAN_1_2);
    EXPECT_TRUE(valid.ok()) << valid.error().message();
    std::string text = test::disassemble(**cut);
    for (const std::string& expected : c.present)
      EXPECT_NE(text.find(expected), std::string::npos) << expected << "\n" << text;
    for (const std::string& gone : c.absent) EXPECT_EQ(text.find(gone), std::string::npos) << gone << "\n" << text;
  }
}

TEST(KernelModuleTest, UnknownKernelIsAnError) {
  Expected<Translation> translation =
      translate(test::readWords(test::corpusDir() / "work_group_vote.O2.spv"), Target{});
  ASSERT_TRUE(translation.ok()) << translation.error().message();
  Expected<std::vector<uint32_t>> words = kernelModule(translation->spirv, "no_such_kernel");
  ASSERT_FALSE(words.ok());
  EXPECT_EQ(words.error().message(), "the module has no kernel named 'no_such_kernel'");
}

}  // namespace
}  // namespace cl2vk
