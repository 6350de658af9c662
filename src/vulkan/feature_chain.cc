#include "vulkan/feature_chain.h"

#include <algorithm>

namespace cl2vk::vulkan {
namespace {

// Appends `structure` (whose first members are sType and pNext) to the chain ending at `*tail`.
template <typename T>
void link(void**& tail, T& structure) {
  *tail = &structure;
  tail = &structure.pNext;
}

}  // namespace

FeatureChainShape featureChainShape(uint32_t apiVersion, const std::vector<std::string>& extensions) {
  auto has = [&](const char* name) {
    return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
  };
  FeatureChainShape shape;
  shape.vulkan12 = apiVersion >= VK_API_VERSION_1_2;
  bool core13 = apiVersion >= VK_API_VERSION_1_3;
  auto promoted = [&](const char* extension) {
    if (core13) return true;
    if (!shape.vulkan12 || !has(extension)) return false;
    shape.extensions.push_back(extension);
    return true;
  };
  shape.subgroupSizeControl = promoted(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  shape.maintenance4 = promoted(VK_KHR_MAINTENANCE_4_EXTENSION_NAME);
  shape.integerDotProduct = promoted(VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME);
  if (shape.vulkan12 && has(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
    shape.pipelineExecutableProperties = true;
    shape.extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  }
  // (Its VK_KHR_external_memory dependency is core since Vulkan 1.1.)
  if (shape.vulkan12 && has(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME)) {
    shape.externalMemoryHost = true;
    shape.extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  }
  return shape;
}

FeatureChain::FeatureChain(const FeatureChainShape& shape) {
  core_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  vulkan11_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
  vulkan12_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
  subgroupSizeControl_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
  maintenance4_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES;
  integerDotProduct_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES;
  pipelineExecutableProperties_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
  void** tail = &core_.pNext;
  if (shape.vulkan12) {
    link(tail, vulkan11_);
    link(tail, vulkan12_);
  }
  // The single 1.3 structures rather than VkPhysicalDeviceVulkan13Features, so that one chain
  // serves 1.3 devices and 1.2 devices with the extensions.
  if (shape.subgroupSizeControl) link(tail, subgroupSizeControl_);
  if (shape.maintenance4) link(tail, maintenance4_);
  if (shape.integerDotProduct) link(tail, integerDotProduct_);
  if (shape.pipelineExecutableProperties) link(tail, pipelineExecutableProperties_);
}

std::span<const FeatureChain::Field> FeatureChain::fields() {
#define CL2VK_FEATURE(structure, name)                                       \
  Field {                                                                    \
    &DeviceFeatures::name, [](FeatureChain& c) { return &c.structure.name; } \
  }
  static const Field table[] = {
      CL2VK_FEATURE(core_.features, shaderInt16),
      CL2VK_FEATURE(core_.features, shaderInt64),
      CL2VK_FEATURE(core_.features, shaderFloat64),
      CL2VK_FEATURE(vulkan11_, storageBuffer16BitAccess),
      CL2VK_FEATURE(vulkan11_, uniformAndStorageBuffer16BitAccess),
      CL2VK_FEATURE(vulkan11_, storagePushConstant16),
      CL2VK_FEATURE(vulkan11_, variablePointersStorageBuffer),
      CL2VK_FEATURE(vulkan11_, variablePointers),
      CL2VK_FEATURE(vulkan12_, storageBuffer8BitAccess),
      CL2VK_FEATURE(vulkan12_, uniformAndStorageBuffer8BitAccess),
      CL2VK_FEATURE(vulkan12_, storagePushConstant8),
      CL2VK_FEATURE(vulkan12_, shaderBufferInt64Atomics),
      CL2VK_FEATURE(vulkan12_, shaderSharedInt64Atomics),
      CL2VK_FEATURE(vulkan12_, shaderFloat16),
      CL2VK_FEATURE(vulkan12_, shaderInt8),
      CL2VK_FEATURE(vulkan12_, scalarBlockLayout),
      CL2VK_FEATURE(vulkan12_, uniformBufferStandardLayout),
      CL2VK_FEATURE(vulkan12_, shaderSubgroupExtendedTypes),
      CL2VK_FEATURE(vulkan12_, hostQueryReset),
      CL2VK_FEATURE(vulkan12_, bufferDeviceAddress),
      CL2VK_FEATURE(vulkan12_, vulkanMemoryModel),
      CL2VK_FEATURE(vulkan12_, vulkanMemoryModelDeviceScope),
      CL2VK_FEATURE(subgroupSizeControl_, subgroupSizeControl),
      CL2VK_FEATURE(subgroupSizeControl_, computeFullSubgroups),
      CL2VK_FEATURE(maintenance4_, maintenance4),
      CL2VK_FEATURE(integerDotProduct_, shaderIntegerDotProduct),
      CL2VK_FEATURE(pipelineExecutableProperties_, pipelineExecutableInfo),
  };
#undef CL2VK_FEATURE
  return table;
}

DeviceFeatures FeatureChain::read() {
  DeviceFeatures features;
  for (const Field& field : fields()) features.*field.flag = *field.slot(*this) == VK_TRUE;
  return features;
}

void FeatureChain::enable(const DeviceFeatures& features) {
  for (const Field& field : fields()) *field.slot(*this) = features.*field.flag ? VK_TRUE : VK_FALSE;
}

}  // namespace cl2vk::vulkan
