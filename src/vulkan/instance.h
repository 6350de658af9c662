// The Vulkan instance: the loader (through volk), the API version cl2vk asks for, and, when
// validation is on, the Khronos validation layer with a messenger that records what it reports.
#pragma once

#include <volk.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

// The validation and performance messages of warning or error severity, one line each:
// "error: VUID-...: text". Shared with the messenger callback, hence the lock.
class MessageLog {
 public:
  void add(std::string message);
  std::vector<std::string> messages() const;
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> messages_;
};

class Instance {
 public:
  // Loads the Vulkan loader (once per process) and creates an instance for Vulkan 1.3, or 1.2 when
  // the loader is older. With `validation`, enables VK_LAYER_KHRONOS_validation (with
  // synchronization validation) and VK_EXT_debug_utils, or fails saying which one is missing.
  static Expected<std::unique_ptr<Instance>> create(bool validation);
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  VkInstance handle() const { return instance_; }
  uint32_t apiVersion() const { return apiVersion_; }
  bool validationEnabled() const { return messenger_ != VK_NULL_HANDLE; }
  const MessageLog& messageLog() const { return *log_; }
  MessageLog& messageLog() { return *log_; }

  Expected<std::vector<VkPhysicalDevice>> physicalDevices() const;

 private:
  Instance() = default;

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  uint32_t apiVersion_ = 0;
  // Heap-allocated so that the address given to the messenger stays put.
  std::unique_ptr<MessageLog> log_ = std::make_unique<MessageLog>();
};

}  // namespace cl2vk::vulkan
