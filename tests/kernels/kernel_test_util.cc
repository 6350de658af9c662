#include "kernel_test_util.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>

#include "test_util.h"

namespace cl2vk::test {

double halfValue(uint16_t bits) {
  int exponent = (bits >> 10) & 0x1f, fraction = bits & 0x3ff;
  double magnitude = exponent == 0    ? std::ldexp(fraction, -24)
                     : exponent == 31 ? (fraction != 0 ? NAN : INFINITY)
                                      : std::ldexp(fraction | 0x400, exponent - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

namespace {

std::unique_ptr<vulkan::Device>& deviceSlot() {
  static std::unique_ptr<vulkan::Device> device;
  return device;
}

// Closes the shared device when the tests are done, before exit. Destroyed by a static destructor
// instead, it would go after the validation layer's own function-local statics (created during the
// tests, so destroyed first), and vkDestroyDevice would run through the layer's freed tables: a
// test process then spun at exit for minutes.
class SharedDeviceEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { deviceSlot().reset(); }
};

[[maybe_unused]] ::testing::Environment* const sharedDeviceEnvironment =
    ::testing::AddGlobalTestEnvironment(new SharedDeviceEnvironment);

}  // namespace

vulkan::Device& sharedDevice() {
  std::unique_ptr<vulkan::Device>& device = deviceSlot();
  if (!device) {
    auto opened = vulkan::Device::open();
    if (!opened) {
      ADD_FAILURE() << "cannot open a Vulkan device: " << opened.error().message();
      std::abort();
    }
    device = std::move(*opened);
  }
  return *device;
}

std::shared_ptr<const Translation> KernelTest::translate(const std::string& file) {
  std::filesystem::path path = test::corpusDir() / corpusFolder() / (file + "." + GetParam() + ".spv");
  std::vector<uint32_t> words = readWords(path);
  Expected<Translation> translation = cl2vk::translate(words, target());
  EXPECT_TRUE(translation.ok()) << path << ": " << translation.error().message();
  if (!translation) return nullptr;
  return std::make_shared<const Translation>(std::move(*translation));
}

Target KernelTest::target() const { return launch::targetFor(sharedDevice().info()); }

std::unique_ptr<launch::LaunchableKernel> KernelTest::kernel(const std::string& file, const std::string& name) {
  std::shared_ptr<const Translation> translation = translate(file);
  if (!translation) return nullptr;
  auto kernel = launch::LaunchableKernel::create(sharedDevice(), translation, name);
  EXPECT_TRUE(kernel.ok()) << kernel.error().message();
  return kernel ? std::move(*kernel) : nullptr;
}

void KernelTest::run(launch::LaunchableKernel& kernel, const launch::NDRange& range,
                     const std::vector<launch::KernelArg>& args) {
  auto times = kernel.launch(range, args);
  ASSERT_TRUE(times.ok()) << times.error().message();
}

}  // namespace cl2vk::test
