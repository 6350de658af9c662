#include "transfer_experiment.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "measure.h"
#include "opencl_runner.h"
#include "vulkan/device.h"
#include "vulkan/vk_result.h"

namespace cl2vk::bench {
namespace {

using Clock = std::chrono::steady_clock;

// A VkDevice of its own on the runtime's physical device, with one queue of every family that can
// copy (every graphics, compute or transfer family), so that the families' copy engines can be
// compared; vulkan::Device opens the one family the runtime uses.
class CopyDevice {
 public:
  struct Family {
    uint32_t index;
    VkQueueFlags flags;
    VkQueue queue = VK_NULL_HANDLE;
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandBuffer commands = VK_NULL_HANDLE;
  };
  struct Memory {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* host = nullptr;
  };

  static Expected<std::unique_ptr<CopyDevice>> open(VkPhysicalDevice physical) {
    std::unique_ptr<CopyDevice> device(new CopyDevice());
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> properties(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, properties.data());
    std::vector<VkDeviceQueueCreateInfo> queues;
    float priority = 1.0f;
    for (uint32_t i = 0; i < count; ++i) {
      VkQueueFlags copies = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
      if (!(properties[i].queueFlags & copies)) continue;
      VkDeviceQueueCreateInfo queue{};
      queue.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
      queue.queueFamilyIndex = i;
      queue.queueCount = 1;
      queue.pQueuePriorities = &priority;
      queues.push_back(queue);
      device->families_.push_back({i, properties[i].queueFlags});
      device->familyIndices_.push_back(i);
    }
    VkDeviceCreateInfo create{};
    create.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    create.queueCreateInfoCount = static_cast<uint32_t>(queues.size());
    create.pQueueCreateInfos = queues.data();
    CL2VK_TRY(vulkan::check(vkCreateDevice(physical, &create, nullptr, &device->device_), "vkCreateDevice"));
    volkLoadDeviceTable(&device->vk_, device->device_);
    vkGetPhysicalDeviceMemoryProperties(physical, &device->memoryProperties_);
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    CL2VK_TRY(
        vulkan::check(device->vk_.vkCreateFence(device->device_, &fence, nullptr, &device->fence_), "vkCreateFence"));
    for (Family& family : device->families_) {
      device->vk_.vkGetDeviceQueue(device->device_, family.index, 0, &family.queue);
      VkCommandPoolCreateInfo pool{};
      pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
      pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
      pool.queueFamilyIndex = family.index;
      CL2VK_TRY(vulkan::check(device->vk_.vkCreateCommandPool(device->device_, &pool, nullptr, &family.pool),
                              "vkCreateCommandPool"));
      VkCommandBufferAllocateInfo allocate{};
      allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
      allocate.commandPool = family.pool;
      allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      allocate.commandBufferCount = 1;
      CL2VK_TRY(vulkan::check(device->vk_.vkAllocateCommandBuffers(device->device_, &allocate, &family.commands),
                              "vkAllocateCommandBuffers"));
    }
    return device;
  }

  ~CopyDevice() {
    if (!device_) return;
    vk_.vkDeviceWaitIdle(device_);
    for (Memory& memory : memories_) {
      vk_.vkDestroyBuffer(device_, memory.buffer, nullptr);
      vk_.vkFreeMemory(device_, memory.memory, nullptr);
    }
    for (Family& family : families_) vk_.vkDestroyCommandPool(device_, family.pool, nullptr);
    vk_.vkDestroyFence(device_, fence_, nullptr);
    vk_.vkDestroyDevice(device_, nullptr);
  }

  const std::vector<Family>& families() const { return families_; }

