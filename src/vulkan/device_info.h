// What a physical device offers that the translator and the runtime care about: identity, subgroup
// properties, limits and the optional features cl2vk enables. The runtime builds its translation
// Target from this; tests print it.
#pragma once

#include <volk.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

class Instance;

struct SubgroupInfo {
  uint32_t size = 0;  // The default subgroup size (Vulkan 1.1 subgroupSize).
  VkShaderStageFlags supportedStages = 0;
  VkSubgroupFeatureFlags supportedOperations = 0;
  bool quadOperationsInAllStages = false;
  // VK_EXT_subgroup_size_control (core in Vulkan 1.3); min == max == size without it.
  bool sizeControl = false;
  uint32_t minSize = 0;
  uint32_t maxSize = 0;
  uint32_t maxComputeWorkgroupSubgroups = 0;
  bool computeFullSubgroups = false;   // VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT
  bool requiredSizeInCompute = false;  // VkPipelineShaderStageRequiredSubgroupSizeCreateInfo

  bool supportsInCompute(VkSubgroupFeatureFlags operations) const {
    return (supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && (supportedOperations & operations) == operations;
  }
};

struct MemoryHeap {
  VkDeviceSize size = 0;
  bool deviceLocal = false;
};

struct DeviceLimits {
  uint32_t maxComputeWorkGroupInvocations = 0;
  std::array<uint32_t, 3> maxComputeWorkGroupSize{};
  std::array<uint32_t, 3> maxComputeWorkGroupCount{};
  uint32_t maxComputeSharedMemorySize = 0;
  uint32_t maxPushConstantsSize = 0;
  uint32_t maxStorageBufferRange = 0;
  VkDeviceSize maxMemoryAllocationSize = 0;
  VkDeviceSize maxBufferSize = 0;  // Vulkan 1.3 / VK_KHR_maintenance4; 0 when unknown.
  std::vector<MemoryHeap> memoryHeaps;
  float timestampPeriod = 0;  // Nanoseconds per timestamp tick.
  // Whether some queue family with compute has timestampValidBits > 0.
  bool computeQueueTimestamps = false;
};

// The optional features cl2vk enables when the device has them (all of them, except that
// bufferDeviceAddress is required). Names follow the Vulkan feature structures.
struct DeviceFeatures {
  // VkPhysicalDeviceFeatures
  bool shaderInt16 = false;
  bool shaderInt64 = false;
  bool shaderFloat64 = false;
  // Vulkan 1.1
  bool storageBuffer16BitAccess = false;
  bool uniformAndStorageBuffer16BitAccess = false;
  bool storagePushConstant16 = false;
  bool variablePointersStorageBuffer = false;
  bool variablePointers = false;
  // Vulkan 1.2
  bool storageBuffer8BitAccess = false;
  bool uniformAndStorageBuffer8BitAccess = false;
  bool storagePushConstant8 = false;
  bool shaderBufferInt64Atomics = false;
  bool shaderSharedInt64Atomics = false;
  bool shaderFloat16 = false;
  bool shaderInt8 = false;
  bool scalarBlockLayout = false;
  bool uniformBufferStandardLayout = false;
  bool shaderSubgroupExtendedTypes = false;
  bool hostQueryReset = false;
  bool bufferDeviceAddress = false;
  bool vulkanMemoryModel = false;
  bool vulkanMemoryModelDeviceScope = false;
  // Vulkan 1.3, or their extensions on a 1.2 device
  bool subgroupSizeControl = false;
  bool computeFullSubgroups = false;
  bool maintenance4 = false;  // Needed for the LocalSizeId execution mode.
  bool shaderIntegerDotProduct = false;
  // VK_KHR_pipeline_executable_properties: the driver's statistics of a compiled pipeline
  // (registers, shared memory), for performance work (Pipeline::statistics).
  bool pipelineExecutableInfo = false;
};

struct DeviceInfo {
  uint32_t index = 0;  // Position in enumerateDevices(), what CL2VK_DEVICE=<n> selects.
  std::string name;
  uint32_t vendorId = 0;
  uint32_t deviceId = 0;
  // VkPhysicalDeviceIDProperties::deviceUUID (Vulkan 1.1): what other APIs (CUDA) know it by.
  std::array<uint8_t, VK_UUID_SIZE> deviceUuid{};
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  uint32_t apiVersion = 0;  // What the device reports, not capped by the instance.
  uint32_t driverVersion = 0;
  VkDriverId driverId = static_cast<VkDriverId>(0);
  std::string driverName;  // "llvmpipe"; empty before Vulkan 1.2.
  std::string driverInfo;  // "Mesa 22.3.6 (LLVM 15.0.6)"
  std::vector<std::string> extensions;
  bool hasComputeQueue = false;
  SubgroupInfo subgroup;
  DeviceLimits limits;
  // VkPhysicalDeviceFloatControlsProperties (Vulkan 1.2): a kernel may ask to keep float denormals.
  bool denormPreserveFloat32 = false;
  // Multiprocessors / compute units, from VK_NV_shader_sm_builtins or
  // VK_AMD_shader_core_properties; 0 where no extension says.
  uint32_t computeUnits = 0;
  // VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment where the
  // device has VK_EXT_external_memory_host (host memory it can use as its own); 0 where not.
  VkDeviceSize importedHostPointerAlignment = 0;
  DeviceFeatures features;
  // How many loop-header executions an invocation may make before the driver silently ends its
  // loops (lavapipe: 65536, shared by all loops); 0 for none. Measured by Device::open on CPU
  // devices (loop_limit_probe.h); 0 before a device is opened and on GPUs, which are not probed.
  uint32_t loopIterationLimit = 0;

  bool hasExtension(const char* name) const;
};

// Every physical device the loader lists, in its order. Creates (and destroys) an instance of its
// own; Device::open repeats the query on the instance it keeps.
Expected<std::vector<DeviceInfo>> enumerateDevices();
// The same on `instance`.
Expected<std::vector<DeviceInfo>> enumerateDevices(const Instance& instance);

// The properties and features of one device; `instanceApiVersion` caps the structures queried.
DeviceInfo queryDeviceInfo(VkPhysicalDevice device, uint32_t index, uint32_t instanceApiVersion);

// Why cl2vk cannot run on the device (Vulkan older than 1.2, no bufferDeviceAddress, no compute
// queue), or ok.
Status checkUsable(const DeviceInfo& info);

// Clears the features named in a comma-separated list (describe()'s names: int8, int64,
// storage16, ...), as CL2VK_DEVICE_LACKS asks enumerateDevices to; an unknown name is an error.
Status hideFeatures(DeviceFeatures& features, std::string_view names);

std::string deviceTypeName(VkPhysicalDeviceType type);
std::string versionString(uint32_t apiVersion);  // "1.3.230"
// Several lines: identity, subgroups, limits and features, for logs and test output.
std::string describe(const DeviceInfo& info);

}  // namespace cl2vk::vulkan
