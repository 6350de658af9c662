#include "vulkan/device_info.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "support/settings.h"
#include "vulkan/feature_chain.h"
#include "vulkan/instance.h"

namespace cl2vk::vulkan {
namespace {

std::vector<std::string> deviceExtensions(VkPhysicalDevice device) {
  uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> properties(count);
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, properties.data()) < 0) return {};
  std::vector<std::string> names;
  for (uint32_t i = 0; i < count; ++i) names.emplace_back(properties[i].extensionName);
  return names;
}

std::string subgroupOperationNames(VkSubgroupFeatureFlags operations) {
  static const std::pair<VkSubgroupFeatureFlagBits, const char*> names[] = {
      {VK_SUBGROUP_FEATURE_BASIC_BIT, "basic"},
      {VK_SUBGROUP_FEATURE_VOTE_BIT, "vote"},
      {VK_SUBGROUP_FEATURE_ARITHMETIC_BIT, "arithmetic"},
      {VK_SUBGROUP_FEATURE_BALLOT_BIT, "ballot"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_BIT, "shuffle"},
      {VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, "shuffle_relative"},
      {VK_SUBGROUP_FEATURE_CLUSTERED_BIT, "clustered"},
      {VK_SUBGROUP_FEATURE_QUAD_BIT, "quad"},
  };
  std::string text;
  for (const auto& [bit, name] : names) {
    if (!(operations & bit)) continue;
    if (!text.empty()) text += ' ';
    text += name;
  }
  return text.empty() ? "none" : text;
}

// The features `describe` prints and CL2VK_DEVICE_LACKS may hide, by the names both use.
struct NamedFeature {
  const char* name;
  bool DeviceFeatures::*member;
};
constexpr NamedFeature kNamedFeatures[] = {
    {"int8", &DeviceFeatures::shaderInt8},
    {"int16", &DeviceFeatures::shaderInt16},
    {"int64", &DeviceFeatures::shaderInt64},
    {"float16", &DeviceFeatures::shaderFloat16},
    {"float64", &DeviceFeatures::shaderFloat64},
    {"storage8", &DeviceFeatures::storageBuffer8BitAccess},
    {"storage16", &DeviceFeatures::storageBuffer16BitAccess},
    {"pushConstant8", &DeviceFeatures::storagePushConstant8},
    {"pushConstant16", &DeviceFeatures::storagePushConstant16},
    {"subgroupExtendedTypes", &DeviceFeatures::shaderSubgroupExtendedTypes},
    {"bufferDeviceAddress", &DeviceFeatures::bufferDeviceAddress},
    {"variablePointers", &DeviceFeatures::variablePointers},
    {"vulkanMemoryModel", &DeviceFeatures::vulkanMemoryModel},
    {"bufferInt64Atomics", &DeviceFeatures::shaderBufferInt64Atomics},
    {"sharedInt64Atomics", &DeviceFeatures::shaderSharedInt64Atomics},
    {"scalarBlockLayout", &DeviceFeatures::scalarBlockLayout},
    {"maintenance4", &DeviceFeatures::maintenance4},
    {"integerDotProduct", &DeviceFeatures::shaderIntegerDotProduct},
};

// A feature hidden also hides what cannot be had without it, as a real device without it would
// not offer them: no 8/16-bit storage without the type's storage in buffers, no 64-bit atomics
// without 64-bit integers.
void hideFeature(DeviceFeatures& features, bool DeviceFeatures::*member) {
  features.*member = false;
  if (member == &DeviceFeatures::storageBuffer8BitAccess) features.uniformAndStorageBuffer8BitAccess = false;
  if (member == &DeviceFeatures::storageBuffer16BitAccess) features.uniformAndStorageBuffer16BitAccess = false;
  if (member == &DeviceFeatures::shaderInt64) {
    features.shaderBufferInt64Atomics = false;
    features.shaderSharedInt64Atomics = false;
  }
}

}  // namespace

Status hideFeatures(DeviceFeatures& features, std::string_view names) {
  while (!names.empty()) {
    size_t comma = names.find(',');
    std::string_view name = names.substr(0, comma);
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    if (name.empty()) continue;
    const NamedFeature* found = nullptr;
    for (const NamedFeature& feature : kNamedFeatures) {
      if (name == feature.name) found = &feature;
    }
    if (!found) {
      std::string known;
      for (const NamedFeature& feature : kNamedFeatures) {
        if (!known.empty()) known += ", ";
        known += feature.name;
      }
      return Error("CL2VK_DEVICE_LACKS names '" + std::string(name) + "', which is not a feature cl2vk knows (" +
                   known + ")");
    }
    hideFeature(features, found->member);
  }
  return okStatus();
}

bool DeviceInfo::hasExtension(const char* extension) const {
  return std::find(extensions.begin(), extensions.end(), extension) != extensions.end();
}

