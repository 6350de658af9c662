// The device's one compute queue: records a command buffer, submits it and waits for its fence.
// Every transfer and dispatch is one such blocking submission. Several threads may submit at once
// (the OpenCL runtime's command queues share the device's queue); submissions are serialised.
// On a GPU the wait polls the fence for up to 2 ms before it sleeps in vkWaitForFences: a sleeping
// wait wakes tens of microseconds after the device is done (measured on NVIDIA's driver: a tiny
// kernel's enqueue-and-finish took 60 us against 24 us through NVIDIA's OpenCL), which is more
// than many kernels take. On a CPU device (lavapipe, SwiftShader) the wait sleeps at once: polling
// would take a core from the threads that run the kernel. CL2VK_WAIT=poll or sleep overrides.
// Once a submission or its wait reports VK_ERROR_DEVICE_LOST, the queue is lost for good: every
// later submission fails at once, as Vulkan requires (a lost device only takes destruction).
#pragma once

#include <volk.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

// Whether a queue of a device of `type` polls its fences (above).
bool pollFencesOn(VkPhysicalDeviceType type);

class Queue {
 public:
  // `table` must outlive the queue (the Device owns both).
  static Expected<std::unique_ptr<Queue>> create(const VolkDeviceTable& table, VkDevice device, uint32_t family,
                                                 uint32_t timestampValidBits, bool pollFences);
  ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  uint32_t family() const { return family_; }
  // 0 when the family writes no timestamps.
  uint32_t timestampValidBits() const { return timestampValidBits_; }

  // Records with `record` into the queue's command buffer, submits it and waits until the device
  // has finished it (or 120 s have passed: an error, not a hang), then runs `completed`, still
  // holding the queue, to read what the submission wrote (timestamps). The command buffer and
  // fence are reused from one submission to the next: submissions are serialised anyway.
  Status submitAndWait(const std::function<void(VkCommandBuffer)>& record,
                       const std::function<Status()>& completed = nullptr);

  // A timestamp query pool of at least `count` queries, kept and grown as needed. Only for use
  // inside submitAndWait's callbacks, which hold the queue; null when it cannot be created.
  VkQueryPool timestampPool(uint32_t count);

  // Whether a submission reported VK_ERROR_DEVICE_LOST.
  bool lost() const { return lost_.load(std::memory_order_acquire); }

 private:
  Queue(const VolkDeviceTable& table, VkDevice device) : vk_(table), device_(device) {}
  Status submitLocked(const std::function<void(VkCommandBuffer)>& record);

  const VolkDeviceTable& vk_;
  VkDevice device_;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  VkQueryPool timestamps_ = VK_NULL_HANDLE;
  uint32_t timestampCapacity_ = 0;
  // Set when a submission did not finish in time: its command buffer may still run, so nothing
  // may be submitted (or freed) after it.
  bool hung_ = false;
  std::atomic<bool> lost_ = false;
  // Guards everything above, which Vulkan requires to be externally synchronised.
  std::mutex mutex_;
  uint32_t family_ = 0;
  bool pollFences_ = false;
  uint32_t timestampValidBits_ = 0;
};

}  // namespace cl2vk::vulkan
