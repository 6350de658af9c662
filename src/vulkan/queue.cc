#include "vulkan/queue.h"

#include "vulkan/vk_result.h"

namespace cl2vk::vulkan {
namespace {

constexpr uint64_t kSubmitTimeoutNs = 120'000'000'000;

}  // namespace

Expected<std::unique_ptr<Queue>> Queue::create(const VolkDeviceTable& table, VkDevice device,
                                               uint32_t family, uint32_t timestampValidBits) {
  std::unique_ptr<Queue> queue(new Queue(table, device));
  queue->family_ = family;
  queue->timestampValidBits_ = timestampValidBits;
  table.vkGetDeviceQueue(device, family, 0, &queue->queue_);

  VkCommandPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  poolInfo.queueFamilyIndex = family;
  CL2VK_TRY(check(table.vkCreateCommandPool(device, &poolInfo, nullptr, &queue->commandPool_),
                  "vkCreateCommandPool"));
  return queue;
}

Queue::~Queue() {
  if (commandPool_ != VK_NULL_HANDLE) vk_.vkDestroyCommandPool(device_, commandPool_, nullptr);
}

Status Queue::submitAndWait(const std::function<void(VkCommandBuffer)>& record) {
  std::lock_guard lock(mutex_);
  VkCommandBufferAllocateInfo allocateInfo{};
  allocateInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocateInfo.commandPool = commandPool_;
  allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocateInfo.commandBufferCount = 1;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  CL2VK_TRY(check(vk_.vkAllocateCommandBuffers(device_, &allocateInfo, &commands),
                  "vkAllocateCommandBuffers"));
  auto freeCommands = [&] { vk_.vkFreeCommandBuffers(device_, commandPool_, 1, &commands); };

  VkCommandBufferBeginInfo beginInfo{};
  beginInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  if (VkResult result = vk_.vkBeginCommandBuffer(commands, &beginInfo); result != VK_SUCCESS) {
    freeCommands();
    return vulkanError("vkBeginCommandBuffer", result);
  }
  record(commands);
  if (VkResult result = vk_.vkEndCommandBuffer(commands); result != VK_SUCCESS) {
    freeCommands();
    return vulkanError("vkEndCommandBuffer", result);
  }

  VkFenceCreateInfo fenceInfo{};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = VK_NULL_HANDLE;
  if (VkResult result = vk_.vkCreateFence(device_, &fenceInfo, nullptr, &fence); result != VK_SUCCESS) {
    freeCommands();
    return vulkanError("vkCreateFence", result);
  }

  VkSubmitInfo submitInfo{};
  submitInfo.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &commands;
  const char* call = "vkQueueSubmit";
  VkResult result = vk_.vkQueueSubmit(queue_, 1, &submitInfo, fence);
  if (result == VK_SUCCESS) {
    call = "vkWaitForFences";
    result = vk_.vkWaitForFences(device_, 1, &fence, VK_TRUE, kSubmitTimeoutNs);
  }
  if (result == VK_TIMEOUT) {
    // The command buffer may still be executing, so it and the fence cannot be freed; leaking them
    // is the only safe choice after a hang.
    return Error("a submission did not finish within 120 s (VK_TIMEOUT); the kernel may not terminate");
  }
  vk_.vkDestroyFence(device_, fence, nullptr);
  freeCommands();
  return check(result, call);
}

}  // namespace cl2vk::vulkan