DeviceInfo queryDeviceInfo(VkPhysicalDevice device, uint32_t index, uint32_t instanceApiVersion) {
  DeviceInfo info;
  info.index = index;
  info.extensions = deviceExtensions(device);

  VkPhysicalDeviceProperties basic{};
  vkGetPhysicalDeviceProperties(device, &basic);
  info.apiVersion = basic.apiVersion;
  // What may be used is capped by the instance's version as well as the device's.
  uint32_t usableVersion = std::min(basic.apiVersion, instanceApiVersion);
  FeatureChainShape shape = featureChainShape(usableVersion, info.extensions);

  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  VkPhysicalDeviceSubgroupProperties subgroup{};
  subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceMaintenance3Properties maintenance3{};
  maintenance3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES;
  VkPhysicalDeviceDriverProperties driver{};
  driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
  VkPhysicalDeviceSubgroupSizeControlProperties sizeControl{};
  sizeControl.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES;
  VkPhysicalDeviceMaintenance4Properties maintenance4{};
  maintenance4.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES;
  VkPhysicalDeviceFloatControlsProperties floatControls{};
  floatControls.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES;
  VkPhysicalDeviceIDProperties ids{};
  ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
  if (usableVersion >= VK_API_VERSION_1_1) {
    properties.pNext = &ids;
    ids.pNext = &subgroup;
    subgroup.pNext = &maintenance3;
  }
  if (usableVersion >= VK_API_VERSION_1_2) maintenance3.pNext = &driver;
  void** tail = &driver.pNext;
  if (usableVersion >= VK_API_VERSION_1_2) {
    *tail = &floatControls;
    tail = &floatControls.pNext;
  }
  if (shape.subgroupSizeControl) {
    *tail = &sizeControl;
    tail = &sizeControl.pNext;
  }
  if (shape.maintenance4) {
    *tail = &maintenance4;
    tail = &maintenance4.pNext;
  }
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT hostImports{};
  hostImports.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT;
  if (shape.externalMemoryHost) {
    *tail = &hostImports;
    tail = &hostImports.pNext;
  }
  // How many multiprocessors (compute units, shader cores) the GPU has, where its vendor's
  // extension says (VK_NV_shader_sm_builtins, VK_AMD_shader_core_properties): OpenCL programs size their launches by
  // CL_DEVICE_MAX_COMPUTE_UNITS.
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nvidiaCores{};
  nvidiaCores.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV;
  VkPhysicalDeviceShaderCorePropertiesAMD amdCores{};
  amdCores.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD;
  if (usableVersion >= VK_API_VERSION_1_1) {
    if (info.hasExtension(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
      *tail = &nvidiaCores;
      tail = &nvidiaCores.pNext;
    }
    if (info.hasExtension(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME)) *tail = &amdCores;
  }
  vkGetPhysicalDeviceProperties2(device, &properties);
  info.importedHostPointerAlignment = shape.externalMemoryHost ? hostImports.minImportedHostPointerAlignment : 0;
  info.computeUnits = nvidiaCores.shaderSMCount;
  if (info.computeUnits == 0)
    info.computeUnits =
        amdCores.shaderEngineCount * amdCores.shaderArraysPerEngineCount * amdCores.computeUnitsPerShaderArray;

  std::memcpy(info.deviceUuid.data(), ids.deviceUUID, VK_UUID_SIZE);

  FeatureChain featureChain(shape);
  vkGetPhysicalDeviceFeatures2(device, featureChain.head());
  info.features = featureChain.read();

  const VkPhysicalDeviceProperties& core = properties.properties;
  info.name = core.deviceName;
  info.vendorId = core.vendorID;
  info.deviceId = core.deviceID;
  info.type = core.deviceType;
  info.driverVersion = core.driverVersion;
  info.driverId = driver.driverID;
  info.driverName = driver.driverName;
  info.driverInfo = driver.driverInfo;
  info.denormPreserveFloat32 = floatControls.shaderDenormPreserveFloat32 == VK_TRUE;

  SubgroupInfo& sub = info.subgroup;
  sub.size = subgroup.subgroupSize;
  sub.supportedStages = subgroup.supportedStages;
  sub.supportedOperations = subgroup.supportedOperations;
  sub.quadOperationsInAllStages = subgroup.quadOperationsInAllStages == VK_TRUE;
  sub.sizeControl = info.features.subgroupSizeControl;
  sub.minSize = sub.sizeControl ? sizeControl.minSubgroupSize : sub.size;
  sub.maxSize = sub.sizeControl ? sizeControl.maxSubgroupSize : sub.size;
  sub.maxComputeWorkgroupSubgroups = sizeControl.maxComputeWorkgroupSubgroups;
  sub.computeFullSubgroups = info.features.computeFullSubgroups;
  sub.requiredSizeInCompute = sub.sizeControl && (sizeControl.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);

  DeviceLimits& limits = info.limits;
  limits.maxComputeWorkGroupInvocations = core.limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) {
    limits.maxComputeWorkGroupSize[i] = core.limits.maxComputeWorkGroupSize[i];
    limits.maxComputeWorkGroupCount[i] = core.limits.maxComputeWorkGroupCount[i];
  }
  limits.maxComputeSharedMemorySize = core.limits.maxComputeSharedMemorySize;
  limits.maxPushConstantsSize = core.limits.maxPushConstantsSize;
  limits.maxStorageBufferRange = core.limits.maxStorageBufferRange;
  limits.maxMemoryAllocationSize = maintenance3.maxMemoryAllocationSize;
  limits.maxBufferSize = shape.maintenance4 ? maintenance4.maxBufferSize : 0;
  limits.timestampPeriod = core.limits.timestampPeriod;

  VkPhysicalDeviceMemoryProperties memory{};
  vkGetPhysicalDeviceMemoryProperties(device, &memory);
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
    limits.memoryHeaps.push_back(
        {memory.memoryHeaps[i].size, (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0});
  }

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, families.data());
  for (const VkQueueFamilyProperties& family : families) {
    if (!(family.queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    info.hasComputeQueue = true;
    if (family.timestampValidBits > 0) limits.computeQueueTimestamps = true;
  }
  return info;
}

Expected<std::vector<DeviceInfo>> enumerateDevices() {
  Expected<std::unique_ptr<Instance>> instance = Instance::create(/*validation=*/false);
  if (!instance) return instance.error();
  return enumerateDevices(**instance);
}

Expected<std::vector<DeviceInfo>> enumerateDevices(const Instance& instance) {
  Expected<std::vector<VkPhysicalDevice>> devices = instance.physicalDevices();
  if (!devices) return devices.error();
  // CL2VK_DEVICE_LACKS=int64,storage8,... makes every device look as if it lacked those features,
  // to test on one device what cl2vk does for another (SwiftShader's, a phone's).
  const std::optional<std::string> lacks = settings::read(settings::Setting::kDeviceLacks);
  std::vector<DeviceInfo> infos;
  for (uint32_t i = 0; i < devices->size(); ++i) {
    infos.push_back(queryDeviceInfo((*devices)[i], i, instance.apiVersion()));
    if (lacks) CL2VK_TRY(hideFeatures(infos.back().features, *lacks));
  }
  return infos;
}

Status checkUsable(const DeviceInfo& info) {
  if (info.apiVersion < VK_API_VERSION_1_2) {
    return Error(info.name + " supports Vulkan " + versionString(info.apiVersion) + "; cl2vk needs Vulkan 1.2");
  }
  if (!info.features.bufferDeviceAddress) {
    return Error(info.name +
                 " lacks the bufferDeviceAddress feature, which cl2vk needs to pass OpenCL global "
                 "pointers as 64-bit addresses");
  }
  if (!info.hasComputeQueue) return Error(info.name + " has no queue family with compute");
  return okStatus();
}

std::string deviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
  }
}

