// Enumeration, device selection and opening, on whatever devices the machine has (lavapipe at
// least).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include "vulkan/device.h"
#include "vulkan/device_info.h"
#include "vulkan/device_selection.h"

namespace cl2vk::vulkan {
namespace {

bool isPowerOfTwo(uint32_t value) { return value != 0 && (value & (value - 1)) == 0; }

bool nameContains(const DeviceInfo& info, const std::string& part) { return info.name.find(part) != std::string::npos; }

std::optional<DeviceInfo> findLavapipe(const std::vector<DeviceInfo>& devices) {
  auto found = std::find_if(devices.begin(), devices.end(),
                            [](const DeviceInfo& info) { return nameContains(info, "llvmpipe"); });
  if (found == devices.end()) return std::nullopt;
  return *found;
}

// A device that checkUsable accepts, for the selection tests.
DeviceInfo fakeDevice(uint32_t index, std::string name, VkPhysicalDeviceType type) {
  DeviceInfo info;
  info.index = index;
  info.name = std::move(name);
  info.type = type;
  info.apiVersion = VK_API_VERSION_1_3;
  info.hasComputeQueue = true;
  info.features.bufferDeviceAddress = true;
  return info;
}

TEST(ExecutorDeviceTest, EnumerationListsLavapipeWithPlausibleProperties) {
  Expected<std::vector<DeviceInfo>> devices = enumerateDevices();
  ASSERT_TRUE(devices.ok()) << devices.error().message();
  for (const DeviceInfo& info : *devices) std::cout << describe(info);
  std::optional<DeviceInfo> lavapipe = findLavapipe(*devices);
  ASSERT_TRUE(lavapipe) << "lavapipe (mesa-vulkan-drivers) is not among the devices";

  EXPECT_EQ(lavapipe->type, VK_PHYSICAL_DEVICE_TYPE_CPU);
  EXPECT_GE(lavapipe->apiVersion, VK_API_VERSION_1_2);
  EXPECT_EQ(lavapipe->driverName, "llvmpipe");
  EXPECT_TRUE(checkUsable(*lavapipe).ok());

  const SubgroupInfo& subgroup = lavapipe->subgroup;
  EXPECT_TRUE(isPowerOfTwo(subgroup.size)) << subgroup.size;
  EXPECT_GE(subgroup.size, 1u);
  EXPECT_LE(subgroup.size, 128u);
  EXPECT_LE(subgroup.minSize, subgroup.size);
  EXPECT_GE(subgroup.maxSize, subgroup.size);
  EXPECT_TRUE(subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                         VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                         VK_SUBGROUP_FEATURE_SHUFFLE_BIT));

  // Vulkan's required minimums, which every conforming device meets.
  const DeviceLimits& limits = lavapipe->limits;
  EXPECT_GE(limits.maxComputeWorkGroupInvocations, 128u);
  EXPECT_GE(limits.maxComputeWorkGroupSize[0], 128u);
  EXPECT_GE(limits.maxComputeWorkGroupSize[1], 128u);
  EXPECT_GE(limits.maxComputeWorkGroupSize[2], 64u);
  for (uint32_t count : limits.maxComputeWorkGroupCount) EXPECT_GE(count, 65535u);
  EXPECT_GE(limits.maxComputeSharedMemorySize, 16384u);
  EXPECT_GE(limits.maxPushConstantsSize, 128u);
  EXPECT_GE(limits.maxStorageBufferRange, 1u << 27);
  ASSERT_FALSE(limits.memoryHeaps.empty());
  EXPECT_GT(limits.memoryHeaps[0].size, 0u);
  EXPECT_GT(limits.timestampPeriod, 0.0f);
  EXPECT_TRUE(limits.computeQueueTimestamps);

