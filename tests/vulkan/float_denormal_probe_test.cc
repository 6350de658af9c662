// The float-denormal probe: lavapipe reports no denormal guarantee to Vulkan
// (shaderDenormPreserveFloat32) yet keeps denormals, as the probe finds; the answer is measured once
// per device.
#include <gtest/gtest.h>

#include <iostream>

#include "vulkan/device.h"
#include "vulkan/float_denormal_probe.h"

namespace cl2vk::vulkan {
namespace {

TEST(FloatDenormalProbeTest, LavapipeKeepsFloatDenormals) {
  DeviceOptions options = DeviceOptions::fromEnvironment();
  options.device = "llvmpipe";
  Expected<std::unique_ptr<Device>> device = Device::open(options);
  if (!device.ok()) GTEST_SKIP() << "no lavapipe device here: " << device.error().message();
  Expected<bool> kept = measureFloat32DenormalsKept(**device);
  ASSERT_TRUE(kept.ok()) << kept.error().message();
  EXPECT_TRUE(*kept);
  Expected<bool> again = measureFloat32DenormalsKept(**device);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_EQ(*again, *kept);
}

// Whatever the default device is: a device that promises to keep denormals keeps them.
TEST(FloatDenormalProbeTest, ADeviceThatPromisesDenormalsKeepsThem) {
  Expected<std::unique_ptr<Device>> device = Device::open();
  ASSERT_TRUE(device.ok()) << device.error().message();
  Expected<bool> kept = measureFloat32DenormalsKept(**device);
  ASSERT_TRUE(kept.ok()) << kept.error().message();
  std::cout << (*device)->info().name << ": float denormals " << (*kept ? "kept" : "flushed") << "\n";
  if ((*device)->info().denormPreserveFloat32) {
    EXPECT_TRUE(*kept);
  }
}

}  // namespace
}  // namespace cl2vk::vulkan
