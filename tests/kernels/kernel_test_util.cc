#include "kernel_test_util.h"

#include <filesystem>
#include <map>
#include <mutex>

#include "test_util.h"

namespace cl2vk::test {

vulkan::Device& sharedDevice() {
  static std::unique_ptr<vulkan::Device> device = [] {
    auto opened = vulkan::Device::open();
    if (!opened) {
      ADD_FAILURE() << "cannot open a Vulkan device: " << opened.error().message();
      std::abort();
    }
    return std::move(*opened);
  }();
  return *device;
}

std::shared_ptr<const Translation> KernelTest::translate(const std::string& file) {
  std::filesystem::path path = test::corpusDir() / "kernels" / (file + "." + GetParam() + ".spv");
  std::vector<uint32_t> words = readWords(path);
  Expected<Translation> translation = cl2vk::translate(words, launch::targetFor(sharedDevice().info()));
  EXPECT_TRUE(translation.ok()) << path << ": " << translation.error().message();
  if (!translation) return nullptr;
  return std::make_shared<const Translation>(std::move(*translation));
}

std::unique_ptr<launch::LaunchableKernel> KernelTest::kernel(const std::string& file, const std::string& name) {
  std::shared_ptr<const Translation> translation = translate(file);
  if (!translation) return nullptr;
  auto kernel = launch::LaunchableKernel::create(sharedDevice(), translation, name);
  EXPECT_TRUE(kernel.ok()) << kernel.error().message();
  return kernel ? std::move(*kernel) : nullptr;
}

void KernelTest::run(launch::LaunchableKernel& kernel, const launch::NDRange& range, const std::vector<launch::KernelArg>& args) {
  auto times = kernel.launch(range, args);
  ASSERT_TRUE(times.ok()) << times.error().message();
}

}  // namespace cl2vk::test
