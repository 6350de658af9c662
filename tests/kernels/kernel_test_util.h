// Running corpus kernels (spirv/kernels/) on the Vulkan device through the translator and the
// launcher, for tests that compare every result with a CPU reference. Each test runs the kernel
// as compiled at -O0 and at -O2.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cl2vk/translator.h"
#include "launch/kernel_launch.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace cl2vk::test {

// The value of IEEE half bits, exactly (denormals, infinities and NaN included).
double halfValue(uint16_t bits);

// The device every kernel test shares (CL2VK_DEVICE picks it; lavapipe on machines without a GPU).
vulkan::Device& sharedDevice();

class KernelTest : public testing::TestWithParam<const char*> {
 public:
  // Translates spirv/kernels/<file>.cl as built for this test's parameter (see below), or the
  // file of that name in the build/spirv folder corpusFolder() names.
  std::shared_ptr<const Translation> translate(const std::string& file);
  // What translate() translates for: the shared device's target, unless a suite changes it.
  virtual Target target() const;
  std::unique_ptr<launch::LaunchableKernel> kernel(const std::string& file, const std::string& name);

  template <typename T>
  vulkan::Buffer buffer(const std::vector<T>& values) {
    auto created = vulkan::Buffer::create(sharedDevice(), std::max<size_t>(values.size() * sizeof(T), 4));
    EXPECT_TRUE(created.ok()) << created.error().message();
    if (!values.empty()) {
      Status uploaded = created->upload(std::as_bytes(std::span(values)));
      EXPECT_TRUE(uploaded.ok()) << uploaded.error().message();
    }
    return std::move(*created);
  }

  template <typename T>
  std::vector<T> read(vulkan::Buffer& buffer, size_t count) {
    std::vector<T> values(count);
    Status downloaded = buffer.download(std::as_writable_bytes(std::span(values)));
    EXPECT_TRUE(downloaded.ok()) << downloaded.error().message();
    return values;
  }

  // The folder of build/spirv whose modules translate() reads: "kernels" (spirv/kernels), or
  // "frontend" (spirv/frontend, whose builds are named <file>.O1.spv, <file>.O1.all.spv ...).
  virtual std::string corpusFolder() const { return "kernels"; }

  void run(launch::LaunchableKernel& kernel, const launch::NDRange& range, const std::vector<launch::KernelArg>& args);

  static launch::NDRange range1d(uint64_t global, std::optional<uint32_t> local = std::nullopt) {
    launch::NDRange range;
    range.globalSize = {global, 1, 1};
    if (local) range.localSize = std::array<uint32_t, 3>{*local, 1, 1};
    return range;
  }
};

// Instantiates a KernelTest suite for the given builds of the corpus: "O0" and "O2" (OpenCL C 2.0,
// SPIR-V 1.2), "CL12" and "CL30" (OpenCL C 1.2 and 3.0 at -O2, SPIR-V 1.4).
#define CL2VK_KERNEL_TEST_SUITE(Suite, ...)                             \
  INSTANTIATE_TEST_SUITE_P(Builds, Suite, testing::Values(__VA_ARGS__), \
                           [](const auto& info) { return std::string(info.param); })

}  // namespace cl2vk::test
