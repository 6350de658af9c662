// The VkPhysicalDevice*Features structures behind DeviceFeatures, linked into one pNext chain: the
// same chain is filled by vkGetPhysicalDeviceFeatures2 and, with only the chosen bits set, given to
// vkCreateDevice. One table maps each DeviceFeatures flag to its VkBool32.
#pragma once

#include <volk.h>

#include <span>
#include <string>
#include <vector>

#include "vulkan/device_info.h"

namespace cl2vk::vulkan {

// Which structures a device can take in its chain, and the device extensions that enabling them
// needs (none on Vulkan 1.3, where they are core).
struct FeatureChainShape {
  bool vulkan12 = false;  // VkPhysicalDeviceVulkan11Features and ...Vulkan12Features
  bool subgroupSizeControl = false;
  bool maintenance4 = false;
  bool integerDotProduct = false;
  bool pipelineExecutableProperties = false;  // an extension on every version
  bool externalMemoryHost = false;            // VK_EXT_external_memory_host: no features, enabled
  std::vector<const char*> extensions;
};

FeatureChainShape featureChainShape(uint32_t apiVersion, const std::vector<std::string>& extensions);

class FeatureChain {
 public:
  // All VkBool32 false; `head()` links the structures `shape` allows.
  explicit FeatureChain(const FeatureChainShape& shape);
  FeatureChain(const FeatureChain&) = delete;  // The chain points into itself.
  FeatureChain& operator=(const FeatureChain&) = delete;

  VkPhysicalDeviceFeatures2* head() { return &core_; }

  DeviceFeatures read();
  void enable(const DeviceFeatures& features);

 private:
  struct Field {
    bool DeviceFeatures::*flag;
    VkBool32* (*slot)(FeatureChain&);
  };
  static std::span<const Field> fields();

  VkPhysicalDeviceFeatures2 core_{};
  VkPhysicalDeviceVulkan11Features vulkan11_{};
  VkPhysicalDeviceVulkan12Features vulkan12_{};
  VkPhysicalDeviceSubgroupSizeControlFeatures subgroupSizeControl_{};
  VkPhysicalDeviceMaintenance4Features maintenance4_{};
  VkPhysicalDeviceShaderIntegerDotProductFeatures integerDotProduct_{};
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pipelineExecutableProperties_{};
};

}  // namespace cl2vk::vulkan
