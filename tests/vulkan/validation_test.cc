// The executor under VK_LAYER_KHRONOS_validation (with synchronization validation): a full
// upload-dispatch-download cycle must produce no message, and the messenger must really record.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "test_util.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/dispatch.h"
#include "vulkan/pipeline.h"

namespace cl2vk::vulkan {
namespace {

// Not skipped when the layer is missing: a run that cannot validate must say so.
std::unique_ptr<Device> openValidated() {
  DeviceOptions options = DeviceOptions::fromEnvironment();
  options.validation = true;
  Expected<std::unique_ptr<Device>> device = Device::open(options);
  EXPECT_TRUE(device.ok()) << "cannot open a device with validation: " << device.error().message();
  if (!device.ok()) return nullptr;
  EXPECT_TRUE((*device)->validationEnabled());
  return std::move(*device);
}

std::string joined(const std::vector<std::string>& messages) {
  std::string text;
  for (const std::string& message : messages) text += message + "\n";
  return text;
}

TEST(ExecutorValidationTest, UploadDispatchDownloadProducesNoMessages) {
  std::unique_ptr<Device> device = openValidated();
  ASSERT_TRUE(device);
  {
    std::vector<uint32_t> words =
        test::readWords(std::filesystem::path(CL2VK_TEST_SHADER_DIR) / "affine_buffer_reference.spv");
    struct {
      VkDeviceAddress source, destination;
      int32_t scale, offset;
      uint32_t count, padding;
    } args{};
    PipelineDesc desc;
    desc.spirv = words;
    desc.specializationConstants = {SpecializationConstant::of<uint32_t>(0, 16)};
    desc.pushConstantSize = sizeof(args);
    Expected<Pipeline> pipeline = Pipeline::create(*device, desc);
    ASSERT_TRUE(pipeline.ok()) << pipeline.error().message();

    constexpr uint32_t kCount = 37;
    std::vector<int32_t> source(kCount);
    for (uint32_t i = 0; i < kCount; ++i) source[i] = static_cast<int32_t>(i);
    Expected<Buffer> in = Buffer::create(*device, kCount * sizeof(int32_t));
    Expected<Buffer> out = Buffer::create(*device, kCount * sizeof(int32_t));
    ASSERT_TRUE(in.ok() && out.ok());
    ASSERT_TRUE(in->uploadValues(std::span<const int32_t>(source)).ok());
    args = {in->deviceAddress(), out->deviceAddress(), 2, 1, kCount, 0};
    // Twice, so that the second dispatch follows the first's writes to the same buffer.
    for (int run = 0; run < 2; ++run) {
      Expected<GpuTime> time = dispatch(*device, *pipeline, bytesOf(args), (kCount + 15) / 16);
      ASSERT_TRUE(time.ok()) << time.error().message();
    }
    Expected<std::vector<int32_t>> result = out->downloadValues<int32_t>(kCount);
    ASSERT_TRUE(result.ok()) << result.error().message();
    for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ((*result)[i], 2 * source[i] + 1);
    // Overwrite the source the kernel read, then read it back: write-after-read and
    // read-after-write across submissions.
    ASSERT_TRUE(in->uploadValues(std::span<const int32_t>(*result)).ok());
    ASSERT_TRUE(in->downloadValues<int32_t>(kCount).ok());
  }
  std::vector<std::string> messages = device->validationMessages();
  EXPECT_TRUE(messages.empty()) << joined(messages);
}

TEST(ExecutorValidationTest, MessengerRecordsMisuse) {
  // The tests' own layer settings (tests/validation/vk_layer_settings.txt) raise SIGTRAP at every
  // message to stop the test; this misuse is on purpose, so the signal is ignored while it lasts.
  std::unique_ptr<Device> device = openValidated();
  ASSERT_TRUE(device);
  auto previous = std::signal(SIGTRAP, SIG_IGN);
  // A buffer of size 0 breaks VUID-VkBufferCreateInfo-size-00912; the layer reports it and passes
  // the call on.
  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = 0;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkResult result = device->vk().vkCreateBuffer(device->handle(), &info, nullptr, &buffer);
  if (result == VK_SUCCESS) device->vk().vkDestroyBuffer(device->handle(), buffer, nullptr);
  std::signal(SIGTRAP, previous);

  std::vector<std::string> messages = device->validationMessages();
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(joined(messages).find("VUID-VkBufferCreateInfo-size-00912"), std::string::npos) << joined(messages);
  device->clearValidationMessages();
  EXPECT_TRUE(device->validationMessages().empty());
}

// The layer named twice, by VK_INSTANCE_LAYERS (as the tests' environment does) and by cl2vk, is
// one layer; the loader's warning that the variable added it is not a validation message.
TEST(ExecutorValidationTest, LayerAlsoNamedByTheEnvironmentIsNoMessage) {
  std::optional<std::string> saved;
  if (const char* layers = std::getenv("VK_INSTANCE_LAYERS")) saved = layers;
  setenv("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation", 1);
  std::unique_ptr<Device> device = openValidated();
  if (saved) {
    setenv("VK_INSTANCE_LAYERS", saved->c_str(), 1);
  } else {
    unsetenv("VK_INSTANCE_LAYERS");
  }
  ASSERT_TRUE(device);
  std::vector<std::string> messages = device->validationMessages();
  EXPECT_TRUE(messages.empty()) << joined(messages);
}

}  // namespace
}  // namespace cl2vk::vulkan