  // What DESIGN.md records lavapipe as having.
  const DeviceFeatures& features = lavapipe->features;
  EXPECT_TRUE(features.bufferDeviceAddress);
  EXPECT_TRUE(features.shaderInt8);
  EXPECT_TRUE(features.shaderInt64);
  EXPECT_TRUE(features.shaderFloat16);
  EXPECT_TRUE(features.shaderFloat64);
  EXPECT_TRUE(features.storageBuffer8BitAccess);
  EXPECT_TRUE(features.storageBuffer16BitAccess);
  EXPECT_TRUE(features.shaderSubgroupExtendedTypes);
}

TEST(ExecutorDeviceTest, EnumerationIndexesDevicesInOrder) {
  Expected<std::vector<DeviceInfo>> devices = enumerateDevices();
  ASSERT_TRUE(devices.ok()) << devices.error().message();
  for (uint32_t i = 0; i < devices->size(); ++i) EXPECT_EQ((*devices)[i].index, i);
}

TEST(ExecutorDeviceTest, DefaultChoicePrefersDiscreteThenIntegratedThenAnyOther) {
  std::vector<DeviceInfo> devices = {fakeDevice(0, "llvmpipe", VK_PHYSICAL_DEVICE_TYPE_CPU),
                                     fakeDevice(1, "Intel UHD", VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU),
                                     fakeDevice(2, "Radeon", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU)};
  Expected<uint32_t> chosen = selectDevice(devices, "");
  ASSERT_TRUE(chosen.ok()) << chosen.error().message();
  EXPECT_EQ(*chosen, 2u);

  devices.pop_back();
  chosen = selectDevice(devices, "");
  ASSERT_TRUE(chosen.ok()) << chosen.error().message();
  EXPECT_EQ(*chosen, 1u);

  devices.pop_back();
  chosen = selectDevice(devices, "");
  ASSERT_TRUE(chosen.ok()) << chosen.error().message();
  EXPECT_EQ(*chosen, 0u);
}

TEST(ExecutorDeviceTest, DefaultChoiceSkipsDevicesWithoutBufferDeviceAddress) {
  std::vector<DeviceInfo> devices = {fakeDevice(0, "Old GPU", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU),
                                     fakeDevice(1, "llvmpipe", VK_PHYSICAL_DEVICE_TYPE_CPU)};
  devices[0].features.bufferDeviceAddress = false;
  Expected<uint32_t> chosen = selectDevice(devices, "");
  ASSERT_TRUE(chosen.ok()) << chosen.error().message();
  EXPECT_EQ(*chosen, 1u);

  // Asked for by name, the unusable device is an error that says why.
  chosen = selectDevice(devices, "old");
  ASSERT_FALSE(chosen.ok());
  EXPECT_NE(chosen.error().message().find("bufferDeviceAddress"), std::string::npos) << chosen.error().message();
}

TEST(ExecutorDeviceTest, RequestSelectsByIndexOrCaseInsensitiveName) {
  std::vector<DeviceInfo> devices = {fakeDevice(0, "NVIDIA GeForce", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU),
                                     fakeDevice(1, "llvmpipe (LLVM 15)", VK_PHYSICAL_DEVICE_TYPE_CPU)};
  Expected<uint32_t> byName = selectDevice(devices, "LLVMPIPE");
  ASSERT_TRUE(byName.ok()) << byName.error().message();
  EXPECT_EQ(*byName, 1u);
  Expected<uint32_t> byIndex = selectDevice(devices, "1");
  ASSERT_TRUE(byIndex.ok()) << byIndex.error().message();
  EXPECT_EQ(*byIndex, 1u);
}

TEST(ExecutorDeviceTest, RequestMatchingNothingListsTheDevices) {
  std::vector<DeviceInfo> devices = {fakeDevice(0, "llvmpipe", VK_PHYSICAL_DEVICE_TYPE_CPU)};
  Expected<uint32_t> byName = selectDevice(devices, "no-such-gpu");
  ASSERT_FALSE(byName.ok());
  EXPECT_NE(byName.error().message().find("[0] llvmpipe"), std::string::npos) << byName.error().message();
  Expected<uint32_t> byIndex = selectDevice(devices, "7");
  ASSERT_FALSE(byIndex.ok());
  EXPECT_NE(byIndex.error().message().find("out of range"), std::string::npos) << byIndex.error().message();
  EXPECT_FALSE(selectDevice({}, "").ok());
}

TEST(ExecutorDeviceTest, OpensLavapipeByNameWithItsFeaturesEnabled) {
  DeviceOptions options = DeviceOptions::fromEnvironment();
  options.device = "LlvmPipe";
  Expected<std::unique_ptr<Device>> device = Device::open(options);
  ASSERT_TRUE(device.ok()) << device.error().message();
  const DeviceInfo& info = (*device)->info();
  EXPECT_TRUE(nameContains(info, "llvmpipe")) << info.name;
  EXPECT_GE((*device)->apiVersion(), VK_API_VERSION_1_2);
  EXPECT_TRUE(info.features.bufferDeviceAddress);
  EXPECT_NE((*device)->handle(), VK_NULL_HANDLE);
  EXPECT_TRUE((*device)->validationMessages().empty());
}

TEST(ExecutorDeviceTest, OpeningAnUnknownDeviceFails) {
  DeviceOptions options;
  options.device = "no-such-gpu";
  Expected<std::unique_ptr<Device>> device = Device::open(options);
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.error().message().find("CL2VK_DEVICE=no-such-gpu"), std::string::npos) << device.error().message();
}

