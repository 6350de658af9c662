// The canary for the tests' validation setup (cmake/VulkanValidation.cmake): every test runs with
// VK_LAYER_KHRONOS_validation enabled from the environment and the settings in
// vk_layer_settings.txt beside this file, which make the layer print any error or warning and then
// raise SIGTRAP. A setup that had quietly stopped working (a renamed setting, a layer the loader no
// longer finds) would leave every other test green, so these tests make one mistake each and
// expect the process to die of it. cl2vk itself asks for no validation here: the environment alone
// must catch the mistake, as it does in every other test.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <unistd.h>

#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace cl2vk::vulkan {
namespace {

// Runs in the death test's child: the layer logs to stdout, which goes to stderr (unbuffered) so
// that the parent can match the message.
std::unique_ptr<Device> openUnvalidatedDevice() {
  dup2(STDERR_FILENO, STDOUT_FILENO);
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  DeviceOptions options = DeviceOptions::fromEnvironment();
  options.validation = false;
  Expected<std::unique_ptr<Device>> device = Device::open(options);
  if (!device.ok()) {
    std::fprintf(stderr, "cannot open a device: %s\n", device.error().message().c_str());
    std::exit(1);
  }
  return std::move(*device);
}

class LayerCanaryTest : public testing::Test {
 protected:
  // Each mistake gets a fresh process in which no layer was loaded before.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(LayerCanaryTest, InvalidUsageStopsTheProgram) {
  EXPECT_EXIT(
      {
        std::unique_ptr<Device> device = openUnvalidatedDevice();
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = 0;  // VUID-VkBufferCreateInfo-size-00912: size must be greater than 0.
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VkBuffer buffer = VK_NULL_HANDLE;
        device->vk().vkCreateBuffer(device->handle(), &info, nullptr, &buffer);
        std::exit(0);
      },
      testing::KilledBySignal(SIGTRAP), "VUID-VkBufferCreateInfo-size-00912");
}

// Synchronization validation is not on by default; the settings file turns it on.
TEST_F(LayerCanaryTest, HazardStopsTheProgram) {
  EXPECT_EXIT(
      {
        std::unique_ptr<Device> device = openUnvalidatedDevice();
        Expected<Buffer> buffer = Buffer::create(*device, 256);
        if (!buffer.ok()) std::exit(1);
        // Two writes to the same bytes with no barrier between them.
        Status submitted = device->queue().submitAndWait([&](VkCommandBuffer commands) {
          device->vk().vkCmdFillBuffer(commands, buffer->handle(), 0, VK_WHOLE_SIZE, 1);
          device->vk().vkCmdFillBuffer(commands, buffer->handle(), 0, VK_WHOLE_SIZE, 2);
        });
        std::exit(submitted.ok() ? 0 : 1);
      },
      testing::KilledBySignal(SIGTRAP), "SYNC-HAZARD-WRITE-AFTER-WRITE");
}

}  // namespace
}  // namespace cl2vk::vulkan