  // A buffer of `size` in memory with every property of `wanted` and none of `unwanted`, shared by
  // every family; nullopt when the device has no such memory type. Host memory is mapped.
  Expected<std::optional<Memory>> allocate(VkDeviceSize size, VkMemoryPropertyFlags wanted,
                                           VkMemoryPropertyFlags unwanted) {
    Memory memory;
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = size;
    info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    info.sharingMode = familyIndices_.size() > 1 ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE;
    info.queueFamilyIndexCount = static_cast<uint32_t>(familyIndices_.size());
    info.pQueueFamilyIndices = familyIndices_.data();
    CL2VK_TRY(vulkan::check(vk_.vkCreateBuffer(device_, &info, nullptr, &memory.buffer), "vkCreateBuffer"));
    VkMemoryRequirements requirements;
    vk_.vkGetBufferMemoryRequirements(device_, memory.buffer, &requirements);
    std::optional<uint32_t> type;
    for (uint32_t i = 0; i < memoryProperties_.memoryTypeCount && !type; ++i) {
      VkMemoryPropertyFlags flags = memoryProperties_.memoryTypes[i].propertyFlags;
      if ((requirements.memoryTypeBits & (1u << i)) && (flags & wanted) == wanted && !(flags & unwanted)) type = i;
    }
    if (!type) {
      vk_.vkDestroyBuffer(device_, memory.buffer, nullptr);
      return std::optional<Memory>();
    }
    VkMemoryAllocateInfo allocation{};
    allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocation.allocationSize = requirements.size;
    allocation.memoryTypeIndex = *type;
    VkResult allocated = vk_.vkAllocateMemory(device_, &allocation, nullptr, &memory.memory);
    if (allocated != VK_SUCCESS) vk_.vkDestroyBuffer(device_, memory.buffer, nullptr);
    CL2VK_TRY(vulkan::check(allocated, "vkAllocateMemory"));
    memories_.push_back(memory);
    CL2VK_TRY(vulkan::check(vk_.vkBindBufferMemory(device_, memory.buffer, memory.memory, 0), "vkBindBufferMemory"));
    if (wanted & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
      CL2VK_TRY(
          vulkan::check(vk_.vkMapMemory(device_, memory.memory, 0, VK_WHOLE_SIZE, 0, &memory.host), "vkMapMemory"));
      memories_.back().host = memory.host;
    }
    return std::optional<Memory>(memory);
  }

  // Host nanoseconds from vkQueueSubmit of one vkCmdCopyBuffer of `size` bytes on `family`'s queue
  // to its fence signalling, polled with a yield.
  Expected<double> copy(const Family& family, const Memory& from, const Memory& to, VkDeviceSize size) {
    CL2VK_TRY(vulkan::check(vk_.vkResetCommandBuffer(family.commands, 0), "vkResetCommandBuffer"));
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    CL2VK_TRY(vulkan::check(vk_.vkBeginCommandBuffer(family.commands, &begin), "vkBeginCommandBuffer"));
    VkBufferCopy region{0, 0, size};
    vk_.vkCmdCopyBuffer(family.commands, from.buffer, to.buffer, 1, &region);
    CL2VK_TRY(vulkan::check(vk_.vkEndCommandBuffer(family.commands), "vkEndCommandBuffer"));
    CL2VK_TRY(vulkan::check(vk_.vkResetFences(device_, 1, &fence_), "vkResetFences"));
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &family.commands;
    auto start = Clock::now();
    CL2VK_TRY(vulkan::check(vk_.vkQueueSubmit(family.queue, 1, &submit, fence_), "vkQueueSubmit"));
    VkResult status;
    while ((status = vk_.vkGetFenceStatus(device_, fence_)) == VK_NOT_READY) std::this_thread::yield();
    CL2VK_TRY(vulkan::check(status, "vkGetFenceStatus"));
    return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  }

 private:
  CopyDevice() = default;

  VkDevice device_ = VK_NULL_HANDLE;
  VolkDeviceTable vk_{};
  VkPhysicalDeviceMemoryProperties memoryProperties_{};
  VkFence fence_ = VK_NULL_HANDLE;
  std::vector<Family> families_;
  std::vector<uint32_t> familyIndices_;
  std::vector<Memory> memories_;
};

std::string familyName(const CopyDevice::Family& family) {
  char flags[16];
  std::snprintf(flags, sizeof flags, "0x%x", static_cast<unsigned>(family.flags));
  std::string name = "family " + std::to_string(family.index) + " (" + flags;
  if (family.flags & VK_QUEUE_GRAPHICS_BIT) name += ", graphics";
  if (family.flags & VK_QUEUE_COMPUTE_BIT) name += ", compute";
  if (!(family.flags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))) name += ", neither graphics nor compute";
  return name + ")";
}

}  // namespace

