// The memory dependencies between the blocking submissions of the executor. Each command buffer
// starts by waiting for the writes of everything submitted before it on the queue (OpenCL's
// in-order queue), and one whose results the host reads ends by making them visible to the host.
#pragma once

#include <volk.h>

namespace cl2vk::vulkan {

// Earlier shader and transfer writes become visible to `stages` for `access`.
void waitForEarlierWrites(const VolkDeviceTable& vk, VkCommandBuffer commands, VkPipelineStageFlags stages,
                          VkAccessFlags access);

// Shader and transfer writes recorded so far become visible to host reads after the fence.
void makeWritesVisibleToHost(const VolkDeviceTable& vk, VkCommandBuffer commands);

}  // namespace cl2vk::vulkan
