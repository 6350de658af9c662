// The device's one compute queue: records a command buffer, submits it and waits for its fence.
// Every transfer and dispatch is one such blocking submission. Several threads may submit at once
// (the OpenCL runtime's command queues share the device's queue); submissions are serialised.
#pragma once

#include <volk.h>

#include <functional>
#include <memory>
#include <mutex>

#include "support/expected.h"

namespace cl2vk::vulkan {

class Queue {
 public:
  // `table` must outlive the queue (the Device owns both).
  static Expected<std::unique_ptr<Queue>> create(const VolkDeviceTable& table, VkDevice device,
                                                 uint32_t family, uint32_t timestampValidBits);
  ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  uint32_t family() const { return family_; }
  // 0 when the family writes no timestamps.
  uint32_t timestampValidBits() const { return timestampValidBits_; }

  // Records with `record` into a fresh one-time command buffer, submits it and waits until the
  // device has finished it (or 120 s have passed: an error, not a hang).
  Status submitAndWait(const std::function<void(VkCommandBuffer)>& record);

 private:
  Queue(const VolkDeviceTable& table, VkDevice device) : vk_(table), device_(device) {}

  const VolkDeviceTable& vk_;
  VkDevice device_;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  // Guards queue_ and commandPool_, which Vulkan requires to be externally synchronised.
  std::mutex mutex_;
  uint32_t family_ = 0;
  uint32_t timestampValidBits_ = 0;
};

}  // namespace cl2vk::vulkan