TEST(ExecutorDeviceTest, OptionsComeFromTheEnvironment) {
  auto saved = [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
  std::optional<std::string> device = saved("CL2VK_DEVICE");
  std::optional<std::string> validation = saved("CL2VK_VALIDATION");
  std::optional<std::string> queue = saved("CL2VK_QUEUE");

  setenv("CL2VK_DEVICE", "llvmpipe", 1);
  setenv("CL2VK_VALIDATION", "1", 1);
  setenv("CL2VK_QUEUE", "compute", 1);
  DeviceOptions options = DeviceOptions::fromEnvironment();
  EXPECT_EQ(options.device, "llvmpipe");
  EXPECT_TRUE(options.validation);
  EXPECT_EQ(options.queue, "compute");
  unsetenv("CL2VK_DEVICE");
  setenv("CL2VK_VALIDATION", "0", 1);
  unsetenv("CL2VK_QUEUE");
  options = DeviceOptions::fromEnvironment();
  EXPECT_EQ(options.device, "");
  EXPECT_FALSE(options.validation);
  EXPECT_EQ(options.queue, "");

  auto restore = [](const char* name, const std::optional<std::string>& value) {
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  };
  restore("CL2VK_DEVICE", device);
  restore("CL2VK_VALIDATION", validation);
  restore("CL2VK_QUEUE", queue);
}

TEST(ExecutorDeviceTest, HiddenFeaturesLookAbsentAndTakeWhatDependsOnThemAlong) {
  DeviceFeatures features;
  features.shaderInt64 = features.shaderBufferInt64Atomics = features.shaderSharedInt64Atomics = true;
  features.storageBuffer8BitAccess = features.uniformAndStorageBuffer8BitAccess = true;
  features.shaderInt16 = true;
  ASSERT_TRUE(hideFeatures(features, "int64,,storage8").ok());
  EXPECT_FALSE(features.shaderInt64);
  EXPECT_FALSE(features.shaderBufferInt64Atomics);
  EXPECT_FALSE(features.shaderSharedInt64Atomics);
  EXPECT_FALSE(features.storageBuffer8BitAccess);
  EXPECT_FALSE(features.uniformAndStorageBuffer8BitAccess);
  EXPECT_TRUE(features.shaderInt16);

  Status unknown = hideFeatures(features, "int16,int128");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message().find("'int128'"), std::string::npos) << unknown.error().message();
  EXPECT_NE(unknown.error().message().find("storage16"), std::string::npos) << unknown.error().message();
}

TEST(ExecutorDeviceTest, DeviceLacksMasksEnumeratedDevicesAndOpenedOnes) {
  const char* before = std::getenv("CL2VK_DEVICE_LACKS");
  std::optional<std::string> saved = before ? std::optional<std::string>(before) : std::nullopt;
  setenv("CL2VK_DEVICE_LACKS", "int64,int8", 1);
  Expected<std::vector<DeviceInfo>> devices = enumerateDevices();
  ASSERT_TRUE(devices.ok()) << devices.error().message();
  for (const DeviceInfo& info : *devices) {
    EXPECT_FALSE(info.features.shaderInt64) << info.name;
    EXPECT_FALSE(info.features.shaderInt8) << info.name;
  }
  DeviceOptions options;
  options.device = "llvmpipe";
  Expected<std::unique_ptr<Device>> device = Device::open(options);
  ASSERT_TRUE(device.ok()) << device.error().message();
  EXPECT_FALSE((*device)->info().features.shaderInt64);
  setenv("CL2VK_DEVICE_LACKS", "int64,everything", 1);
  Expected<std::vector<DeviceInfo>> refused = enumerateDevices();
  EXPECT_FALSE(refused.ok());
  if (saved)
    setenv("CL2VK_DEVICE_LACKS", saved->c_str(), 1);
  else
    unsetenv("CL2VK_DEVICE_LACKS");
}

TEST(ExecutorDeviceTest, ClockHoldIsForNvidiaDevicesOnlyAndCanBeTurnedOff) {
  DeviceInfo lavapipe;
  lavapipe.vendorId = 0x10005;  // Mesa's
  std::string why = "stale";
  EXPECT_EQ(ClockHold::acquire(lavapipe, ClockPolicy::kCudaContext, why), nullptr);
  EXPECT_EQ(why, "");  // nothing to do, nothing to report

  DeviceInfo nvidia;
  nvidia.vendorId = 0x10de;
  EXPECT_EQ(ClockHold::acquire(nvidia, ClockPolicy::kOff, why), nullptr);
  EXPECT_EQ(why, "");
  // A UUID no CUDA device has (all zero): no hold, and a reason, whether or not CUDA is installed.
  EXPECT_EQ(ClockHold::acquire(nvidia, ClockPolicy::kCudaContext, why), nullptr);
  EXPECT_NE(why, "");

  const char* before = std::getenv("CL2VK_NVIDIA_CLOCKS");
  std::optional<std::string> saved = before ? std::optional<std::string>(before) : std::nullopt;
  setenv("CL2VK_NVIDIA_CLOCKS", "off", 1);
  EXPECT_EQ(ClockHold::policyFromEnvironment(), ClockPolicy::kOff);
  EXPECT_EQ(DeviceOptions::fromEnvironment().clocks, ClockPolicy::kOff);
  unsetenv("CL2VK_NVIDIA_CLOCKS");
  EXPECT_EQ(ClockHold::policyFromEnvironment(), ClockPolicy::kCudaContext);
  if (saved) setenv("CL2VK_NVIDIA_CLOCKS", saved->c_str(), 1);
}

