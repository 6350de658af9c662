#include "vulkan/queue.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "vulkan/vk_result.h"

namespace cl2vk::vulkan {
namespace {

constexpr uint64_t kSubmitTimeoutNs = 120'000'000'000;
constexpr std::chrono::microseconds kPollTime{2000};

}  // namespace

bool pollFencesOn(VkPhysicalDeviceType type) {
  const char* choice = std::getenv("CL2VK_WAIT");
  if (choice && std::string(choice) == "poll") return true;
  if (choice && std::string(choice) == "sleep") return false;
  return type != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

Expected<std::unique_ptr<Queue>> Queue::create(const VolkDeviceTable& table, VkDevice device, uint32_t family,
                                               uint32_t timestampValidBits, bool pollFences) {
  std::unique_ptr<Queue> queue(new Queue(table, device));
  queue->pollFences_ = pollFences;
  queue->family_ = family;
  queue->timestampValidBits_ = timestampValidBits;
  table.vkGetDeviceQueue(device, family, 0, &queue->queue_);

  VkCommandPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = family;
  CL2VK_TRY(check(table.vkCreateCommandPool(device, &poolInfo, nullptr, &queue->commandPool_), "vkCreateCommandPool"));
  VkCommandBufferAllocateInfo allocateInfo{};
  allocateInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocateInfo.commandPool = queue->commandPool_;
  allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocateInfo.commandBufferCount = 1;
  CL2VK_TRY(
      check(table.vkAllocateCommandBuffers(device, &allocateInfo, &queue->commands_), "vkAllocateCommandBuffers"));
  VkFenceCreateInfo fenceInfo{};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  CL2VK_TRY(check(table.vkCreateFence(device, &fenceInfo, nullptr, &queue->fence_), "vkCreateFence"));
  return queue;
}

Queue::~Queue() {
  // After a hang the command buffer may still run: its pool, fence and queries are left alone.
  if (hung_) return;
  if (timestamps_ != VK_NULL_HANDLE) vk_.vkDestroyQueryPool(device_, timestamps_, nullptr);
  if (fence_ != VK_NULL_HANDLE) vk_.vkDestroyFence(device_, fence_, nullptr);
  if (commandPool_ != VK_NULL_HANDLE) vk_.vkDestroyCommandPool(device_, commandPool_, nullptr);
}

VkQueryPool Queue::timestampPool(uint32_t count) {
  if (count <= timestampCapacity_) return timestamps_;
  if (timestamps_ != VK_NULL_HANDLE) vk_.vkDestroyQueryPool(device_, timestamps_, nullptr);
  timestamps_ = VK_NULL_HANDLE;
  timestampCapacity_ = 0;
  VkQueryPoolCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = std::max<uint32_t>(count, 64);
  if (vk_.vkCreateQueryPool(device_, &info, nullptr, &timestamps_) != VK_SUCCESS) return VK_NULL_HANDLE;
  timestampCapacity_ = info.queryCount;
  return timestamps_;
}

Status Queue::submitAndWait(const std::function<void(VkCommandBuffer)>& record,
                            const std::function<Status()>& completed) {
  std::lock_guard lock(mutex_);
  CL2VK_TRY(submitLocked(record));
  return completed ? completed() : okStatus();
}

Status Queue::submitLocked(const std::function<void(VkCommandBuffer)>& record) {
  if (hung_) return Error("an earlier submission never finished; the device cannot take more work");
  if (lost())
    return Error("the Vulkan device was lost (VK_ERROR_DEVICE_LOST) in an earlier submission; it runs nothing more");
  VkCommandBufferBeginInfo beginInfo{};
  beginInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  // Beginning resets the buffer (the pool allows it): its last submission has finished.
  CL2VK_TRY(check(vk_.vkBeginCommandBuffer(commands_, &beginInfo), "vkBeginCommandBuffer"));
  record(commands_);
  CL2VK_TRY(check(vk_.vkEndCommandBuffer(commands_), "vkEndCommandBuffer"));
  CL2VK_TRY(check(vk_.vkResetFences(device_, 1, &fence_), "vkResetFences"));

  VkSubmitInfo submitInfo{};
  submitInfo.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &commands_;
  VkResult submitted = vk_.vkQueueSubmit(queue_, 1, &submitInfo, fence_);
  if (submitted == VK_ERROR_DEVICE_LOST) lost_.store(true, std::memory_order_release);
  CL2VK_TRY(check(submitted, "vkQueueSubmit"));
  VkResult result = VK_NOT_READY;
  if (pollFences_) {
    auto until = std::chrono::steady_clock::now() + kPollTime;
    while ((result = vk_.vkGetFenceStatus(device_, fence_)) == VK_NOT_READY && std::chrono::steady_clock::now() < until)
      std::this_thread::yield();
  }
  if (result == VK_NOT_READY) result = vk_.vkWaitForFences(device_, 1, &fence_, VK_TRUE, kSubmitTimeoutNs);
  if (result == VK_ERROR_DEVICE_LOST) lost_.store(true, std::memory_order_release);
  if (result == VK_TIMEOUT) {
    hung_ = true;
    return Error("a submission did not finish within 120 s (VK_TIMEOUT); the kernel may not terminate");
  }
  return check(result, "vkWaitForFences");
}

}  // namespace cl2vk::vulkan
