// The loop-limit probe on the machine's devices: lavapipe's driver ends loops after 65536
// loop-header executions, and Device::open records that; the answer is measured once per device.
#include <gtest/gtest.h>

#include <iostream>

#include "vulkan/device.h"
#include "vulkan/loop_limit_probe.h"

namespace cl2vk::vulkan {
namespace {

TEST(LoopLimitProbeTest, LavapipeEndsLoopsAfter65536HeaderExecutions) {
  DeviceOptions options = DeviceOptions::fromEnvironment();
  options.device = "llvmpipe";
  Expected<std::unique_ptr<Device>> device = Device::open(options);
  if (!device.ok()) GTEST_SKIP() << "no lavapipe device here: " << device.error().message();
  EXPECT_EQ((*device)->info().loopIterationLimit, 65536u);
  Expected<uint32_t> again = measureLoopIterationLimit(**device);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_EQ(*again, 65536u);
}

// Whatever the default device is (SwiftShader under VK_DRIVER_FILES, a GPU on a GPU machine): a
// limit, when there is one, lies below the probe's loop, and a GPU is not probed.
TEST(LoopLimitProbeTest, TheDefaultDeviceHasAPlausibleLimit) {
  Expected<std::unique_ptr<Device>> device = Device::open();
  ASSERT_TRUE(device.ok()) << device.error().message();
  const DeviceInfo& info = (*device)->info();
  std::cout << info.name << ": loop limit " << info.loopIterationLimit << " (0: none)\n";
  EXPECT_LT(info.loopIterationLimit, kLoopLimitProbeIterations);
  if (info.type != VK_PHYSICAL_DEVICE_TYPE_CPU) {
    EXPECT_EQ(info.loopIterationLimit, 0u);
  }
}

}  // namespace
}  // namespace cl2vk::vulkan