std::string versionString(uint32_t apiVersion) {
  return std::to_string(VK_API_VERSION_MAJOR(apiVersion)) + "." + std::to_string(VK_API_VERSION_MINOR(apiVersion)) +
         "." + std::to_string(VK_API_VERSION_PATCH(apiVersion));
}

std::string describe(const DeviceInfo& info) {
  const SubgroupInfo& sub = info.subgroup;
  const DeviceLimits& limits = info.limits;
  std::ostringstream out;
  out << "[" << info.index << "] " << info.name << " (" << deviceTypeName(info.type) << ", Vulkan "
      << versionString(info.apiVersion) << ", driver " << info.driverName << " " << info.driverInfo << ", vendor 0x"
      << std::hex << info.vendorId << " device 0x" << info.deviceId << std::dec << ")\n";
  out << "  subgroups: size " << sub.size << " [" << sub.minSize << ", " << sub.maxSize << "], compute "
      << ((sub.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ? "yes" : "no")
      << ", operations: " << subgroupOperationNames(sub.supportedOperations)
      << ", full subgroups: " << (sub.computeFullSubgroups ? "yes" : "no")
      << ", required size: " << (sub.requiredSizeInCompute ? "yes" : "no") << "\n";
  out << "  work-group: " << limits.maxComputeWorkGroupInvocations << " invocations, size "
      << limits.maxComputeWorkGroupSize[0] << "x" << limits.maxComputeWorkGroupSize[1] << "x"
      << limits.maxComputeWorkGroupSize[2] << ", count " << limits.maxComputeWorkGroupCount[0] << "x"
      << limits.maxComputeWorkGroupCount[1] << "x" << limits.maxComputeWorkGroupCount[2] << ", shared "
      << limits.maxComputeSharedMemorySize << " B, push constants " << limits.maxPushConstantsSize
      << " B, storage buffer range " << limits.maxStorageBufferRange << " B\n";
  out << "  memory heaps:";
  for (const MemoryHeap& heap : limits.memoryHeaps) {
    out << " " << (heap.size >> 20) << " MiB" << (heap.deviceLocal ? " (device-local)" : "");
  }
  out << "; timestamps: "
      << (limits.computeQueueTimestamps ? std::to_string(limits.timestampPeriod) + " ns/tick"
                                        : std::string("unavailable"))
      << "\n";
  if (info.loopIterationLimit)
    out << "  loop limit: " << info.loopIterationLimit << " loop-header executions per invocation\n";
  out << "  features:";
  for (const NamedFeature& feature : kNamedFeatures) {
    if (info.features.*feature.member) out << " " << feature.name;
  }
  out << "\n";
  return out.str();
}

}  // namespace cl2vk::vulkan