VkQueueFamilyProperties fakeFamily(VkQueueFlags flags, uint32_t timestampValidBits) {
  VkQueueFamilyProperties family{};
  family.queueFlags = flags;
  family.queueCount = 1;
  family.timestampValidBits = timestampValidBits;
  return family;
}

// NVIDIA's layout: graphics and compute, transfer alone, compute alone.
const std::vector<VkQueueFamilyProperties> kNvidiaLikeFamilies{
    fakeFamily(VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, 64),
    fakeFamily(VK_QUEUE_TRANSFER_BIT, 64),
    fakeFamily(VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, 64),
};

TEST(ExecutorDeviceTest, QueueChoicePrefersADedicatedComputeFamily) {
  EXPECT_EQ(selectQueueFamily(kNvidiaLikeFamilies, "").value(), 2u);
  EXPECT_EQ(selectQueueFamily(kNvidiaLikeFamilies, "compute").value(), 2u);
  EXPECT_EQ(selectQueueFamily(kNvidiaLikeFamilies, "graphics").value(), 0u);
}

TEST(ExecutorDeviceTest, QueueFamiliesWithTimestampsComeFirst) {
  std::vector<VkQueueFamilyProperties> families{fakeFamily(VK_QUEUE_COMPUTE_BIT, 0),
                                                fakeFamily(VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT, 36)};
  EXPECT_EQ(selectQueueFamily(families, "").value(), 1u);
}

TEST(ExecutorDeviceTest, QueueRequestFallsBackToTheOnlyComputeFamily) {
  std::vector<VkQueueFamilyProperties> lavapipeLike{
      fakeFamily(VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, 64)};
  EXPECT_EQ(selectQueueFamily(lavapipeLike, "compute").value(), 0u);
  std::vector<VkQueueFamilyProperties> transferOnly{fakeFamily(VK_QUEUE_TRANSFER_BIT, 64)};
  EXPECT_FALSE(selectQueueFamily(transferOnly, "").ok());
}

TEST(ExecutorDeviceTest, UnknownQueueRequestIsAnError) {
  Expected<uint32_t> chosen = selectQueueFamily(kNvidiaLikeFamilies, "async");
  ASSERT_FALSE(chosen.ok());
  EXPECT_NE(chosen.error().message().find("CL2VK_QUEUE=async"), std::string::npos) << chosen.error().message();
}

TEST(ExecutorDeviceTest, OpensLavapipeOnEitherQueueRequest) {
  for (const char* queue : {"graphics", "compute"}) {
    DeviceOptions options;
    options.device = "llvmpipe";
    options.queue = queue;
    Expected<std::unique_ptr<Device>> device = Device::open(options);
    ASSERT_TRUE(device.ok()) << queue << ": " << device.error().message();
    EXPECT_EQ((*device)->queue().family(), 0u) << queue;
  }
}

// The device opens min(the family's queues, kMaxQueues) queues and hands them to new streams of
// work in turn, so that as many OpenCL command queues run at once; the first is queue().
TEST(ExecutorDeviceTest, OpensTheFamilysQueuesAndHandsThemOutInTurn) {
  Expected<std::unique_ptr<Device>> opened = Device::open();
  ASSERT_TRUE(opened.ok()) << opened.error().message();
  Device& device = **opened;
  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device.physicalDevice(), &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(device.physicalDevice(), &familyCount, families.data());
  uint32_t family = device.queue().family();
  ASSERT_LT(family, familyCount);
  EXPECT_EQ(device.queueCount(), std::min(families[family].queueCount, Device::kMaxQueues));

  std::vector<Queue*> handedOut;
  for (size_t i = 0; i < 2 * device.queueCount(); ++i) handedOut.push_back(&device.nextQueue());
  for (size_t i = 0; i < device.queueCount(); ++i) {
    EXPECT_EQ(handedOut[i]->family(), family);
    EXPECT_EQ(handedOut[i], handedOut[i + device.queueCount()]) << "queue " << i << " again after a full turn";
    for (size_t j = 0; j < i; ++j) EXPECT_NE(handedOut[i], handedOut[j]) << "queues " << j << " and " << i;
  }
  EXPECT_TRUE(std::find(handedOut.begin(), handedOut.end(), &device.queue()) != handedOut.end());
  EXPECT_FALSE(device.lost());
}

}  // namespace
}  // namespace cl2vk::vulkan
