#include "vulkan/device.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "support/settings.h"
#include "vulkan/device_selection.h"
#include "vulkan/feature_chain.h"
#include "vulkan/loop_limit_probe.h"
#include "vulkan/process_exit.h"
#include "vulkan/vk_result.h"

namespace cl2vk::vulkan {

DeviceOptions DeviceOptions::fromEnvironment() {
  DeviceOptions options;
  using settings::Setting;
  if (std::optional<std::string> device = settings::read(Setting::kDevice)) options.device = *device;
  options.validation = settings::isOn(Setting::kValidation);
  if (std::optional<std::string> queue = settings::read(Setting::kQueue)) options.queue = *queue;
  options.clocks = ClockHold::policyFromEnvironment();
  if (std::optional<std::string> timeout = settings::read(Setting::kHangTimeout)) {
    char* end = nullptr;
    long seconds = std::strtol(timeout->c_str(), &end, 10);
    if (*end == '\0' && seconds > 0) options.hangTimeout = std::chrono::seconds(seconds);
  }
  return options;
}

Expected<std::unique_ptr<Device>> Device::open(const DeviceOptions& options) {
  std::unique_ptr<Device> device(new Device());
  Expected<std::unique_ptr<Instance>> instance = Instance::create(options.validation);
  if (!instance) return instance.error();
  device->instance_ = std::move(*instance);

  Expected<std::vector<VkPhysicalDevice>> physicalDevices = device->instance_->physicalDevices();
  if (!physicalDevices) return physicalDevices.error();
  Expected<std::vector<DeviceInfo>> infos = enumerateDevices(*device->instance_);
  if (!infos) return infos.error();
  Expected<uint32_t> selected = selectDevice(*infos, options.device);
  if (!selected) return selected.error();
  device->physicalDevice_ = (*physicalDevices)[*selected];
  device->info_ = std::move((*infos)[*selected]);
  const DeviceInfo& info = device->info_;
  device->apiVersion_ = std::min(info.apiVersion, device->instance_->apiVersion());

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device->physicalDevice_, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(device->physicalDevice_, &familyCount, families.data());
  Expected<uint32_t> family = selectQueueFamily(families, options.queue);
  if (!family) return family.error().withContext(info.name);

  uint32_t queueCount = std::min(families[*family].queueCount, kMaxQueues);
  std::vector<float> priorities(queueCount, 1.0f);
  VkDeviceQueueCreateInfo queueInfo{};
  queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queueInfo.queueFamilyIndex = *family;
  queueInfo.queueCount = queueCount;
  queueInfo.pQueuePriorities = priorities.data();

  // Everything in DeviceFeatures that the device has; nothing else (robustBufferAccess, say, costs
  // speed and OpenCL does not promise it).
  FeatureChainShape shape = featureChainShape(device->apiVersion_, info.extensions);
  FeatureChain enabled(shape);
  enabled.enable(info.features);

  VkDeviceCreateInfo createInfo{};
  createInfo.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  createInfo.pNext = enabled.head();
  createInfo.queueCreateInfoCount = 1;
  createInfo.pQueueCreateInfos = &queueInfo;
  createInfo.enabledExtensionCount = static_cast<uint32_t>(shape.extensions.size());
  createInfo.ppEnabledExtensionNames = shape.extensions.data();
  CL2VK_TRY(check(vkCreateDevice(device->physicalDevice_, &createInfo, nullptr, &device->device_), "vkCreateDevice"));
  volkLoadDeviceTable(&device->vk_, device->device_);
  vkGetPhysicalDeviceMemoryProperties(device->physicalDevice_, &device->memoryProperties_);
  VkDeviceSize deviceLocalHeap = 0;
  for (uint32_t i = 0; i < device->memoryProperties_.memoryHeapCount; ++i) {
    const VkMemoryHeap& heap = device->memoryProperties_.memoryHeaps[i];
    if (heap.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) deviceLocalHeap = std::max(deviceLocalHeap, heap.size);
  }
  BufferCache::Limits cacheLimits = BufferCache::limitsFor(info.type, deviceLocalHeap);
  device->bufferCache_ = std::make_unique<BufferCache>(device->vk_, device->device_, cacheLimits);
  constexpr VkDeviceSize kStagingChunk = VkDeviceSize{16} << 20;
  device->stagingChunk_ =
      std::max<VkDeviceSize>(options.stagingChunk.value_or(std::min(kStagingChunk, cacheLimits.largestKept)), 1);

  for (uint32_t index = 0; index < queueCount; ++index) {
    Expected<std::unique_ptr<Queue>> queue =
        Queue::create(device->vk_, device->device_, *family, index, families[*family].timestampValidBits,
                      pollFencesOn(info.type), info.features.hostQueryReset, device->lost_, options.hangTimeout);
    if (!queue) return queue.error();
    device->queues_.push_back(std::move(*queue));
  }
  // Only CPU devices are probed: GPU start-up stays as it was, and the drivers known to end loops
  // early (llvmpipe's gallivm) are CPU ones. The answer is cached per device for the process.
  if (info.type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
    Expected<uint32_t> limit = measureLoopIterationLimit(*device);
    if (!limit) return limit.error();
    device->info_.loopIterationLimit = *limit;
  }
  device->clockHold_ = ClockHold::acquire(info, options.clocks, device->clockHoldProblem_);
  if (!device->clockHoldProblem_.empty()) {
    // Said once per process: without the hold the GPU may run this program's kernels at its idle
    // clock, several times slower, and nothing else would tell the user why.
    static std::once_flag told;
    std::call_once(told, [&] {
      std::fprintf(stderr,
                   "cl2vk: %s may run at its idle clock: %s (NVIDIA's GPUs keep full clocks only while a CUDA "
                   "context is open; docs/PERFORMANCE.md, \"Clocks\")\n",
                   info.name.c_str(), device->clockHoldProblem_.c_str());
    });
  }
  return device;
}

Device::~Device() {
  if (processIsExiting()) {
    // Left to the process's end (process_exit.h), with everything that belongs to the device.
    for (std::unique_ptr<Queue>& queue : queues_) (void)queue.release();
    (void)instance_.release();
    (void)clockHold_.release();
    (void)bufferCache_.release();
    return;
  }
  if (device_ != VK_NULL_HANDLE) {
    vk_.vkDeviceWaitIdle(device_);
    // Every Buffer is gone by now (they must not outlive the Device); what they left is freed here.
    if (bufferCache_) bufferCache_->clear();
    queues_.clear();
    vk_.vkDestroyDevice(device_, nullptr);
  }
}

Queue& Device::nextQueue() { return *queues_[nextQueue_.fetch_add(1, std::memory_order_relaxed) % queues_.size()]; }

}  // namespace cl2vk::vulkan
