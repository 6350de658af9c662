// kernelModule: one kernel of a translated module on its own, as its pipeline gets it.

#include <gtest/gtest.h>

#include "ir/reader.h"
#include "ir/validate.h"
#include "test_util.h"
#include "translator/translator.h"

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
  Expected<Translation> translation = translate(test::readWords(test::corpusDir() / "work_group_vote.O2.spv"), Target{});
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

TEST(KernelModuleTest, UnknownKernelIsAnError) {
  Expected<Translation> translation = translate(test::readWords(test::corpusDir() / "work_group_vote.O2.spv"), Target{});
  ASSERT_TRUE(translation.ok()) << translation.error().message();
  Expected<std::vector<uint32_t>> words = kernelModule(translation->spirv, "no_such_kernel");
  ASSERT_FALSE(words.ok());
  EXPECT_EQ(words.error().message(), "the module has no kernel named 'no_such_kernel'");
}

}  // namespace
}  // namespace cl2vk
