// A logical device on the chosen physical device, with up to kMaxQueues queues of its compute family
// and every optional feature of DeviceFeatures that the device has. Buffers and pipelines keep a pointer to their
// Device, which therefore lives behind a unique_ptr and must outlive them.
#pragma once

#include <volk.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "vulkan/buffer_cache.h"
#include "vulkan/device_info.h"
#include "vulkan/gpu_clocks.h"
#include "vulkan/instance.h"
#include "vulkan/queue.h"

namespace cl2vk::vulkan {

struct DeviceOptions {
  // An index into enumerateDevices() or a case-insensitive substring of the device name; empty
  // takes the default choice (see selectDevice).
  std::string device;
  // Enables VK_LAYER_KHRONOS_validation and records its messages (Device::validationMessages).
  bool validation = false;
  // "compute", "graphics" or empty (compute): which kind of queue family to submit to
  // (selectQueueFamily).
  std::string queue;
  // Whether to hold what keeps an NVIDIA GPU at its full clock (gpu_clocks.h).
  ClockPolicy clocks = ClockPolicy::kCudaContext;
  // How long a submission may run before the queue takes it to hang (queue.h); none: no limit.
  std::optional<std::chrono::seconds> hangTimeout;
  // The size of the pieces a transfer between host memory and a buffer moves through staging
  // memory (Buffer::upload); none: the device's default (Device::stagingChunk). Tests set it small
  // to make transfers of a few kilobytes take many pieces.
  std::optional<VkDeviceSize> stagingChunk;

  // CL2VK_DEVICE, CL2VK_VALIDATION (on when "1"), CL2VK_QUEUE, CL2VK_NVIDIA_CLOCKS and
  // CL2VK_HANG_TIMEOUT (seconds; unset, 0 or not a number: no limit).
  static DeviceOptions fromEnvironment();
};

class Device {
 public:
  static Expected<std::unique_ptr<Device>> open(const DeviceOptions& options = DeviceOptions::fromEnvironment());
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // The properties of the device; `info().features` is exactly the set that was enabled.
  const DeviceInfo& info() const { return info_; }
  // The Vulkan version in use: the lower of the instance's and the device's.
  uint32_t apiVersion() const { return apiVersion_; }

  bool validationEnabled() const { return instance_->validationEnabled(); }
  // Every warning and error the validation layer reported since the device was opened (or since
  // clearValidationMessages); always empty without validation.
  std::vector<std::string> validationMessages() const { return instance_->messageLog().messages(); }
  void clearValidationMessages() { instance_->messageLog().clear(); }

  // At most this many queues of the family are opened: what lets that many OpenCL command queues
  // run at once, where the family has them (NVIDIA's compute family has 8; lavapipe and
  // SwiftShader 1).
  static constexpr uint32_t kMaxQueues = 4;

  // For Buffer, Pipeline and dispatch: the handles, the device-level function table (loaded for
  // this device, not volk's global one) and the queues.
  VkDevice handle() const { return device_; }
  VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
  const VolkDeviceTable& vk() const { return vk_; }
  const VkPhysicalDeviceMemoryProperties& memoryProperties() const { return memoryProperties_; }
  // The first queue: transfers, probes and the launches of a stream that did not ask for its own.
  Queue& queue() { return *queues_.front(); }
  // The queue a new stream of work (an OpenCL command queue) submits its launches to: the queues
  // in turn, so that streams run at once on the device where it has several queues.
  Queue& nextQueue();
  size_t queueCount() const { return queues_.size(); }
  // Whether the device was lost (VK_ERROR_DEVICE_LOST from a submission): nothing more runs on it.
  bool lost() const { return lost_->load(std::memory_order_acquire); }
  // Whether cl2vk holds what keeps the GPU at its full clock (ClockHold; NVIDIA only), and if it
  // tried and could not, why.
  bool holdsClocks() const { return clockHold_ != nullptr; }
  const std::string& clockHoldProblem() const { return clockHoldProblem_; }
  // How many compute pipelines were created on this device (Pipeline::create): the runtime's
  // count of pipeline compiles, which sharing pipelines between kernels is meant to keep low.
  uint64_t pipelinesCreated() const { return pipelinesCreated_.load(std::memory_order_relaxed); }
  // How many device memory allocations (vkAllocateMemory) buffers made on this device, staging
  // buffers included: what recycling buffers is meant to keep low.
  uint64_t memoryAllocations() const { return memoryAllocations_.load(std::memory_order_relaxed); }
  // The allocations released buffers left for reuse (buffer_cache.h): Buffer takes and keeps
  // them; tests read how many are kept.
  BufferCache& bufferCache() { return *bufferCache_; }
  // How many bytes one staging buffer of a transfer holds: 16 MiB, or less where the buffer cache
  // would not keep staging buffers that large (so that a transfer's pieces recycle them), unless
  // DeviceOptions::stagingChunk says otherwise.
  VkDeviceSize stagingChunk() const { return stagingChunk_; }

 private:
  friend class Pipeline;  // counts what it creates
  friend class Buffer;    // counts what it allocates
  Device() = default;

  std::unique_ptr<Instance> instance_;
  VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
  DeviceInfo info_;
  uint32_t apiVersion_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  VolkDeviceTable vk_{};
  VkPhysicalDeviceMemoryProperties memoryProperties_{};
  // Shared by the queues, which may outlive the device when the process exits.
  std::shared_ptr<std::atomic<bool>> lost_ = std::make_shared<std::atomic<bool>>(false);
  std::vector<std::unique_ptr<Queue>> queues_;
  std::atomic<uint32_t> nextQueue_ = 0;
  std::unique_ptr<BufferCache> bufferCache_;
  VkDeviceSize stagingChunk_ = 0;
  std::unique_ptr<ClockHold> clockHold_;
  std::string clockHoldProblem_;
  std::atomic<uint64_t> pipelinesCreated_{0};
  std::atomic<uint64_t> memoryAllocations_{0};
};

}  // namespace cl2vk::vulkan
