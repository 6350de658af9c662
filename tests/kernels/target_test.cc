// launch::targetFor: what the translator may assume about a device, from its Vulkan properties.

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "launch/kernel_launch.h"
#include "test_util.h"

namespace cl2vk {
namespace {

constexpr uint32_t kNvidia = 0x10de;

vulkan::DeviceInfo deviceWithShuffles(uint32_t vendorId, VkSubgroupFeatureFlags operations) {
  vulkan::DeviceInfo info;
  info.vendorId = vendorId;
  info.apiVersion = VK_API_VERSION_1_3;
  info.subgroup.size = info.subgroup.minSize = info.subgroup.maxSize = 32;
  info.subgroup.supportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
  info.subgroup.supportedOperations = operations;
  return info;
}

TEST(TargetForTest, ShuffleScansOnNvidiaUnlessTheEnvironmentSaysOtherwise) {
  const VkSubgroupFeatureFlags all = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
                                     VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
  const VkSubgroupFeatureFlags noRelative = all & ~VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT;
  struct Case {
    uint32_t vendor;
    VkSubgroupFeatureFlags operations;
    std::string environment;
    bool expected;
  } cases[] = {
      {kNvidia, all, "", true},
      {kNvidia, all, "native", false},
      {kNvidia, all, "shuffle-up", true},
      {kNvidia, all, "something else", true},  // the default
      {kNvidia, noRelative, "", false},
      {kNvidia, noRelative, "shuffle-up", false},  // not without shuffle-relative operations
      {0x10005, all, "", false},                   // Mesa's lavapipe
      {0x10005, all, "shuffle-up", true},
  };
  for (const Case& c : cases) {
    test::ScopedEnvironment scans("CL2VK_SUBGROUP_SCANS",
                                  c.environment.empty() ? std::nullopt : std::optional<std::string>(c.environment));
    Target target = launch::targetFor(deviceWithShuffles(c.vendor, c.operations));
    EXPECT_EQ(target.shuffleScans, c.expected) << "vendor " << c.vendor << ", operations " << c.operations
                                               << ", CL2VK_SUBGROUP_SCANS='" << c.environment << "'";
  }
}

}  // namespace
}  // namespace cl2vk