int runTransferExperiment(const Options& options) {
  const size_t bytes = options.transferMiB << 20;
  const size_t count = options.runs;
  const size_t warmups = options.warmups;
  VariantTimes variants(1e6, "ms");

  // The native OpenCL first (its CUDA context holds an NVIDIA GPU's clocks up for the rows after it).
  std::vector<std::pair<std::string, std::string>> platforms;
  if (!options.nativePlatform.empty()) platforms.emplace_back(options.nativePlatform, "native OpenCL");
  platforms.emplace_back(options.platform, "cl2vk");
  std::vector<std::unique_ptr<OpenClRunner>> runners;
  for (const auto& [platform, label] : platforms) {
    auto runner = OpenClRunner::open(platform, label);
    if (!runner) {
      std::fprintf(stderr, "cl2vk-bench: %s\n", runner.error().message().c_str());
      return 1;
    }
    variants.add(label + ": clEnqueueMapBuffer for reading", (*runner)->mapHostTimes(bytes, false, warmups, count));
    variants.add(label + ": clEnqueueUnmapMemObject after writing",
                 (*runner)->mapHostTimes(bytes, true, warmups, count));
    runners.push_back(std::move(*runner));
  }

  auto runtimeDevice = vulkan::Device::open();
  if (!runtimeDevice) {
    std::fprintf(stderr, "cl2vk-bench: cannot open the Vulkan device: %s\n", runtimeDevice.error().message().c_str());
    return 1;
  }
  std::string deviceName = (*runtimeDevice)->info().name;
  auto copies = CopyDevice::open((*runtimeDevice)->physicalDevice());
  if (!copies) {
    std::fprintf(stderr, "cl2vk-bench: %s\n", copies.error().message().c_str());
    return 1;
  }
  CopyDevice& device = **copies;
  constexpr VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  auto gpu = device.allocate(bytes, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  auto cached = device.allocate(bytes, kHost | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  auto uncached =
      device.allocate(bytes, kHost, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  if (!gpu || !cached || !uncached) {
    Error why = !gpu ? gpu.error() : !cached ? cached.error() : uncached.error();
    std::fprintf(stderr, "cl2vk-bench: %s\n", why.message().c_str());
    return 1;
  }
  if (!*gpu || !*cached) {
    std::fprintf(stderr,
                 "cl2vk-bench: %s has no device-local memory apart from host memory (a CPU device?): "
                 "nothing to copy across\n",
                 deviceName.c_str());
    return 1;
  }
  std::vector<std::pair<std::string, const CopyDevice::Memory*>> hostMemories{{"cached", &**cached}};
  if (*uncached) hostMemories.emplace_back("uncached", &**uncached);

  for (const CopyDevice::Family& family : device.families()) {
    // The copy is checked once per family: a pattern through the device and back.
    auto* pattern = static_cast<uint32_t*>((*cached)->host);
    for (size_t i = 0; i < bytes / 4; i += 4093) pattern[i] = static_cast<uint32_t>(i * 2654435761u + family.index);
    auto there = device.copy(family, **cached, **gpu, bytes);
    std::memset(pattern, 0, bytes);
    auto back = there ? device.copy(family, **gpu, **cached, bytes) : there;
    bool same = static_cast<bool>(back);
    for (size_t i = 0; same && i < bytes / 4; i += 4093)
      same = pattern[i] == static_cast<uint32_t>(i * 2654435761u + family.index);
    if (!same) {
      variants.fail(familyName(family),
                    back ? "the bytes copied to the device and back differ" : back.error().message());
      continue;
    }
    for (const auto& [kind, host] : hostMemories) {
      variants.add(familyName(family) + ": vkCmdCopyBuffer device-local to " + kind + " host memory",
                   repeat(warmups, count, [&] { return device.copy(family, **gpu, *host, bytes); }));
      variants.add(familyName(family) + ": vkCmdCopyBuffer " + kind + " host memory to device-local",
                   repeat(warmups, count, [&] { return device.copy(family, *host, **gpu, bytes); }));
    }
  }

  std::printf("Copies of %zu MiB on \"%s\", medians of %zu after %zu warm-ups\n\n", options.transferMiB,
              deviceName.c_str(), count, warmups);
  std::printf("| variant | ms | GB/s | / first row's GB/s |\n|---|--:|--:|--:|\n");
  const std::vector<VariantTimes::Row>& rows = variants.rows();
  double first = rows.empty() ? 0 : rows.front().median;
  for (const VariantTimes::Row& row : rows) {
    std::printf("| %s | %.2f | %.1f | %.3f |\n", row.name.c_str(), row.median / 1e6,
                static_cast<double>(bytes) / row.median, row.median > 0 ? first / row.median : 0.0);
  }
  std::printf("\n%d failed\n", variants.failures());
  return variants.failures() == 0 ? 0 : 1;
}

}  // namespace cl2vk::bench
