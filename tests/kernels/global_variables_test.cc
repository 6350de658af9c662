// Program-scope variables through the translator and the launcher: one buffer per program holds
// them with their initial values (pointers relocated to the buffer); both kernels of the program
// use it, and what one launch writes the next launch and the other kernel read.

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class GlobalVariables : public KernelTest {};

TEST_P(GlobalVariables, InitialValuesAreReadAndWritesPersistAcrossLaunchesAndKernels) {
  std::shared_ptr<const Translation> translation = translate("global_variables");
  ASSERT_TRUE(translation);
  EXPECT_EQ(translation->reflection.globalVariables.size, 120u);
  Expected<std::shared_ptr<vulkan::Buffer>> globals =
      launch::createGlobalVariables(sharedDevice(), translation->reflection.globalVariables);
  ASSERT_TRUE(globals.ok()) << globals.error().message();
  uint64_t address = (*globals)->deviceAddress();
  auto bump = kernel("global_variables", "read_and_bump");
  auto back = kernel("global_variables", "read_back");
  ASSERT_TRUE(bump && back);
  auto out = buffer(std::vector<int64_t>(8, -1));
  std::vector<KernelArg> args = {KernelArg::buffer(out)};

  // One work-item, so that the updates are not races.
  ASSERT_TRUE(bump->launch(range1d(1), args, address).ok());
  EXPECT_EQ(read<int64_t>(out, 8), (std::vector<int64_t>{5, 20, 7, 25, 5, 30, 0, 20}));

  ASSERT_TRUE(back->launch(range1d(1), args, address).ok());
  EXPECT_EQ(read<int64_t>(out, 5), (std::vector<int64_t>{6, 100, 35, 80, 4}));

  // The next launch sees counter after read_back's write through counter_pointer, and the rest.
  ASSERT_TRUE(bump->launch(range1d(1), args, address).ok());
  EXPECT_EQ(read<int64_t>(out, 8), (std::vector<int64_t>{1006, 20, 7, 35, 1006, 80, 0, 20}));
}

TEST_P(GlobalVariables, AKernelThatUsesThemNeedsTheirBuffer) {
  auto bump = kernel("global_variables", "read_and_bump");
  ASSERT_TRUE(bump);
  auto out = buffer(std::vector<int64_t>(8, -1));
  std::vector<KernelArg> args = {KernelArg::buffer(out)};
  Expected<std::vector<vulkan::GpuTime>> launched = bump->launch(range1d(1), args);
  ASSERT_FALSE(launched.ok());
  EXPECT_NE(launched.error().message().find("uses program-scope variables"), std::string::npos);
}

// 64-bit initial values keep their high words (spirv/kernels/global_variables_wide.cl).
TEST_P(GlobalVariables, SixtyFourBitInitialValuesAreWhole) {
  std::shared_ptr<const Translation> translation = translate("global_variables_wide");
  ASSERT_TRUE(translation);
  Expected<std::shared_ptr<vulkan::Buffer>> globals =
      launch::createGlobalVariables(sharedDevice(), translation->reflection.globalVariables);
  ASSERT_TRUE(globals.ok()) << globals.error().message();
  auto read = kernel("global_variables_wide", "read_wide");
  ASSERT_TRUE(read);
  auto out = buffer(std::vector<int64_t>(5, -1));
  std::vector<KernelArg> args = {KernelArg::buffer(out)};
  ASSERT_TRUE(read->launch(range1d(1), args, (*globals)->deviceAddress()).ok());
  EXPECT_EQ(this->read<int64_t>(out, 5),
            (std::vector<int64_t>{0x123456789abcdef0, 0x100000001, static_cast<int64_t>(0xfedcba9800000000ULL), -2,
                                  -0x100000000}));
}

CL2VK_KERNEL_TEST_SUITE(GlobalVariables, "O0", "O2", "CL30");

}  // namespace
}  // namespace cl2vk::test
