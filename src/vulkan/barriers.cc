#include "vulkan/barriers.h"

namespace cl2vk::vulkan {
namespace {

constexpr VkPipelineStageFlags kWritingStages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kWrites = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;

void memoryBarrier(const VolkDeviceTable& vk, VkCommandBuffer commands, VkPipelineStageFlags dstStages,
                   VkAccessFlags dstAccess) {
  VkMemoryBarrier barrier{};
  barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  barrier.srcAccessMask = kWrites;
  barrier.dstAccessMask = dstAccess;
  vk.vkCmdPipelineBarrier(commands, kWritingStages, dstStages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

}  // namespace

void waitForEarlierWrites(const VolkDeviceTable& vk, VkCommandBuffer commands, VkPipelineStageFlags stages,
                          VkAccessFlags access) {
  memoryBarrier(vk, commands, stages, access);
}

void makeWritesVisibleToHost(const VolkDeviceTable& vk, VkCommandBuffer commands) {
  memoryBarrier(vk, commands, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

}  // namespace cl2vk::vulkan
